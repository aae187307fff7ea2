package io.objectmeta.bench;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.error.PreconditionFailedException;
import io.objectmeta.api.error.ServiceUnavailableException;
import io.objectmeta.api.gc.GcRunner;
import io.objectmeta.api.listing.ListObjectsV2Request;
import io.objectmeta.api.listing.ListObjectsV2Result;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.model.WriteCondition;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * The driver: runs every workload against one target, with warm-up runs and repeated measured
 * runs, interleaving the target's raw baseline (when it has one) run by run, so both see the
 * same machine state. Each workload works on its own buckets, prepared identically for the
 * backend ("-b") and the baseline ("-r") through the SPI; preparation is never timed.
 */
public final class Bench {
  private final BenchConfig c;
  private final PrintStream log;
  private final Map<String, String> statements = new java.util.LinkedHashMap<>();
  private final List<Concurrency.Cell> cells = new ArrayList<>();

  /** The concurrency group's rows of the last {@link #run}. */
  public List<Concurrency.Cell> cells() {
    return cells;
  }

  /** Statements the database received per operation in the last measured run, by workload side. */
  public Map<String, String> statements() {
    return statements;
  }

  public Bench(BenchConfig config, PrintStream log) {
    this.c = config;
    this.log = log;
  }

  /** Runs every workload on {@code t}; one result row per workload. */
  public List<Result> run(BenchTarget t) throws Exception {
    List<Result> out = new ArrayList<>();
    if (c.workloads().stream().anyMatch(BenchConfig.ALL_WORKLOADS::contains)) {
      runGroups(t, out);
    }
    if (c.workloads().contains("concurrency")) {
      try (MetadataStore store = t.openConcurrentStore(c.concurrency().pool())) {
        log.printf("== %s concurrency (%s)%n", t.name(), t.describe());
        cells.addAll(new Concurrency(c, log).run(t, store));
      }
    }
    return out;
  }

  private void runGroups(BenchTarget t, List<Result> out) throws Exception {
    try (MetadataStore store = t.openStore(); Baseline raw = t.baseline(store)) {
      log.printf("== %s (%s)%n", t.name(), t.describe());
      List<String> w = c.workloads();
      if (w.contains("point")) {
        pointWorkloads(t, store, raw, out);
      }
      if (w.contains("list")) {
        listWorkloads(t, store, out);
      }
      if (w.contains("gc")) {
        gcDrain(t, store, raw, out);
      }
      if (w.contains("walk")) {
        walks(t, store, out);
      }
      if (w.contains("contend")) {
        contention(t, store, out);
      }
    }
  }

  // ------------------------------------------------------------------------- point workloads

  private void pointWorkloads(BenchTarget t, MetadataStore store, Baseline raw, List<Result> out)
      throws Exception {
    int iterations = c.warmups() + c.runs();
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < c.keys(); i++) {
      keys.add(String.format("obj/%06d", i));
    }

    // put, unversioned overwrite: key j % keys, a size one larger than before (so usage changes)
    bucketPair(store, "pu", VersioningState.UNVERSIONED);
    long[] puSize = new long[keys.size()];
    for (int side = 0; side < 2; side++) {
      load(store, "pu-" + "br".charAt(side), keys, k -> meta(k, 100));
    }
    java.util.Arrays.fill(puSize, 100);
    IntFunction<List<Op>> puPlan = memo(it -> {
      List<Op> ops = new ArrayList<>(c.ops());
      for (int j = 0; j < c.ops(); j++) {
        int k = j % keys.size();
        ObjectMetadata prev = meta(keys.get(k), puSize[k]);
        ops.add(new Op(keys.get(k), null, meta(keys.get(k), ++puSize[k]), prev));
      }
      return ops;
    });
    out.add(measure(t, Workload.PUT_UNVERSIONED,
        ops(puPlan, o -> store.putObject("pu-b", o.key(), o.metadata())),
        raw == null ? null : raw.phase(Workload.PUT_UNVERSIONED, "pu-r", puPlan), ""));

    // put, versioned: a new version of an existing key (the history grows by one per op)
    bucketPair(store, "pv", VersioningState.ENABLED);
    long[] pvSize = new long[keys.size()];
    for (int side = 0; side < 2; side++) {
      load(store, "pv-" + "br".charAt(side), keys, k -> meta(k, 100));
    }
    java.util.Arrays.fill(pvSize, 100);
    IntFunction<List<Op>> pvPlan = memo(it -> {
      List<Op> ops = new ArrayList<>(c.ops());
      for (int j = 0; j < c.ops(); j++) {
        int k = j % keys.size();
        ObjectMetadata prev = meta(keys.get(k), pvSize[k]);
        ops.add(new Op(keys.get(k), null, meta(keys.get(k), ++pvSize[k]), prev));
      }
      return ops;
    });
    int versionsPerKey = 1 + iterations * c.ops() / keys.size();
    out.add(measure(t, Workload.PUT_VERSIONED,
        ops(pvPlan, o -> store.putObject("pv-b", o.key(), o.metadata())),
        raw == null ? null : raw.phase(Workload.PUT_VERSIONED, "pv-r", pvPlan),
        "history grows to ~" + versionsPerKey + " versions per key"));

    // get latest: the unversioned keys written above
    IntFunction<List<Op>> getPlan = memo(it -> {
      List<Op> ops = new ArrayList<>(c.ops());
      for (int j = 0; j < c.ops(); j++) {
        ops.add(new Op(keys.get((j * 7 + it) % keys.size()), null, null, null));
      }
      return ops;
    });
    out.add(measure(t, Workload.GET_LATEST,
        ops(getPlan, o -> store.getObject("pu-b", o.key())),
        raw == null ? null : raw.phase(Workload.GET_LATEST, "pu-r", getPlan), ""));

    // get by version id: the older of two versions of each key
    bucketPair(store, "gv", VersioningState.ENABLED);
    String[][] gvIds = new String[2][];
    for (int side = 0; side < 2; side++) {
      gvIds[side] = load(store, "gv-" + "br".charAt(side), keys, k -> meta(k, 100));
      load(store, "gv-" + "br".charAt(side), keys, k -> meta(k, 200));
    }
    IntFunction<List<Op>>[] gvPlan = sides(side -> it -> {
      List<Op> ops = new ArrayList<>(c.ops());
      for (int j = 0; j < c.ops(); j++) {
        int k = (j * 7 + it) % keys.size();
        ops.add(new Op(keys.get(k), gvIds[side][k], null, null));
      }
      return ops;
    });
    out.add(measure(t, Workload.GET_VERSION,
        ops(gvPlan[0], o -> store.getObjectVersion("gv-b", o.key(), o.versionId())),
        raw == null ? null : raw.phase(Workload.GET_VERSION, "gv-r", gvPlan[1]),
        "non-latest version"));

    // delete without version id on an enabled bucket: fresh keys each op, each with one object
    int deleteKeys = iterations * c.ops();
    List<String> dkeys = new ArrayList<>();
    for (int i = 0; i < deleteKeys; i++) {
      dkeys.add(String.format("del/%07d", i));
    }
    bucketPair(store, "dm", VersioningState.ENABLED);
    for (int side = 0; side < 2; side++) {
      load(store, "dm-" + "br".charAt(side), dkeys, k -> meta(k, 100));
    }
    IntFunction<List<Op>> dmPlan = it -> {
      List<Op> ops = new ArrayList<>(c.ops());
      for (int j = 0; j < c.ops(); j++) {
        String k = dkeys.get(it * c.ops() + j);
        ops.add(new Op(k, null, null, meta(k, 100)));
      }
      return ops;
    };
    out.add(measure(t, Workload.DELETE_MARKER,
        ops(dmPlan, o -> store.deleteObject("dm-b", o.key())),
        raw == null ? null : raw.phase(Workload.DELETE_MARKER, "dm-r", dmPlan),
        "each key had one object"));

    // delete by version id: removes the only version of fresh keys (the key disappears)
    bucketPair(store, "dv", VersioningState.ENABLED);
    String[][] dvIds = new String[2][];
    for (int side = 0; side < 2; side++) {
      dvIds[side] = load(store, "dv-" + "br".charAt(side), dkeys, k -> meta(k, 100));
    }
    IntFunction<List<Op>>[] dvPlan = sides(side -> it -> {
      List<Op> ops = new ArrayList<>(c.ops());
      for (int j = 0; j < c.ops(); j++) {
        int i = it * c.ops() + j;
        ops.add(new Op(dkeys.get(i), dvIds[side][i], null, meta(dkeys.get(i), 100)));
      }
      return ops;
    });
    out.add(measure(t, Workload.DELETE_VERSION,
        ops(dvPlan[0], o -> store.deleteObjectVersion("dv-b", o.key(), o.versionId())),
        raw == null ? null : raw.phase(Workload.DELETE_VERSION, "dv-r", dvPlan[1]), ""));
  }

  // ------------------------------------------------------------------------------- listings

  private void listWorkloads(BenchTarget t, MetadataStore store, List<Result> out)
      throws Exception {
    createBucket(store, "walk-big", VersioningState.UNVERSIONED);
    load(store, "walk-big", walkKeys(c.walkBig()), k -> meta(k, 100));
    int prefixes = 100;
    int perPrefix = Math.max(1, c.walkBig() / prefixes);
    int startPrefixes = Math.max(1, prefixes - (1000 + perPrefix - 1) / perPrefix);
    int[] seen = new int[2];
    Phase flat = it -> {
      for (int q = 0; q < c.listOps(); q++) {
        String after = String.format("p%03d", (it * c.listOps() + q) % startPrefixes);
        seen[0] = store.listObjectsV2(ListObjectsV2Request.of("walk-big").withStartAfter(after)
            .withMaxKeys(1000)).contents().size();
      }
      return c.listOps();
    };
    out.add(measure(t, Workload.LIST_FLAT, flat, null, ""));
    out.set(out.size() - 1, withNote(out.get(out.size() - 1),
        seen[0] + " keys per page, bucket of " + c.walkBig()));
    Phase delim = it -> {
      for (int q = 0; q < c.listOps(); q++) {
        seen[1] = store.listObjectsV2(ListObjectsV2Request.of("walk-big").withDelimiter("/"))
            .commonPrefixes().size();
      }
      return c.listOps();
    };
    out.add(measure(t, Workload.LIST_DELIMITER, delim, null, ""));
    out.set(out.size() - 1, withNote(out.get(out.size() - 1),
        seen[1] + " common prefixes, bucket of " + c.walkBig()));

    // delete-marked keys interleaved with the visible ones, against the visible ones alone
    int total = c.markers() + c.visible();
    int stride = Math.max(1, total / Math.max(1, c.visible()));
    List<String> visible = new ArrayList<>();
    List<String> marked = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      String k = String.format("k%08d", i);
      (i % stride == stride - 1 && visible.size() < c.visible() ? visible : marked).add(k);
    }
    createBucket(store, "mk-clean", VersioningState.ENABLED);
    createBucket(store, "mk-dirty", VersioningState.ENABLED);
    load(store, "mk-clean", visible, k -> meta(k, 100));
    long t0 = System.nanoTime();
    load(store, "mk-dirty", marked, k -> meta(k, 100));
    parallel(marked, k -> store.deleteObject("mk-dirty", k));
    load(store, "mk-dirty", visible, k -> meta(k, 100));
    log.printf("  loaded %d delete-marked keys in %.1f s%n", marked.size(),
        (System.nanoTime() - t0) / 1e9);
    String[] last = new String[3];
    int[] counts = new int[3];
    Result r = measure(t, Workload.LIST_AFTER_MARKERS, firstPage(store, "mk-dirty", counts, last, 0),
        firstPage(store, "mk-clean", counts, last, 1), "");
    if (counts[0] != counts[1]) {
      throw new IllegalStateException("the two buckets list different pages: " + counts[0]
          + " vs " + counts[1] + " keys");
    }
    String cleanScan = last[1] == null ? null : t.listingScan(store, "mk-clean", last[1]);
    String dirtyScan = last[0] == null ? null : t.listingScan(store, "mk-dirty", last[0]);
    out.add(new Result(t.name(), Workload.LIST_CLEAN, r.baselineMedian(), r.baselineMin(),
        r.baselineMax(), Double.NaN, Double.NaN, Double.NaN, counts[1] + " keys per page"
        + (cleanScan == null ? "" : "; " + cleanScan)));
    out.add(withNote(r, counts[0] + " keys per page among " + marked.size()
        + " delete-marked keys; baseline column = the clean bucket"
        + (dirtyScan == null ? "" : "; " + dirtyScan)));

    // the same page against a bucket as big, all of it live: what the bucket's size alone costs
    // where a read's cost grows with the rows of its range (the Bigtable emulator's does)
    createBucket(store, "mk-full", VersioningState.ENABLED);
    List<String> all = new ArrayList<>(visible);
    all.addAll(marked);
    load(store, "mk-full", all, k -> meta(k, 100));
    Result same = measure(t, Workload.LIST_MARKERS_SAME_SIZE,
        firstPage(store, "mk-dirty", counts, last, 0), firstPage(store, "mk-full", counts, last, 2),
        "");
    out.add(withNote(same, counts[0] + " keys per page among " + marked.size()
        + " delete-marked keys; baseline column = " + all.size() + " live keys, " + counts[2]
        + " per page"));
  }

  /** Lists the first page of 1000 of a bucket, noting its size and last key in a slot. */
  private Phase firstPage(MetadataStore store, String bucket, int[] counts, String[] last,
      int slot) {
    return it -> {
      for (int q = 0; q < c.listOps(); q++) {
        var page = store.listObjectsV2(ListObjectsV2Request.of(bucket).withMaxKeys(1000))
            .contents();
        counts[slot] = page.size();
        last[slot] = page.isEmpty() ? null : page.get(page.size() - 1).key();
      }
      return c.listOps();
    };
  }

  // -------------------------------------------------------------------------------- GC drain

  private void gcDrain(BenchTarget t, MetadataStore store, Baseline raw, List<Result> out)
      throws Exception {
    createBucket(store, "gc-b", VersioningState.UNVERSIONED);
    long[] freed = new long[1];
    Phase backend = new Phase() {
      @Override
      public void prepare(int it) {
        t.clearGarbage(store);
        t.fillGarbage(store, "gc-b", c.gcRecords());
      }

      @Override
      public long run(int it) {
        GcRunner.Progress p = GcRunner.builder(store, batch -> {
          HashSet<String> ids = new HashSet<>(batch.size() * 2);
          batch.forEach(g -> ids.add(g.id()));
          return ids;
        }).batchSize(c.gcBatch()).gracePeriod(Duration.ZERO).lease(Duration.ofMinutes(10))
            .build().run();
        freed[0] = p.freed();
        return p.freed();
      }
    };
    Phase rawGc = raw == null ? null : raw.phase(Workload.GC_DRAIN, "gc-b", null);
    Phase rawPhase = rawGc == null ? null : new Phase() {
      @Override
      public void prepare(int it) throws Exception {
        t.clearGarbage(store);
        t.fillGarbage(store, "gc-b", c.gcRecords());
        rawGc.prepare(it);
      }

      @Override
      public long run(int it) throws Exception {
        return rawGc.run(it);
      }
    };
    out.add(measure(t, Workload.GC_DRAIN, backend, rawPhase, ""));
    out.set(out.size() - 1, withNote(out.get(out.size() - 1), c.gcRecords()
        + " records per run, batches of " + c.gcBatch()
        + (rawPhase == null || raw.note(Workload.GC_DRAIN) == null ? ""
        : "; baseline: " + raw.note(Workload.GC_DRAIN)) + "; last run freed " + freed[0]));
    t.clearGarbage(store);
  }

  // ------------------------------------------------------------------------------ contention

  /** Threads of the contention workload (the 16-way contention). */
  static final int CONTENDERS = 16;

  /**
   * 16 threads doing conditional puts (get, then put if-match the version id read; on
   * PreconditionFailed, again) on one key, against the same loop with each thread on a key of its
   * own. Each run works on fresh buckets (versioned, so every put mints the id the next one must
   * match) and every key ends the run with the same number of versions on both sides: a key
   * row's history grows with its puts, and a contended key written n times must be compared with
   * keys written n times each, not n/16, or the figure measures history length, not contention.
   */
  private void contention(BenchTarget t, MetadataStore store, List<Result> out) throws Exception {
    long[][] failures = new long[2][3];
    Phase contended = contendPhase(store, "ct%d-one", 1, failures[0]);
    Phase spread = contendPhase(store, "ct%d-many", CONTENDERS, failures[1]);
    Result r = measure(t, Workload.PUT_CONTENDED, contended, spread, "");
    out.add(withNote(r, String.format(Locale.ROOT, "%d threads, %d successful puts per run on one"
        + " key; baseline column = the same loop on %d keys, %d puts each; per successful put in"
        + " the last run: %.2f PreconditionFailed, %.2f ServiceUnavailable (key busy) on one key,"
        + " %.2f and %.2f on %d keys", CONTENDERS, c.contendOps(), CONTENDERS, c.contendOps(),
        failures[0][0] / (double) Math.max(1, failures[0][2]),
        failures[0][1] / (double) Math.max(1, failures[0][2]),
        failures[1][0] / (double) Math.max(1, failures[1][2]),
        failures[1][1] / (double) Math.max(1, failures[1][2]), CONTENDERS)));
  }

  /**
   * {@link #CONTENDERS} threads over {@code keys} keys (thread i on key i % keys), until each key
   * has {@code contendOps} more versions. {@code failures}: precondition failures, busy
   * refusals and successful puts of the last run.
   */
  private Phase contendPhase(MetadataStore store, String bucketFormat, int keys, long[] failures) {
    return new Phase() {
      String bucket;

      @Override
      public void prepare(int it) {
        bucket = String.format(bucketFormat, it);
        createBucket(store, bucket, VersioningState.ENABLED);
        for (int k = 0; k < keys; k++) {
          store.putObject(bucket, "key" + k, meta("key" + k, 100));
        }
      }

      @Override
      public long run(int it) throws Exception {
        java.util.concurrent.atomic.AtomicInteger[] written =
            new java.util.concurrent.atomic.AtomicInteger[keys];
        for (int k = 0; k < keys; k++) {
          written[k] = new java.util.concurrent.atomic.AtomicInteger();
        }
        java.util.concurrent.atomic.LongAdder done = new java.util.concurrent.atomic.LongAdder();
        java.util.concurrent.atomic.LongAdder failed = new java.util.concurrent.atomic.LongAdder();
        java.util.concurrent.atomic.LongAdder busy = new java.util.concurrent.atomic.LongAdder();
        ExecutorService pool = Executors.newFixedThreadPool(CONTENDERS);
        try {
          List<Future<?>> fs = new ArrayList<>();
          for (int i = 0; i < CONTENDERS; i++) {
            String key = "key" + (i % keys);
            java.util.concurrent.atomic.AtomicInteger mine = written[i % keys];
            ObjectMetadata m = meta(key, 200);
            fs.add(pool.submit(() -> {
              // until the key has its puts (threads in flight may add up to 15 more)
              while (mine.get() < c.contendOps()) {
                try {
                  String seen = store.getObject(bucket, key).versionId();
                  store.putObject(bucket, key, m, WriteCondition.ifMatchVersionId(seen));
                  mine.incrementAndGet();
                  done.increment();
                } catch (PreconditionFailedException e) {
                  failed.increment();
                } catch (ServiceUnavailableException e) {
                  busy.increment();
                }
              }
              return null;
            }));
          }
          for (Future<?> f : fs) {
            f.get();
          }
        } finally {
          pool.shutdownNow();
        }
        failures[0] = failed.sum();
        failures[1] = busy.sum();
        failures[2] = done.sum();
        return done.sum();
      }
    };
  }

  // ----------------------------------------------------------------------------------- walks

  private void walks(BenchTarget t, MetadataStore store, List<Result> out) throws Exception {
    createBucket(store, "walk-small", VersioningState.UNVERSIONED);
    load(store, "walk-small", walkKeys(c.walkSmall()), k -> meta(k, 100));
    walk(store, "walk-small"); // warm-up
    walk(store, "walk-big");
    double[] small = walk(store, "walk-small");
    double[] big = walk(store, "walk-big");
    out.add(new Result(t.name(), Workload.WALK_SMALL, small[0], small[0], small[0], Double.NaN,
        Double.NaN, Double.NaN, note(c.walkSmall(), small)));
    out.add(new Result(t.name(), Workload.WALK_BIG, big[0], big[0], big[0], small[0], small[0],
        small[0], note(c.walkBig(), big)));
  }

  private static String note(int keys, double[] w) {
    return String.format(Locale.ROOT, "%d keys, %d pages in %.2f s (forced GCs included); peak"
        + " used heap above the start, GC every %d pages (sum of heap pools' peaks): %.1f MiB",
        keys, (long) w[1], w[2], (long) w[4], w[3]);
  }

  /**
   * Walks every page of a bucket, a forced GC every few pages. Returns: the largest heap
   * retained above the start after a GC (KiB; negative when the heap after every GC was below
   * the start), pages, seconds, peak used heap above the start
   * by the memory pools' peak counters (MiB), and the GC interval in pages.
   */
  static double[] walk(MetadataStore store, String bucket) {
    List<MemoryPoolMXBean> heap = new ArrayList<>();
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP && p.isValid()) {
        heap.add(p);
      }
    }
    int gcEvery = 5;
    System.gc();
    long base = used();
    heap.forEach(MemoryPoolMXBean::resetPeakUsage);
    long retained = Long.MIN_VALUE;
    long pages = 0;
    long start = System.nanoTime();
    String token = null;
    do {
      ListObjectsV2Result r = store.listObjectsV2(ListObjectsV2Request.of(bucket)
          .withContinuationToken(token));
      token = r.nextContinuationToken();
      pages++;
      if (pages % gcEvery == 0) {
        r = null;
        System.gc();
        retained = Math.max(retained, used() - base);
      }
    } while (token != null);
    double secs = (System.nanoTime() - start) / 1e9;
    System.gc();
    retained = Math.max(retained, used() - base);
    long peak = 0;
    for (MemoryPoolMXBean p : heap) {
      peak += p.getPeakUsage().getUsed();
    }
    return new double[] {retained / 1024.0, pages, secs, (peak - base) / 1048576.0, gcEvery};
  }

  private static long used() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  // --------------------------------------------------------------------------------- helpers

  private Result measure(BenchTarget t, Workload w, Phase backend, Phase raw, String note)
      throws Exception {
    int n = c.warmups() + c.runs();
    double[] b = new double[c.runs()];
    double[] r = raw == null ? null : new double[c.runs()];
    double[] bCpu = new double[c.runs()];
    double[] rCpu = new double[c.runs()];
    for (int it = 0; it < n; it++) {
      boolean last = it == n - 1;
      double[] bs = once(t, last ? t.name() + " " + w : null, backend, it);
      double[] rs = raw == null ? new double[] {Double.NaN, Double.NaN}
          : once(t, last ? t.name() + " " + w + " baseline" : null, raw, it);
      if (it >= c.warmups()) {
        b[it - c.warmups()] = bs[0];
        bCpu[it - c.warmups()] = bs[1];
        rCpu[it - c.warmups()] = rs[1];
        if (r != null) {
          r[it - c.warmups()] = rs[0];
        }
      }
      log.printf(Locale.ROOT, "  %-20s %s %d: %,12.1f %s%s%n", w, it < c.warmups() ? "warm-up" : "run",
          it, bs[0], w.unit, raw == null ? "" : String.format(Locale.ROOT, "   baseline %,12.1f", rs[0]));
    }
    // the CPU of the calling thread says nothing about work done on other threads
    String cpu = w == Workload.GC_DRAIN || w == Workload.PUT_CONTENDED ? "" : String.format(Locale.ROOT,
        "client CPU %.0f µs/op%s", Result.median(bCpu) / 1000, raw == null ? ""
            : String.format(Locale.ROOT, " (baseline %.0f µs/op)", Result.median(rCpu) / 1000));
    return Result.of(t.name(), w, b, r, note.isEmpty() ? cpu : note + "; " + cpu);
  }

  /**
   * One timed run: its rate, and the CPU time the calling thread spent per operation (the
   * client's own cost; work on other threads, such as the GC runner's worker, is not in it).
   */
  private double[] once(BenchTarget t, String countAs, Phase p, int it) throws Exception {
    p.prepare(it);
    boolean counting = countAs != null && t.resetStatementCounts();
    java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpu0 = threads.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    long ops = p.run(it);
    double rate = ops / ((System.nanoTime() - t0) / 1e9);
    double cpu = (threads.getCurrentThreadCpuTime() - cpu0) / (double) Math.max(1, ops);
    if (counting) {
      String s = t.statementCounts(ops);
      if (s != null) {
        statements.put(countAs, s);
      }
    }
    return new double[] {rate, cpu};
  }

  private static Result withNote(Result r, String note) {
    return new Result(r.target(), r.workload(), r.median(), r.min(), r.max(), r.baselineMedian(),
        r.baselineMin(), r.baselineMax(), r.note().isEmpty() ? note : r.note() + "; " + note);
  }

  interface OpBody {
    void accept(Op o) throws Exception;
  }

  /** A backend phase: the plan is built in prepare, the loop only calls the SPI. */
  private static Phase ops(IntFunction<List<Op>> plan, OpBody body) {
    return new Phase() {
      List<Op> ops;

      @Override
      public void prepare(int it) {
        ops = plan.apply(it);
      }

      @Override
      public long run(int it) throws Exception {
        for (Op o : ops) {
          body.accept(o);
        }
        return ops.size();
      }
    };
  }

  /** Memoizes a plan per iteration, so both sides get the very same operations. */
  private static IntFunction<List<Op>> memo(IntFunction<List<Op>> f) {
    Map<Integer, List<Op>> cache = new HashMap<>();
    return it -> cache.computeIfAbsent(it, f::apply);
  }

  @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array of two functions
  private static IntFunction<List<Op>>[] sides(IntFunction<IntFunction<List<Op>>> f) {
    return new IntFunction[] {f.apply(0), f.apply(1)};
  }

  private static void bucketPair(MetadataStore store, String prefix, VersioningState state) {
    createBucket(store, prefix + "-b", state);
    createBucket(store, prefix + "-r", state);
  }

  private static void createBucket(MetadataStore store, String name, VersioningState state) {
    store.createBucket(name, "bench-owner", null);
    if (state != VersioningState.UNVERSIONED) {
      store.updateBucket(name, BucketUpdate.versioning(state));
    }
  }

  static List<String> walkKeys(int n) {
    List<String> keys = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      keys.add(String.format("p%03d/k%07d", i % 100, i));
    }
    return keys;
  }

  /** The metadata every workload writes: realistic fields, one data location. */
  static ObjectMetadata meta(String key, long size) {
    return ObjectMetadata.builder().size(size)
        .etag(String.format("%016x%016x", (long) key.hashCode(), size))
        .contentType("application/octet-stream").owner("bench-owner")
        .userMetadata(Map.of("purpose", "bench"))
        .dataLocations(List.of(new DataLocation("blob", "data/" + key + "/" + size, 0, size)))
        .build();
  }

  interface KeyBody {
    void accept(String key) throws Exception;
  }

  /** Puts every key (untimed setup, in parallel); returns the version ids written, in order. */
  private String[] load(MetadataStore store, String bucket, List<String> keys,
      java.util.function.Function<String, ObjectMetadata> meta) throws Exception {
    String[] ids = new String[keys.size()];
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < keys.size(); i++) {
      index.put(keys.get(i), i);
    }
    parallel(keys, k -> ids[index.get(k)] = store.putObject(bucket, k, meta.apply(k)).versionId());
    return ids;
  }

  private void parallel(List<String> keys, KeyBody body) throws Exception {
    parallel(c.loadThreads(), keys, body::accept);
  }

  /** Untimed setup: {@code body} over {@code items} on {@code threads} threads, in chunks. */
  static <T> void parallel(int threadCount, List<T> items, Each<T> body) throws Exception {
    int threads = Math.max(1, threadCount);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> fs = new ArrayList<>();
      int chunk = (items.size() + threads - 1) / threads;
      for (int t = 0; t < threads; t++) {
        List<T> part = items.subList(Math.min(items.size(), t * chunk),
            Math.min(items.size(), (t + 1) * chunk));
        fs.add(pool.submit(() -> {
          for (T k : part) {
            body.accept(k);
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** A setup step for one item. */
  @FunctionalInterface
  interface Each<T> {
    void accept(T item) throws Exception;
  }

}
