package io.objectmeta.bench;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.listing.ListObjectsV2Request;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.VersioningState;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * The concurrency workload: 1, 4, 16, 64 client threads (by default) in a closed loop for a
 * fixed time against one store, each workload on buckets of its own, with the target's "limit"
 * (for PostgreSQL the minimal design through the same driver and pool, and pgbench running the
 * same SQL where it is installed) measured in the same run, cell by cell, interleaved. Each cell
 * reports throughput, latency percentiles (HdrHistogram, corrected for coordinated omission with
 * the loop's mean interval), the process's CPU per operation and, where the target counts them,
 * statements and round trips per operation.
 */
final class Concurrency {

  /** The workloads, in report order. */
  enum Kind {
    PUT_ONE_BUCKET("versioned put, distinct keys, one bucket", 0.6),
    PUT_16_BUCKETS("versioned put, distinct keys, 16 buckets", 0.6),
    PUT_HOT_KEYS("versioned put, 16 hot keys", Double.NaN),
    GET_LATEST("get latest", 0.7),
    GET_VERSION("get by version id (non-latest)", 0.7),
    LIST_PAGE("list first page of 100 (ListObjectsV2)", 0.8),
    DELETE_MARKER("delete, adds a delete marker (new keys)", Double.NaN);

    final String label;
    /** The target ratio to the minimal design at 4 and 16 threads (NaN: none). */
    final double target;

    Kind(String label, double target) {
      this.label = label;
      this.target = target;
    }

    boolean write() {
      return this == PUT_ONE_BUCKET || this == PUT_16_BUCKETS || this == PUT_HOT_KEYS
          || this == DELETE_MARKER;
    }
  }

  /** Keys and buckets of one side ("b": objectmeta, "m": the minimal design). */
  record Fixture(String side, int getKeys, String[] olderVersionIds) {
    String bucket(Kind k) {
      return switch (k) {
        case PUT_ONE_BUCKET -> "cput-" + side;
        case PUT_16_BUCKETS -> "cput16-" + side + "-";
        case PUT_HOT_KEYS -> "chot-" + side;
        case GET_LATEST, GET_VERSION -> "cget-" + side;
        case LIST_PAGE -> "clist-" + side;
        case DELETE_MARKER -> "cdm-" + side;
      };
    }

    /** The bucket of operation {@code i} (one of 16 for the spread puts). */
    String bucket(Kind k, long i) {
      return k == Kind.PUT_16_BUCKETS ? bucket(k) + (i % 16) : bucket(k);
    }

    static String getKey(int n) {
      return String.format("get/%06d", n);
    }

    static String newKey(int thread, long i) {
      return "t" + thread + "/" + i;
    }

    static String hotKey(long i) {
      return "hot/" + (i % 16);
    }
  }

  /** One side of a cell: the operation {@code i} of client thread {@code thread}. */
  @FunctionalInterface
  interface Side {
    void op(Kind k, int thread, long i, ThreadLocalRandom random) throws Exception;
  }

  /** One row: a workload at a thread count on a target. */
  record Cell(String target, Kind kind, int threads, double opsPerSec, double p50Ms, double p99Ms,
      double p999Ms, double cpuUsPerOp, double serverCpuUsPerOp, double statementsPerOp,
      double tripsPerOp, double minimal, double minimalCpuUsPerOp, double minimalServerCpuUsPerOp,
      double pgbench, long errors) {

    double ratio() {
      return Double.isNaN(minimal) || minimal <= 0 ? Double.NaN : opsPerSec / minimal;
    }
  }

  private final BenchConfig c;
  private final PrintStream log;
  private final AtomicLong keyCounter = new AtomicLong();

  Concurrency(BenchConfig c, PrintStream log) {
    this.c = c;
    this.log = log;
  }

  List<Cell> run(BenchTarget t, MetadataStore store) throws Exception {
    List<Cell> out = new ArrayList<>();
    int maxThreads = c.concurrency().threads().stream().mapToInt(Integer::intValue).max().orElse(1);
    Fixture b = fixture(store, "b");
    try (BenchTarget.Limit limit = t.limit(store)) {
      Fixture m = limit == null ? null : fixture(store, "m");
      if (limit != null) {
        limit.prepare(m);
      }
      Side backend = backend(store, b);
      Side minimal = limit == null ? null : (k, th, i, r) -> limit.op(k, m, th, i, r);
      for (Kind k : Kind.values()) {
        if (!c.concurrency().kinds().isEmpty() && !c.concurrency().kinds().contains(k.name())) {
          continue;
        }
        // warm-up: the JIT, the pool, the server's caches
        measure(t, k, backend, Math.min(4, maxThreads), c.concurrency().warmupSeconds(), false);
        if (minimal != null) {
          measure(t, k, minimal, Math.min(4, maxThreads), c.concurrency().warmupSeconds(), false);
        }
        for (int threads : c.concurrency().threads()) {
          double[] mb = measure(t, k, backend, threads, c.concurrency().seconds(), true);
          double[] mm = minimal == null ? null : measure(t, k, minimal, threads, c.concurrency().seconds(), false);
          long counted = t.roundTrips(() -> once(backend, k, 50));
          double trips = counted < 0 ? Double.NaN : counted / 50.0;
          OptionalDouble pgb = limit == null ? OptionalDouble.empty()
              : limit.pgbench(k, m, threads, c.concurrency().seconds());
          Cell cell = new Cell(t.name(), k, threads, mb[0], mb[1], mb[2], mb[3], mb[4], mb[7],
              mb[5], trips, mm == null ? Double.NaN : mm[0], mm == null ? Double.NaN : mm[4],
              mm == null ? Double.NaN : mm[7], pgb.orElse(Double.NaN), (long) mb[6]);
          out.add(cell);
          log.printf(Locale.ROOT, "  %-45s %3d threads: %,10.0f ops/s  p50 %6.2f p99 %7.2f"
              + " p99.9 %7.2f ms  cpu %s µs/op%s%s%s%s%n", k.label,
              threads, cell.opsPerSec(), cell.p50Ms(), cell.p99Ms(), cell.p999Ms(),
              cpu(cell.cpuUsPerOp(), cell.serverCpuUsPerOp()),
              Double.isNaN(cell.statementsPerOp()) ? ""
                  : String.format(Locale.ROOT, "  stmts %4.1f", cell.statementsPerOp()),
              Double.isNaN(cell.tripsPerOp()) ? ""
                  : String.format(Locale.ROOT, "  trips %4.1f", cell.tripsPerOp()),
              mm == null ? "" : String.format(Locale.ROOT, "  minimal %,10.0f ops/s (%.2f)"
                  + " cpu %s µs/op", cell.minimal(), cell.ratio(),
                  cpu(cell.minimalCpuUsPerOp(), cell.minimalServerCpuUsPerOp())),
              Double.isNaN(cell.pgbench()) ? "" : String.format(Locale.ROOT, "  pgbench %,.0f",
                  cell.pgbench()));
        }
      }
    }
    return out;
  }

  /** The buckets and data of one side, loaded through the SPI (untimed). */
  private Fixture fixture(MetadataStore store, String side) throws Exception {
    Fixture probe = new Fixture(side, 0, null);
    for (Kind k : Kind.values()) {
      if (k == Kind.PUT_16_BUCKETS) {
        for (int i = 0; i < 16; i++) {
          versioned(store, probe.bucket(k, i));
        }
      } else if (k != Kind.GET_VERSION) {
        versioned(store, probe.bucket(k));
      }
    }
    int keys = c.concurrency().keys();
    String[] older = new String[keys];
    List<Integer> idx = new ArrayList<>();
    for (int i = 0; i < keys; i++) {
      idx.add(i);
    }
    Bench.parallel(c.loadThreads(), idx, i -> {
      String key = Fixture.getKey(i);
      older[i] = store.putObject(probe.bucket(Kind.GET_LATEST), key, Bench.meta(key, 100))
          .versionId();
      store.putObject(probe.bucket(Kind.GET_LATEST), key, Bench.meta(key, 200));
    });
    Bench.parallel(c.loadThreads(), idx.subList(0, Math.min(keys, 1000)), i -> store.putObject(
        probe.bucket(Kind.LIST_PAGE), Fixture.getKey(i), Bench.meta(Fixture.getKey(i), 100)));
    for (int i = 0; i < 16; i++) {
      store.putObject(probe.bucket(Kind.PUT_HOT_KEYS), Fixture.hotKey(i),
          Bench.meta(Fixture.hotKey(i), 100));
    }
    return new Fixture(side, keys, older);
  }

  private static void versioned(MetadataStore store, String bucket) {
    store.createBucket(bucket, "bench-owner", null);
    store.updateBucket(bucket, BucketUpdate.versioning(VersioningState.ENABLED));
  }

  /** objectmeta's side: the public API. */
  private Side backend(MetadataStore store, Fixture f) {
    ObjectMetadata[] metas = new ObjectMetadata[64];
    for (int i = 0; i < metas.length; i++) {
      metas[i] = Bench.meta("concurrency/" + i, 1000 + i);
    }
    return (k, thread, i, r) -> {
      switch (k) {
        case PUT_ONE_BUCKET, PUT_16_BUCKETS ->
            store.putObject(f.bucket(k, i), Fixture.newKey(thread, i), metas[(int) (i & 63)]);
        case PUT_HOT_KEYS -> store.putObject(f.bucket(k), Fixture.hotKey(r.nextInt(16)),
            metas[(int) (i & 63)]);
        case GET_LATEST -> store.getObject(f.bucket(k), Fixture.getKey(r.nextInt(f.getKeys())));
        case GET_VERSION -> {
          int n = r.nextInt(f.getKeys());
          store.getObjectVersion(f.bucket(k), Fixture.getKey(n), f.olderVersionIds()[n]);
        }
        case LIST_PAGE -> store.listObjectsV2(ListObjectsV2Request.of(f.bucket(k))
            .withMaxKeys(100));
        case DELETE_MARKER -> store.deleteObject(f.bucket(k), Fixture.newKey(thread, i));
      }
    };
  }

  /** A few operations on one thread, for the targets that count round trips. */
  private void once(Side side, Kind k, int n) {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    try {
      for (int j = 0; j < n; j++) {
        side.op(k, 999, keyCounter.incrementAndGet(), r);
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * {@code threads} threads in a closed loop for {@code seconds}. Returns ops/s, p50, p99, p99.9
   * (ms), process CPU µs/op, statements per op (NaN unless counted), the error count and the
   * database server's CPU µs/op (NaN unless the target reads it).
   */
  private double[] measure(BenchTarget t, Kind k, Side side, int threads, double seconds,
      boolean countStatements) throws Exception {
    Histogram[] hist = new Histogram[threads];
    long[] done = new long[threads];
    long[] errors = new long[threads];
    CountDownLatch start = new CountDownLatch(1);
    long deadline = Long.MAX_VALUE;
    Thread[] workers = new Thread[threads];
    long[] deadlineBox = {deadline};
    for (int th = 0; th < threads; th++) {
      int me = th;
      hist[th] = new Histogram(60_000_000_000L, 3);
      workers[th] = new Thread(() -> {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        try {
          start.await();
        } catch (InterruptedException e) {
          return;
        }
        long end = deadlineBox[0];
        while (true) {
          long t0 = System.nanoTime();
          if (t0 >= end) {
            break;
          }
          try {
            side.op(k, me, keyCounter.incrementAndGet(), r);
            hist[me].recordValue(Math.min(System.nanoTime() - t0, 60_000_000_000L));
            done[me]++;
          } catch (Exception | Error e) {
            if (errors[me]++ == 0) {
              log.println("    " + k + ": " + e);
            }
          }
        }
      }, "bench-" + th);
      workers[th].start();
    }
    boolean counting = countStatements && t.resetStatementCounts();
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long server0 = t.serverCpuNanos();
    long t0 = System.nanoTime();
    deadlineBox[0] = t0 + (long) (seconds * 1e9);
    start.countDown();
    for (Thread w : workers) {
      w.join();
    }
    double elapsed = (System.nanoTime() - t0) / 1e9;
    long cpu = os.getProcessCpuTime() - cpu0;
    long server = server0 < 0 ? -1 : t.serverCpuNanos() - server0;
    long ops = 0;
    long errs = 0;
    Histogram all = new Histogram(60_000_000_000L, 3);
    for (int th = 0; th < threads; th++) {
      ops += done[th];
      errs += errors[th];
      all.add(hist[th]);
    }
    double stmts = counting ? t.statementsPerOp(ops) : Double.NaN;
    double rate = ops / elapsed;
    // closed loop: a stalled call delays the calls its thread would have made; correct for them
    // with the mean interval between one thread's calls
    long interval = ops == 0 ? 1 : (long) (threads * 1e9 / rate);
    Histogram co = all.copyCorrectedForCoordinatedOmission(interval);
    return new double[] {rate, co.getValueAtPercentile(50) / 1e6, co.getValueAtPercentile(99) / 1e6,
        co.getValueAtPercentile(99.9) / 1e6, ops == 0 ? Double.NaN : cpu / 1e3 / ops, stmts, errs,
        server < 0 || ops == 0 ? Double.NaN : server / 1e3 / ops};
  }

  /** The cells as a markdown table, with the verdicts. */
  static String markdown(List<Cell> cells) {
    StringBuilder b = new StringBuilder();
    b.append("\n| target | workload | threads | ops/s | p50 ms | p99 ms | p99.9 ms"
        + " | CPU µs/op client+server | stmts/op | trips/op | minimal ops/s"
        + " | minimal CPU µs/op client+server | ratio | pgbench ops/s | verdict |\n");
    b.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (Cell x : cells) {
      b.append(String.format(Locale.ROOT,
          "| %s | %s | %d | %s | %.2f | %.2f | %.2f | %s | %s | %s | %s | %s | %s | %s | %s |%n",
          x.target(), x.kind().label, x.threads(), num(x.opsPerSec()), x.p50Ms(), x.p99Ms(),
          x.p999Ms(), cpu(x.cpuUsPerOp(), x.serverCpuUsPerOp()), dec(x.statementsPerOp()),
          dec(x.tripsPerOp()), num(x.minimal()),
          cpu(x.minimalCpuUsPerOp(), x.minimalServerCpuUsPerOp()),
          dec(x.ratio()), num(x.pgbench()), verdict(x, cells)
              + (x.errors() > 0 ? " " + x.errors() + " errors" : "")));
    }
    return b.toString();
  }

  /**
   * The targets: the ratio to the minimal design at 4 and 16 threads, and at 64 threads
   * at least 0.9 of the 16-thread figure (no collapse).
   */
  static String verdict(Cell x, List<Cell> cells) {
    List<String> v = new ArrayList<>();
    // the ratio targets are PostgreSQL's; other targets show their ratio without one
    if ((x.threads() == 4 || x.threads() == 16) && !Double.isNaN(x.kind().target)
        && !Double.isNaN(x.ratio()) && x.target().startsWith("postgres")) {
      v.add((x.ratio() >= x.kind().target ? "met" : "MISSED")
          + String.format(Locale.ROOT, " (>= %.1fx minimal)", x.kind().target));
    }
    if (x.threads() == 64) {
      cells.stream().filter(y -> y.target().equals(x.target()) && y.kind() == x.kind()
          && y.threads() == 16).findFirst().ifPresent(y -> v.add(
              (x.opsPerSec() >= 0.9 * y.opsPerSec() ? "met" : "MISSED")
              + String.format(Locale.ROOT, " (%.2fx 16 threads, >= 0.9)",
                  x.opsPerSec() / y.opsPerSec())));
    }
    return String.join("; ", v);
  }

  private static String cpu(double client, double server) {
    if (Double.isNaN(client)) {
      return "";
    }
    return String.format(Locale.ROOT, "%.0f", client)
        + (Double.isNaN(server) ? "" : String.format(Locale.ROOT, " + %.0f", server));
  }

  private static String num(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String dec(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.2f", v);
  }
}
