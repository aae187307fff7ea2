package io.objectmeta.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sizes of a run. Each value comes from {@code --name=value}, else the system property
 * {@code bench.name}, else the default ({@code --quick} switches to the small defaults).
 *
 * @param targets backends to run: {@code memory}, {@code postgres}, {@code mongo},
 *     {@code mongo-shared}, {@code mongo-v0}, {@code mongo-shared-v0}, {@code bigtable};
 *     {@code NAME:GROUP+GROUP}
 *     runs only those workload groups on that target (e.g. {@code mongo-v0:list})
 * @param workloads groups of workloads to run: {@code point} (put, get, delete), {@code list},
 *     {@code gc}, {@code walk}, {@code contend} (16 threads' conditional puts on one key)
 * @param ops operations per measured run of a point workload (put, get, delete)
 * @param keys distinct keys the put and get workloads cycle over
 * @param listOps page listings per measured run
 * @param warmups warm-up runs before measuring (not reported)
 * @param runs measured runs; the median and the spread (min..max) are reported
 * @param markers delete-marked keys of the "list after markers" bucket
 * @param visible visible keys interleaved with them (the page listed; at least 1000 for a full page)
 * @param walkBig keys of the large bucket whose every page is walked (heap target); also the
 *     bucket the flat and delimiter page listings read (100 prefixes)
 * @param walkSmall keys of the small bucket walked for comparison
 * @param gcRecords GC queue records drained per measured run
 * @param gcBatch records per claim (backend) and per DELETE … RETURNING (baseline)
 * @param loadThreads threads loading the listing buckets (setup only, not measured)
 * @param contendOps successful conditional puts per measured run on the contended key (and on
 *     each of the 16 keys of the uncontended run)
 * @param pgUrl PostgreSQL base URL; empty: {@code OBJECTMETA_PG_URL}, else embedded PostgreSQL
 * @param mongoUri MongoDB server URI (no database); empty: {@code MONGODB_URI}, else
 *     mongo-java-server in this JVM
 * @param bigtableUri {@code bigtable://PROJECT/INSTANCE[?emulatorHost=HOST:PORT]}; empty:
 *     {@code OBJECTMETA_BIGTABLE_URI}, else Google's emulator started by this JVM
 * @param bigtableRpcLog route the Bigtable target through a logging proxy (an emulator only) so
 *     the report lists the RPCs of each workload per operation; off by default (the extra hop
 *     costs both sides alike and pulls their ratio towards 1)
 * @param markdown file to write the result table to (empty: none)
 * @param concurrency sizes of the {@code concurrency} group
 */
public record BenchConfig(List<String> targets, List<String> workloads, int ops, int keys, int listOps, int warmups,
    int runs, int markers, int visible, int walkBig, int walkSmall, int gcRecords, int gcBatch,
    int loadThreads, int contendOps, String pgUrl, String mongoUri, String bigtableUri,
    boolean bigtableRpcLog, String markdown, boolean quick, ConcurrencySizes concurrency) {

  /** The workload groups a run has by default, in the order they run. */
  public static final List<String> ALL_WORKLOADS = List.of("point", "list", "gc", "walk", "contend");

  /** Every workload group: the default ones and {@code concurrency} (only when asked for). */
  public static final List<String> KNOWN_WORKLOADS =
      List.of("point", "list", "gc", "walk", "contend", "concurrency");

  /**
   * Sizes of the concurrency group.
   *
   * @param threads client thread counts, each a column of the curve
   * @param seconds measured time per cell (each side)
   * @param warmupSeconds warm-up time per workload and side, at up to 4 threads
   * @param keys keys (two versions each) the gets read
   * @param kinds only these workloads (names of {@link Concurrency.Kind}); empty: all
   * @param pool the store's and the minimal design's pool size; 0: the backend's default
   */
  public record ConcurrencySizes(List<Integer> threads, double seconds, double warmupSeconds,
      int keys, List<String> kinds, int pool) {}

  /** A tiny configuration for tests: a result row per workload in a few seconds. */
  public static BenchConfig tiny(List<String> targets) {
    return new BenchConfig(targets, ALL_WORKLOADS, 20, 10, 3, 0, 1, 200, 20, 300, 100, 50, 20, 2, 10, "", "", "", false, "", true,
        new ConcurrencySizes(List.of(1, 4), 0.3, 0.1, 50, List.of(), 0));
  }

  /** The same sizes, running only {@code groups}. */
  public BenchConfig withWorkloads(List<String> groups) {
    if (!KNOWN_WORKLOADS.containsAll(groups)) {
      throw new IllegalArgumentException("workload groups: one or more of " + KNOWN_WORKLOADS
          + ", not " + groups);
    }
    return new BenchConfig(targets, List.copyOf(groups), ops, keys, listOps, warmups, runs,
        markers, visible, walkBig, walkSmall, gcRecords, gcBatch, loadThreads, contendOps, pgUrl,
        mongoUri, bigtableUri, bigtableRpcLog, markdown, quick, concurrency);
  }

  /** The same sizes, with the Bigtable target's RPC log on or off. */
  public BenchConfig withBigtableRpcLog(boolean on) {
    return new BenchConfig(targets, workloads, ops, keys, listOps, warmups, runs, markers, visible,
        walkBig, walkSmall, gcRecords, gcBatch, loadThreads, contendOps, pgUrl, mongoUri,
        bigtableUri, on, markdown, quick, concurrency);
  }

  public static BenchConfig parse(String... args) {
    Map<String, String> a = new TreeMap<>();
    boolean quick = false;
    for (String arg : args) {
      if (arg.equals("--quick")) {
        quick = true;
      } else if (arg.equals("--help") || arg.equals("-h")) {
        throw new IllegalArgumentException(usage());
      } else if (arg.startsWith("--") && arg.contains("=")) {
        a.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
      } else {
        throw new IllegalArgumentException("unknown argument " + arg + "\n" + usage());
      }
    }
    boolean q = quick;
    class V {
      int i(String name, int full, int small) {
        String v = a.getOrDefault(name, System.getProperty("bench." + name));
        return v == null ? (q ? small : full) : Integer.parseInt(v.replace("_", ""));
      }

      String s(String name, String dflt) {
        return a.getOrDefault(name, System.getProperty("bench." + name, dflt));
      }
    }
    V v = new V();
    List<String> targets = new ArrayList<>(List.of(v.s("targets", "memory,postgres").split(",")));
    List<String> workloads = List.of(v.s("workloads", String.join(",", ALL_WORKLOADS)).split(","));
    if (!KNOWN_WORKLOADS.containsAll(workloads)) {
      throw new IllegalArgumentException("--workloads: one or more of " + KNOWN_WORKLOADS
          + ", not " + workloads + "\n" + usage());
    }
    return new BenchConfig(targets, workloads, v.i("ops", 2000, 300), v.i("keys", 1000, 100),
        v.i("listOps", 50, 10), v.i("warmups", 2, 1), v.i("runs", 5, 3),
        v.i("markers", 100_000, 10_000), v.i("visible", 1000, 1000),
        v.i("walkBig", 100_000, 10_000), v.i("walkSmall", 10_000, 1_000),
        v.i("gcRecords", 20_000, 2_000), v.i("gcBatch", 1000, 1000), v.i("loadThreads", 4, 4),
        v.i("contendOps", 500, 100), v.s("pgUrl", ""), v.s("mongoUri", ""),
        v.s("bigtableUri", ""), Boolean.parseBoolean(v.s("bigtableRpcLog", "false")),
        v.s("markdown", ""), q, new ConcurrencySizes(
            ints(v.s("threads", q ? "1,4,16" : "1,4,16,64")),
            Double.parseDouble(v.s("seconds", q ? "2" : "5")),
            Double.parseDouble(v.s("warmupSeconds", q ? "1" : "3")), v.i("getKeys", 10_000, 2_000),
            v.s("kinds", "").isBlank() ? List.of() : List.of(v.s("kinds", "").split(",")),
            v.i("pool", 0, 0)));
  }

  private static List<Integer> ints(String csv) {
    List<Integer> out = new ArrayList<>();
    for (String x : csv.split(",")) {
      int n = Integer.parseInt(x.trim());
      if (n < 1) {
        throw new IllegalArgumentException("--threads: positive counts, not " + csv);
      }
      out.add(n);
    }
    return List.copyOf(out);
  }

  static String usage() {
    return "usage: java -jar objectmeta-bench.jar [--quick]"
        + " [--targets=memory,postgres,mongo,mongo-shared,mongo-v0,bigtable[:GROUP+GROUP]]"
        + " [--workloads=point,list,gc,walk,contend,concurrency] [--ops=N]"
        + " [--keys=N] [--listOps=N] [--warmups=N] [--runs=N] [--markers=N] [--visible=N]"
        + " [--walkBig=N] [--walkSmall=N] [--gcRecords=N] [--gcBatch=N] [--loadThreads=N]"
        + " [--contendOps=N] [--pgUrl=postgres://user@host:port/db]"
        + " [--mongoUri=mongodb://host:port/] [--bigtableUri=bigtable://PROJECT/INSTANCE"
        + "?emulatorHost=HOST:PORT] [--bigtableRpcLog=true]"
        + " [--markdown=FILE] [--threads=1,4,16,64] [--seconds=S] [--warmupSeconds=S]"
        + " [--getKeys=N] [--kinds=PUT_ONE_BUCKET,...] [--pool=N]\n"
        + "(each also as -Dbench.NAME=VALUE; without pgUrl: $OBJECTMETA_PG_URL, else embedded"
        + " PostgreSQL 17; without mongoUri: $MONGODB_URI, else mongo-java-server in this JVM;"
        + " without bigtableUri: $OBJECTMETA_BIGTABLE_URI, else the Bigtable emulator)";
  }
}
