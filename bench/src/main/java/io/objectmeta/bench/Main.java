package io.objectmeta.bench;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Runs the benchmark: {@code java -jar bench/target/objectmeta-bench.jar [--quick] [...]}. */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    BenchConfig c;
    try {
      c = BenchConfig.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    List<Result> all = new ArrayList<>();
    List<Concurrency.Cell> cells = new ArrayList<>();
    List<String> described = new ArrayList<>();
    java.util.Map<String, String> statements = new java.util.LinkedHashMap<>();
    long start = System.nanoTime();
    for (String spec : c.targets()) {
      // NAME or NAME:GROUP+GROUP (only those workload groups on that target)
      String name = spec.trim();
      BenchConfig tc = c;
      if (name.contains(":")) {
        tc = c.withWorkloads(List.of(name.substring(name.indexOf(':') + 1).split("\\+")));
        name = name.substring(0, name.indexOf(':'));
      }
      try (BenchTarget t = target(name, tc)) {
        Bench bench = new Bench(tc, System.out);
        all.addAll(bench.run(t));
        cells.addAll(bench.cells());
        statements.putAll(bench.statements());
        described.add(t.name() + ": " + t.describe());
      }
    }
    String md = markdown(c, all, described, (System.nanoTime() - start) / 1e9);
    if (!cells.isEmpty()) {
      md += "\nConcurrency: client threads in a closed loop, " + c.concurrency().seconds()
          + " s per cell; latency corrected for coordinated omission; CPU is this process's"
          + " (the client, and any server running in it) per operation; ratio = ops/s over the"
          + " minimal design's through the same driver and pool; pgbench runs the minimal design's"
          + " SQL with one connection per client.\n" + Concurrency.markdown(cells);
    }
    if (!statements.isEmpty()) {
      StringBuilder b = new StringBuilder(md);
      b.append("\nStatements the server received per operation in the last measured run"
          + " (PostgreSQL: pg_stat_statements, the 12 most called; MongoDB: the in-process"
          + " server's command log, values as ?, the 14 most called; Bigtable, with"
          + " --bigtableRpcLog=true: the data RPCs by shape, keys and values left out):\n");
      statements.forEach((k, v) -> b.append("\n").append(k).append(":\n```\n").append(v)
          .append("```\n"));
      md = b.toString();
    }
    System.out.println();
    System.out.println(md);
    if (!c.markdown().isBlank()) {
      Files.writeString(Path.of(c.markdown()), md, StandardCharsets.UTF_8);
    }
  }

  public static BenchTarget target(String name, BenchConfig c) {
    return switch (name) {
      case "memory" -> new MemoryTarget();
      case "postgres", "postgresql" -> PostgresTarget.create(c);
      case "bigtable" -> BigtableTarget.create(c);
      default -> {
        if (MongoTarget.isName(name)) {
          yield MongoTarget.create(c, name);
        }
        throw new IllegalArgumentException("unknown target " + name
            + " (memory, postgres, mongo, mongo-shared, mongo-v0, mongo-shared-v0, bigtable)");
      }
    };
  }

  /** The result table and the targets' verdicts, as markdown. */
  public static String markdown(BenchConfig c, List<Result> rows, List<String> targets,
      double seconds) {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "Run %s, %.0f s; %s%n%n", Instant.now(), seconds, c));
    for (String t : targets) {
      b.append("- ").append(t).append('\n');
    }
    if (rows.isEmpty()) {
      return b.toString(); // only the concurrency group ran: its own table follows
    }
    b.append("\n| target | workload | unit | backend median | backend min..max | baseline median"
        + " | baseline min..max | ratio | target | notes |\n");
    b.append("|---|---|---|---:|---:|---:|---:|---:|---|---|\n");
    for (Result r : rows) {
      boolean hasBase = !Double.isNaN(r.baselineMedian());
      b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
          r.target(), r.workload().label, r.workload().unit, num(r.median()),
          num(r.min()) + ".." + num(r.max()), hasBase ? num(r.baselineMedian()) : "",
          hasBase ? num(r.baselineMin()) + ".." + num(r.baselineMax()) : "",
          Double.isNaN(r.ratio()) ? "" : String.format(Locale.ROOT, "%.2f", r.ratio()),
          verdict(r), r.note()));
    }
    return b.toString();
  }

  private static String num(double v) {
    if (Double.isNaN(v)) {
      return "";
    }
    return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.2f", v);
  }

  /** The targets, where a row has one. */
  public static String verdict(Result r) {
    double ratio = r.ratio();
    return switch (r.workload()) {
      case PUT_UNVERSIONED, PUT_VERSIONED, GET_LATEST, GET_VERSION, DELETE_MARKER,
          DELETE_VERSION, GC_DRAIN -> Double.isNaN(ratio) ? ""
          : (ratio >= 0.8 ? "met" : "MISSED") + " (>= 0.80x raw)";
      case LIST_AFTER_MARKERS -> (ratio >= 1 / 1.2 ? "met" : "MISSED")
          + " (time <= 1.2x clean)";
      case WALK_BIG -> (r.median() <= Math.max(0, r.baselineMedian()) + 1024 ? "met" : "MISSED")
          + " (<= small + 1 MiB)";
      default -> "";
    };
  }
}
