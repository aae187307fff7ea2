package io.objectmeta.cli.command;

import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.gc.GcQueueStats;
import io.objectmeta.api.listing.ListBucketsRequest;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.StoreUsage;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.cli.Output;
import io.objectmeta.cli.Session;
import io.objectmeta.cli.StoreCommand;
import io.objectmeta.cli.Text;
import io.objectmeta.cli.gc.GcStatusCommand;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import picocli.CommandLine.Command;

/** {@code stats}: what the store holds, in total and per bucket, and its GC queue. */
@Command(name = "stats", description = "Show the store's UUID, usage in total and per bucket, and"
    + " its GC queue.")
public final class StatsCommand extends StoreCommand {

  /** One bucket's line. */
  public record BucketStats(String bucket, VersioningState versioning, Usage usage) {}

  @Override
  protected int run(Session s) {
    UUID uuid = s.store().getUUID();
    StoreUsage usage = s.store().usage();
    GcQueueStats gc = s.store().gcQueueStats();
    List<BucketStats> buckets = new ArrayList<>();
    Pages.buckets(s.store(), ListBucketsRequest.all(), page -> {
      for (Bucket b : page.buckets()) {
        try {
          buckets.add(new BucketStats(b.name(), b.versioning(), s.store().bucketUsage(b.name())));
        } catch (NoSuchBucketException deletedMeanwhile) {
          // listed, then deleted by someone else: not there any more
        }
      }
    });
    if (json()) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("store", s.description());
      doc.put("uuid", uuid);
      doc.put("buckets", usage.buckets());
      doc.put("total", usage.total());
      doc.put("gcQueue", gc);
      doc.put("perBucket", buckets);
      Output.json(out(), doc);
      return 0;
    }
    Usage t = usage.total();
    new Output.Fields()
        .add("store", s.description())
        .add("store UUID", uuid)
        .add("buckets", usage.buckets())
        .add("current objects", t.currentObjects() + " (" + Text.bytes(t.currentBytes()) + ")")
        .add("noncurrent versions", t.nonCurrentVersions() + " (" + Text.bytes(t.nonCurrentBytes()) + ")")
        .add("delete markers", t.deleteMarkers())
        .add("uploads", t.uploads() + " (" + Text.bytes(t.partBytes()) + " in parts)")
        .add("gc queue", GcStatusCommand.describe(gc))
        .print(out());
    if (!buckets.isEmpty()) {
      out().println();
      Output.Table table = new Output.Table("BUCKET", "VERSIONING", "OBJECTS", "BYTES",
          "NONCURRENT", "NONCURRENT BYTES", "DELETE MARKERS", "UPLOADS");
      for (BucketStats b : buckets) {
        Usage u = b.usage();
        table.row(b.bucket(), Names.versioning(b.versioning()), u.currentObjects(),
            Text.bytes(u.currentBytes()), u.nonCurrentVersions(), Text.bytes(u.nonCurrentBytes()),
            u.deleteMarkers(), u.uploads());
      }
      table.print(out());
    }
    return 0;
  }
}
