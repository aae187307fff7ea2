package io.objectmeta.cli.command;

import io.objectmeta.api.Capability;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.gc.GcQueueStats;
import io.objectmeta.api.gc.GcRunner;
import io.objectmeta.api.listing.ListObjectsV2Request;
import io.objectmeta.api.listing.ListObjectsV2Result;
import io.objectmeta.api.listing.ListVersionsRequest;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.cli.Output;
import io.objectmeta.cli.Session;
import io.objectmeta.cli.StoreCommand;
import io.objectmeta.cli.Text;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code demo}: the library's main job in one run, on any store (the embedded PostgreSQL by
 * default): a versioned bucket, thousands of writes, overwrites and deletes, paged, delimited and
 * point-in-time listings, a version history, and a GC run that frees what the demo left behind;
 * each step printed with its count and time.
 */
@Command(name = "demo", description = {"Run the library's main job and print what it did, with"
    + " timings: a versioned bucket, thousands of objects and versions, overwrites and deletes,"
    + " listings page by page, a point-in-time listing, and a GC run.",
    "The buckets stay (demo-*), so you can look at them with list, get and stats."})
public final class DemoCommand extends StoreCommand {
  @Option(names = "--objects", paramLabel = "N", defaultValue = "3000",
      description = "Objects to write (default ${DEFAULT-VALUE}); overwrites, deletes and"
          + " removed versions scale with it.")
  int objects;

  @Option(names = "--skip-gc", description = "Leave what the demo queues for GC in the queue"
      + " (to try gc run on it).")
  boolean skipGc;

  private static final int PAGE = 500;
  private static final int SCRATCH_WRITES = 500;

  /**
   * One step of the demo.
   *
   * @param step what was done
   * @param count how many operations or entries
   * @param millis how long it took
   */
  public record Step(String step, long count, long millis) {}

  private final List<Step> steps = new ArrayList<>();

  @Override
  protected void checkInput() {
    if (objects < 12 || objects > 1_000_000) {
      throw usage("--objects must be 12 to 1000000, got " + objects);
    }
  }

  @Override
  protected int run(Session s) throws Exception {
    MetadataStore store = s.store();
    long start = System.nanoTime();
    String run = Long.toString(System.currentTimeMillis(), 36);
    String bucket = "demo-" + run;
    String scratch = "demo-scratch-" + run;
    GcQueueStats queueBefore = store.gcQueueStats();
    if (!json()) {
      out().println("demo on " + s.description());
    }

    Bucket photos = step("create bucket " + bucket + ", versioning Enabled", () -> {
      store.createBucket(bucket, BucketCommand.defaultOwner(), null);
      return store.updateBucket(bucket, BucketUpdate.versioning(VersioningState.ENABLED));
    });
    String[] firstVersion = new String[objects];
    timed("put " + objects + " objects", () -> {
      for (int i = 0; i < objects; i++) {
        firstVersion[i] = store.putObject(bucket, key(i), metadata(i, 0)).versionId();
      }
      return objects;
    });
    timed("overwrite every 3rd: new versions", () -> {
      int n = 0;
      for (int i = 0; i < objects; i += 3, n++) {
        store.putObject(bucket, key(i), metadata(i, 1));
      }
      return n;
    });
    Instant beforeDeletes = betweenClockTicks();
    long markers = timed("delete every 5th: delete markers", () -> {
      int n = 0;
      for (int i = 1; i < objects; i += 5, n++) {
        store.deleteObject(bucket, key(i));
      }
      return n;
    });
    timed("remove the first version of every 6th for good", () -> {
      int n = 0;
      for (int i = 0; i < objects; i += 6, n++) {
        store.deleteObjectVersion(bucket, key(i), firstVersion[i]);
      }
      return n;
    });

    long[] pages = new long[1];
    long current = timed("list current objects, pages of " + PAGE, () -> {
      long[] count = new long[1];
      Pages.walk(ListObjectsV2Request.of(bucket).withMaxKeys(PAGE), store::listObjectsV2,
          (q, r) -> r.truncated() ? q.withContinuationToken(r.nextContinuationToken()) : null, true,
          (ListObjectsV2Result r) -> {
            pages[0]++;
            count[0] += r.keyCount();
          });
      return count[0];
    });
    note(current + " objects (" + objects + " written, " + markers + " delete-marked) in "
        + pages[0] + " pages");
    long months = timed("list by month: prefix photos/2026/, delimiter /", () ->
        store.listObjectsV2(ListObjectsV2Request.of(bucket).withPrefix("photos/2026/")
            .withDelimiter("/")).commonPrefixes().size());
    note(months + " common prefixes");
    if (store.capabilities().contains(Capability.POINT_IN_TIME_LISTING)) {
      long asOf = timed("list as of before the deletes (point in time)", () -> {
        long[] count = new long[1];
        Pages.walk(ListObjectsV2Request.of(bucket).withMaxKeys(PAGE).withAsOf(beforeDeletes),
            store::listObjectsV2,
            (q, r) -> r.truncated() ? q.withContinuationToken(r.nextContinuationToken()) : null,
            true, (ListObjectsV2Result r) -> count[0] += r.keyCount());
        return count[0];
      });
      note(asOf + " objects as of " + beforeDeletes);
    } else {
      note("point-in-time listing: not supported by this store");
    }
    String historyKey = key(21);
    List<ObjectVersion> history = step("history of " + historyKey, () ->
        store.listObjectVersions(ListVersionsRequest.of(bucket).withPrefix(historyKey)).versions());
    note(history.stream().map(v -> (v.deleteMarker() ? "delete marker " : "version ")
        + v.versionId() + (v.latest() ? " (latest)" : "")).collect(Collectors.joining(", ")));

    Bucket scratchBucket = step("create unversioned bucket " + scratch, () ->
        store.createBucket(scratch, BucketCommand.defaultOwner(), null));
    timed("overwrite one key of it " + SCRATCH_WRITES + " times, then delete it and the bucket",
        () -> {
          for (int i = 0; i < SCRATCH_WRITES; i++) {
            store.putObject(scratch, "tmp/scratch.bin", metadata(i, 2));
          }
          store.deleteObject(scratch, "tmp/scratch.bin");
          store.deleteBucket(scratch);
          return SCRATCH_WRITES + 2;
        });
    GcQueueStats queued = store.gcQueueStats();
    note("GC queue: " + (queued.queued() - queueBefore.queued()) + " records from the demo ("
        + Text.bytes(queued.bytes() - queueBefore.bytes()) + " of data to free)");

    GcRunner.Progress gc = null;
    if (skipGc) {
      note("GC skipped (--skip-gc); try: objectmeta gc run --grace-period 0 --sink log:-");
    } else if (queueBefore.queued() > 0) {
      note("GC skipped: the queue held " + queueBefore.queued() + " records before the demo, not"
          + " the demo's to free; drain it with objectmeta gc run --sink ...");
    } else {
      Set<String> demoBuckets = Set.of(photos.id(), scratchBucket.id());
      // Accepts only the demo's records (another writer may share the store); the bound keeps a
      // run from going round on records it hands back.
      GcRunner runner = GcRunner.builder(store, batch -> batch.stream()
              .filter(r -> demoBuckets.contains(r.bucketId())).map(GarbageRecord::id)
              .collect(Collectors.toSet()))
          .gracePeriod(Duration.ZERO).batchSize(PAGE).concurrency(2)
          .maxRecords(queued.queued()).build();
      onInterrupt(runner::stop);
      GcRunner.Progress[] result = new GcRunner.Progress[1];
      timed("GC: drain the queue (a sink that accepts)", () -> {
        result[0] = runner.run();
        return result[0].freed();
      });
      onInterrupt(null);
      gc = result[0];
      note(gc.freed() + " records freed (" + Text.bytes(gc.bytesFreed()) + ")");
    }
    Usage usage = step("usage of " + bucket, () -> store.bucketUsage(bucket));
    note(usage.currentObjects() + " current objects (" + Text.bytes(usage.currentBytes()) + "), "
        + usage.nonCurrentVersions() + " noncurrent versions, " + usage.deleteMarkers()
        + " delete markers");
    long total = (System.nanoTime() - start) / 1_000_000;
    if (json()) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("store", s.description());
      doc.put("bucket", bucket);
      doc.put("steps", steps);
      doc.put("gc", gc);
      doc.put("usage", usage);
      doc.put("millis", total);
      Output.json(out(), doc);
    } else {
      out().printf("done in %.1f s; look around: objectmeta list %s --prefix photos/2026/01/,"
          + " objectmeta stats%n", total / 1000.0, bucket);
    }
    return 0;
  }

  /** A step that yields a value; its count is 1. */
  private <T> T step(String what, ThrowingSupplier<T> work) throws Exception {
    long t0 = System.nanoTime();
    T value = work.get();
    record(new Step(what, 1, (System.nanoTime() - t0) / 1_000_000));
    return value;
  }

  /** A step of many operations; returns how many. */
  private long timed(String what, ThrowingLongSupplier work) throws Exception {
    long t0 = System.nanoTime();
    long count = work.getAsLong();
    record(new Step(what, count, (System.nanoTime() - t0) / 1_000_000));
    return count;
  }

  private void record(Step step) {
    steps.add(step);
    if (!json()) {
      String rate = step.count() >= 100 && step.millis() > 0
          ? String.format("%8d/s", step.count() * 1000 / step.millis()) : "";
      out().printf("  %-66s %7d ms %s%n", Text.printable(step.step()), step.millis(), rate);
      out().flush();
    }
  }

  private void note(String text) {
    if (!json()) {
      out().println("      " + Text.printable(text));
      out().flush();
    }
  }

  private static String key(int i) {
    return String.format("photos/2026/%02d/img-%05d.jpg", i % 12 + 1, i);
  }

  private static ObjectMetadata metadata(int i, int generation) {
    long size = 1000 + i + generation * 7L;
    return ObjectMetadata.builder().size(size).etag(String.format("%032x", i * 31L + generation))
        .contentType("image/jpeg")
        .dataLocations(List.of(new DataLocation("disk-1", "blob-" + i + "-" + generation, 0, size)))
        .userMetadata(Map.of("camera", "x100")).build();
  }

  /** Work that returns a value and may throw. */
  @FunctionalInterface
  private interface ThrowingSupplier<T> {
    T get() throws Exception;
  }

  /** Work that counts what it did and may throw. */
  @FunctionalInterface
  private interface ThrowingLongSupplier {
    long getAsLong() throws Exception;
  }

  /**
   * An instant later than every version written so far and earlier than any written next:
   * version ids carry the clock in milliseconds, so this waits (a few milliseconds at most) for
   * it to move on, on both sides of the instant it returns.
   */
  private static Instant betweenClockTicks() {
    Instant written = Instant.now();
    while (!Instant.now().isAfter(written.plusMillis(1))) {
      Thread.onSpinWait();
    }
    Instant between = Instant.now();
    while (!Instant.now().isAfter(between.plusMillis(1))) {
      Thread.onSpinWait();
    }
    return between;
  }
}
