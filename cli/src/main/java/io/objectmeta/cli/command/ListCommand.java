package io.objectmeta.cli.command;

import com.fasterxml.jackson.core.JsonGenerator;
import io.objectmeta.api.listing.ListObjectsRequest;
import io.objectmeta.api.listing.ListObjectsV2Request;
import io.objectmeta.api.listing.ListObjectsV2Result;
import io.objectmeta.api.listing.ListVersionsRequest;
import io.objectmeta.api.listing.ListVersionsResult;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.validation.Validation;
import io.objectmeta.cli.Output;
import io.objectmeta.cli.Session;
import io.objectmeta.cli.Text;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Mixin;

/**
 * {@code list BUCKET}: ListObjectsV2, or ListObjectVersions with {@code --versions}; one page, or
 * all of them with {@code --all}. Pages are printed as they arrive, so --all works on buckets of
 * any size, in a table or in one streamed JSON document.
 */
@Command(name = "list", description = {"List a bucket's current objects (ListObjectsV2), or every"
    + " version and delete marker with --versions.",
    "One page of --max-keys; --all pages through everything. A truncated page says on stderr how"
        + " to ask for the next one."})
public final class ListCommand extends OnBucketCommand {
  @Mixin
  ListingOptions listing;

  @Option(names = "--max-keys", paramLabel = "N", description = "Keys per page, 0 to 1000 (default 1000).")
  int maxKeys = ListObjectsRequest.DEFAULT_MAX_KEYS;

  @Option(names = "--start-after", paramLabel = "KEY", description = "Keys after this one.")
  String startAfter;

  @Option(names = "--continuation-token", paramLabel = "TOKEN",
      description = "Go on where a truncated page ended (its next continuation token).")
  String continuationToken;

  @Option(names = "--as-of", paramLabel = "TIME",
      description = "The bucket as it was then (ISO-8601, e.g. 2026-11-22T10:00:00Z); versioned"
          + " buckets, on stores with point-in-time listing.")
  Instant asOf;

  @Option(names = "--versions", description = "Every version and delete marker (ListObjectVersions).")
  boolean versions;

  @Option(names = "--key-marker", paramLabel = "KEY", description = "With --versions: after this key.")
  String keyMarker;

  @Option(names = "--version-id-marker", paramLabel = "ID",
      description = "With --versions and --key-marker: after this version of that key.")
  String versionIdMarker;

  @Override
  protected void checkInput() {
    super.checkInput();
    Validation.maxKeys("maxKeys", maxKeys);
    if (versions && (startAfter != null || continuationToken != null || asOf != null)) {
      throw usage("--start-after, --continuation-token and --as-of list current objects;"
          + " with --versions use --key-marker and --version-id-marker");
    }
    if (!versions && (keyMarker != null || versionIdMarker != null)) {
      throw usage("--key-marker and --version-id-marker go with --versions;"
          + " for current objects use --start-after or --continuation-token");
    }
  }

  @Override
  protected int run(Session s) throws IOException {
    Printer p = json() ? new JsonPrinter(versions ? "versions" : "contents") : new TablePrinter();
    if (versions) {
      ListVersionsRequest first = ListVersionsRequest.of(bucket).withPrefix(listing.prefix)
          .withDelimiter(listing.delimiter).withMaxKeys(maxKeys).withKeyMarker(keyMarker)
          .withVersionIdMarker(versionIdMarker);
      Pages.walk(first, s.store()::listObjectVersions,
          (q, r) -> r.truncated() ? q.withKeyMarker(r.nextKeyMarker())
              .withVersionIdMarker(r.nextVersionIdMarker()) : null,
          listing.all, (ListVersionsResult r) -> p.page(r.versions(), r.commonPrefixes(), r.truncated(),
              r.truncated() ? nextVersionsPage(r) : List.of()));
    } else {
      ListObjectsV2Request first = ListObjectsV2Request.of(bucket).withPrefix(listing.prefix)
          .withDelimiter(listing.delimiter).withMaxKeys(maxKeys).withStartAfter(startAfter)
          .withContinuationToken(continuationToken).withAsOf(asOf);
      Pages.walk(first, s.store()::listObjectsV2,
          (q, r) -> r.truncated() ? q.withContinuationToken(r.nextContinuationToken()) : null,
          listing.all, (ListObjectsV2Result r) -> p.page(r.contents(), r.commonPrefixes(), r.truncated(),
              r.truncated() ? List.of("--continuation-token", r.nextContinuationToken()) : List.of()));
    }
    p.end();
    return 0;
  }

  private static List<String> nextVersionsPage(ListVersionsResult r) {
    List<String> next = new ArrayList<>(List.of("--key-marker", r.nextKeyMarker()));
    if (r.nextVersionIdMarker() != null) {
      next.addAll(List.of("--version-id-marker", r.nextVersionIdMarker()));
    }
    return next;
  }

  /** Where pages go as they arrive. */
  private interface Printer {
    /** One page; {@code next} is the options that ask for the following one (empty at the end). */
    void page(List<ObjectVersion> entries, List<String> prefixes, boolean truncated, List<String> next);

    void end() throws IOException;
  }

  /** Fixed columns (like {@code aws s3 ls}), so pages line up without being held. */
  private final class TablePrinter implements Printer {
    private boolean header;
    private List<String> next = List.of();

    @Override
    public void page(List<ObjectVersion> entries, List<String> prefixes, boolean truncated,
        List<String> nextOptions) {
      if (!header) {
        out().println(versions
            ? String.format("%-19s  %12s  %-6s  %-24s  %s", "LAST MODIFIED", "SIZE", "LATEST", "VERSION ID", "KEY")
            : String.format("%-19s  %12s  %s", "LAST MODIFIED", "SIZE", "KEY"));
        header = true;
      }
      for (String pre : prefixes) {
        out().println(versions
            ? String.format("%-19s  %12s  %-6s  %-24s  %s", "", "PRE", "", "", Text.printable(pre))
            : String.format("%-19s  %12s  %s", "", "PRE", Text.printable(pre)));
      }
      for (ObjectVersion v : entries) {
        String size = v.deleteMarker() ? "(marker)" : Long.toString(v.size());
        out().println(versions
            ? String.format("%-19s  %12s  %-6s  %-24s  %s", Output.time(v.lastModified()), size,
                v.latest() ? "latest" : "", v.versionId(), Text.printable(v.key()))
            : String.format("%-19s  %12s  %s", Output.time(v.lastModified()), size,
                Text.printable(v.key())));
      }
      next = nextOptions;
    }

    @Override
    public void end() {
      out().flush();
      if (!next.isEmpty()) {
        StringBuilder b = new StringBuilder("objectmeta: more follow; the next page:");
        for (String w : next) {
          b.append(' ').append(Names.shellWord(Text.printable(w)));
        }
        err().println(b.append(" (or --all)"));
      }
    }
  }

  /** One JSON document, its entries streamed: {contents|versions, commonPrefixes, truncated, next…}. */
  private final class JsonPrinter implements Printer {
    private final JsonGenerator g;
    private final List<String> prefixes = new ArrayList<>();
    private boolean truncated;
    private List<String> next = List.of();
    private long count;

    JsonPrinter(String entriesField) throws IOException {
      g = Output.JSON.getFactory().createGenerator(out());
      g.useDefaultPrettyPrinter();
      g.writeStartObject();
      g.writeArrayFieldStart(entriesField);
    }

    @Override
    public void page(List<ObjectVersion> entries, List<String> pagePrefixes, boolean pageTruncated,
        List<String> nextOptions) {
      try {
        for (ObjectVersion v : entries) {
          Output.JSON.writeValue(g, VersionView.summary(v));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      count += entries.size() + pagePrefixes.size();
      prefixes.addAll(pagePrefixes);
      truncated = pageTruncated;
      next = nextOptions;
    }

    @Override
    public void end() throws IOException {
      g.writeEndArray();
      g.writeArrayFieldStart("commonPrefixes");
      for (String p : prefixes) {
        g.writeString(p);
      }
      g.writeEndArray();
      g.writeNumberField("keyCount", count);
      g.writeBooleanField("truncated", truncated);
      for (int i = 0; i + 1 < next.size(); i += 2) {
        g.writeStringField(camel(next.get(i)), next.get(i + 1));
      }
      g.writeEndObject();
      g.flush();
      out().println();
    }
  }

  /** --key-marker → nextKeyMarker: the field of the JSON output that feeds that option. */
  private static String camel(String option) {
    StringBuilder b = new StringBuilder("next");
    for (String part : option.substring(2).split("-")) {
      b.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
    }
    return b.toString();
  }
}
