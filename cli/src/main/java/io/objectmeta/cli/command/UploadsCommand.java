package io.objectmeta.cli.command;

import io.objectmeta.api.listing.ListUploadsRequest;
import io.objectmeta.api.listing.ListUploadsResult;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.validation.Validation;
import io.objectmeta.cli.Output;
import io.objectmeta.cli.Session;
import io.objectmeta.cli.Text;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code uploads list|create|abort}: multipart upload records. */
@Command(name = "uploads", description = "List, start and abort multipart uploads.",
    subcommands = {UploadsCommand.ListUploads.class, UploadsCommand.Create.class,
        UploadsCommand.Abort.class})
public final class UploadsCommand {

  @Command(name = "list", description = "List a bucket's in-progress uploads (ListMultipartUploads).")
  static final class ListUploads extends OnBucketCommand {
    @Mixin
    ListingOptions listing;

    @Option(names = "--key-marker", paramLabel = "KEY", description = "After this key.")
    String keyMarker;

    @Option(names = "--upload-id-marker", paramLabel = "ID",
        description = "With --key-marker: after this upload of that key.")
    String uploadIdMarker;

    @Option(names = "--max-uploads", paramLabel = "N", description = "Per page, 0 to 1000 (default 1000).")
    int maxUploads = 1000;

    @Override
    protected void checkInput() {
      super.checkInput();
      Validation.maxKeys("maxUploads", maxUploads);
    }

    @Override
    protected int run(Session s) {
      List<MultipartUpload> uploads = new ArrayList<>();
      List<String> prefixes = new ArrayList<>();
      ListUploadsResult[] last = new ListUploadsResult[1];
      ListUploadsRequest first = ListUploadsRequest.of(bucket).withPrefix(listing.prefix)
          .withDelimiter(listing.delimiter).withKeyMarker(keyMarker).withUploadIdMarker(uploadIdMarker)
          .withMaxUploads(maxUploads);
      Pages.walk(first, s.store()::listMultipartUploads,
          (q, r) -> r.truncated() ? q.withKeyMarker(r.nextKeyMarker())
              .withUploadIdMarker(r.nextUploadIdMarker()) : null,
          listing.all, (ListUploadsResult r) -> {
            uploads.addAll(r.uploads());
            prefixes.addAll(r.commonPrefixes());
            last[0] = r;
          });
      ListUploadsResult end = last[0];
      if (json()) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("uploads", uploads);
        doc.put("commonPrefixes", prefixes);
        doc.put("truncated", end.truncated());
        doc.put("nextKeyMarker", end.nextKeyMarker());
        doc.put("nextUploadIdMarker", end.nextUploadIdMarker());
        Output.json(out(), doc);
        return 0;
      }
      Output.Table t = new Output.Table("INITIATED", "UPLOAD ID", "KEY");
      prefixes.forEach(p -> t.row("", "PRE", p));
      uploads.forEach(u -> t.row(Output.time(u.initiated()), u.uploadId(), u.key()));
      t.print(out());
      if (end.truncated()) {
        out().flush();
        err().println("objectmeta: more follow; the next page: --key-marker "
            + Names.shellWord(Text.printable(end.nextKeyMarker()))
            + (end.nextUploadIdMarker() == null ? "" : " --upload-id-marker " + end.nextUploadIdMarker())
            + " (or --all)");
      }
      return 0;
    }
  }

  @Command(name = "create", description = "Start a multipart upload (CreateMultipartUpload).")
  static final class Create extends KeyCommand {
    @Mixin
    MetadataOptions metadata;

    @Override
    protected int run(Session s) {
      MultipartUpload u = s.store().initiateMultipartUpload(bucket, key, metadata.build());
      if (json()) {
        Output.json(out(), u);
      } else {
        new Output.Fields().add("key", u.key()).add("uploadId", u.uploadId())
            .add("initiated", Output.time(u.initiated())).print(out());
      }
      return 0;
    }
  }

  @Command(name = "abort", description = "Abort a multipart upload; its parts go to the GC queue.")
  static final class Abort extends KeyCommand {
    @Parameters(index = "2", paramLabel = "UPLOAD_ID")
    String uploadId;

    @Override
    protected void checkInput() {
      super.checkInput();
      Validation.uploadId(uploadId);
    }

    @Override
    protected int run(Session s) {
      s.store().abortMultipartUpload(bucket, key, uploadId);
      if (json()) {
        Output.json(out(), Map.of("aborted", uploadId, "key", key));
      } else {
        out().println("aborted upload " + uploadId + " of " + Text.printable(key));
      }
      return 0;
    }
  }
}
