import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.MetadataStores;
import io.objectmeta.api.gc.GcRunner;
import io.objectmeta.api.listing.ListObjectsV2Request;
import io.objectmeta.api.listing.ListObjectsV2Result;
import io.objectmeta.api.listing.ListVersionsRequest;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The SPI in one run: a versioned bucket, versions, delete markers, paged listing, a point-in-time
 * listing, and a GC run that drains what overwrites and deletes left behind.
 * Store URI from the first argument (default memory:).
 */
public class Quickstart {
  public static void main(String[] args) throws Exception {
    String uri = args.length > 0 ? args[0] : "memory:";
    try (MetadataStore store = MetadataStores.open(uri)) {
      long t0 = System.nanoTime();
      // Fresh bucket names per run: a persistent store keeps the buckets of earlier runs.
      String run = Long.toString(System.currentTimeMillis(), 36);
      String photos = "photos-" + run;
      String scratch = "scratch-" + run;
      store.createBucket(photos, "alice", null);
      store.updateBucket(photos, BucketUpdate.versioning(VersioningState.ENABLED));
      for (int i = 0; i < 3000; i++) {
        store.putObject(photos, String.format("2026/%02d/img-%04d.jpg", i % 12 + 1, i), meta(i));
      }
      Instant beforeChanges = Instant.now();
      Thread.sleep(2);
      for (int i = 0; i < 3000; i += 3) {
        store.putObject(photos, String.format("2026/%02d/img-%04d.jpg", i % 12 + 1, i), meta(i + 1));
      }
      for (int i = 1; i < 3000; i += 5) {
        store.deleteObject(photos, String.format("2026/%02d/img-%04d.jpg", i % 12 + 1, i));
      }
      System.out.printf("wrote 3000 objects, 1000 new versions, 600 delete markers in %d ms%n",
          (System.nanoTime() - t0) / 1_000_000);

      ListObjectsV2Result months = store.listObjectsV2(
          ListObjectsV2Request.of(photos).withPrefix("2026/").withDelimiter("/"));
      System.out.println("months: " + months.commonPrefixes());

      int pages = 0;
      int objects = 0;
      String token = null;
      do {
        ListObjectsV2Result page = store.listObjectsV2(
            ListObjectsV2Request.of(photos).withMaxKeys(500).withContinuationToken(token));
        pages++;
        objects += page.contents().size();
        token = page.nextContinuationToken();
      } while (token != null);
      System.out.printf("current objects: %d in %d pages of up to 500%n", objects, pages);

      int asOf = store.listObjectsV2(ListObjectsV2Request.of(photos).withAsOf(beforeChanges)).keyCount();
      System.out.println("objects as of before the deletes (first page): " + asOf);

      List<ObjectVersion> history = store.listObjectVersions(
          ListVersionsRequest.of(photos).withPrefix("2026/01/img-0000.jpg")).versions();
      System.out.println("history of 2026/01/img-0000.jpg: " + history.stream()
          .map(v -> v.versionId() + (v.latest() ? " (latest)" : "")).collect(Collectors.joining(", ")));

      // Unversioned overwrites queue the old record's data for GC.
      store.createBucket(scratch, "alice", null);
      for (int i = 0; i < 500; i++) {
        store.putObject(scratch, "tmp", meta(i));
      }
      System.out.println("GC queue: " + store.gcQueueStats());
      GcRunner.Progress p = GcRunner.builder(store, batch -> batch.stream()
              .map(r -> r.id()).collect(Collectors.toSet()))
          .gracePeriod(Duration.ZERO).batchSize(100).build().run();
      System.out.printf("GC freed %d records (%d bytes) in %d ms%n", p.freed(), p.bytesFreed(),
          p.elapsed().toMillis());
      System.out.println("usage: " + store.usage());
      System.out.println("store UUID: " + store.getUUID());
    }
  }

  private static ObjectMetadata meta(int i) {
    return ObjectMetadata.builder().size(1000 + i).etag(String.format("%032x", i))
        .contentType("image/jpeg").owner("alice")
        .dataLocations(List.of(new DataLocation("disk-1", "blob-" + i, 0, 1000 + i)))
        .tags(java.util.Map.of("camera", "x100")).build();
  }
}
