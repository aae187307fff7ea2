package io.objectmeta.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs the harness in a tiny configuration and checks that it produces a row per workload (and a
 * baseline where PostgreSQL has one). Speed is never asserted here: the numbers are the bench's.
 */
class BenchHarnessTest {

  @Test
  void memoryProducesARowPerWorkload() throws Exception {
    List<Result> rows = run("memory");
    assertThat(rows).extracting(Result::workload).containsExactlyInAnyOrderElementsOf(
        EnumSet.allOf(Workload.class));
    assertThat(rows).allSatisfy(r -> assertThat(r.target()).isEqualTo("memory"));
  }

  @Test
  void postgresProducesARowPerWorkloadWithBaselines() throws Exception {
    List<Result> rows = run("postgres");
    assertThat(rows).extracting(Result::workload).containsExactlyInAnyOrderElementsOf(
        EnumSet.allOf(Workload.class));
    for (Workload w : EnumSet.of(Workload.PUT_UNVERSIONED, Workload.PUT_VERSIONED,
        Workload.GET_LATEST, Workload.GET_VERSION, Workload.DELETE_MARKER,
        Workload.DELETE_VERSION, Workload.GC_DRAIN)) {
      Result r = rows.stream().filter(x -> x.workload() == w).findFirst().orElseThrow();
      assertThat(r.baselineMedian()).as("baseline of %s", w).isPositive();
      assertThat(r.median()).as("backend of %s", w).isPositive();
    }
    String md = Main.markdown(BenchConfig.tiny(List.of("postgres")), rows, List.of("postgres"), 1);
    assertThat(md).contains("| postgres | " + Workload.GC_DRAIN.label + " |");
  }

  @Test
  void concurrencyGivesACellPerWorkloadAndThreadCount() throws Exception {
    List<Concurrency.Cell> cells = runConcurrency("memory");
    assertThat(cells).hasSize(Concurrency.Kind.values().length * 2);
    assertThat(cells).allSatisfy(x -> {
      assertThat(x.opsPerSec()).as("%s at %d threads", x.kind(), x.threads()).isPositive();
      assertThat(x.errors()).isZero();
      assertThat(x.p50Ms()).isLessThanOrEqualTo(x.p99Ms());
      assertThat(x.p99Ms()).isLessThanOrEqualTo(x.p999Ms());
      assertThat(x.minimal()).as("memory has no limit to compare with").isNaN();
    });
    assertThat(Concurrency.markdown(cells)).contains("| memory | " + Concurrency.Kind.LIST_PAGE.label
        + " | 4 |");
  }

  @Test
  void concurrencyOnPostgresMeasuresTheMinimalDesignAndCountsStatementsAndRoundTrips()
      throws Exception {
    List<Concurrency.Cell> cells = runConcurrency("postgres");
    assertThat(cells).hasSize(Concurrency.Kind.values().length * 2);
    assertThat(cells).allSatisfy(x -> {
      assertThat(x.errors()).as("%s at %d threads", x.kind(), x.threads()).isZero();
      assertThat(x.minimal()).as("minimal design of %s", x.kind()).isPositive();
      assertThat(x.tripsPerOp()).as("round trips of %s", x.kind()).isGreaterThanOrEqualTo(1);
    });
    // a get is one statement in one round trip; a new key's put one round trip of several
    for (Concurrency.Cell x : cells) {
      if (x.kind() == Concurrency.Kind.GET_LATEST) {
        assertThat(x.tripsPerOp()).isEqualTo(1.0);
      }
      if (x.kind() == Concurrency.Kind.PUT_ONE_BUCKET) {
        assertThat(x.tripsPerOp()).as("a new key's put, speculated").isEqualTo(1.0);
      }
      if (x.kind() == Concurrency.Kind.PUT_HOT_KEYS) {
        assertThat(x.tripsPerOp()).as("an existing key's put").isGreaterThan(1.5);
      }
    }
    String md = Concurrency.markdown(cells);
    assertThat(md).contains("| postgres | " + Concurrency.Kind.GET_LATEST.label + " | 4 |");
  }

  private static List<Concurrency.Cell> runConcurrency(String target) throws Exception {
    BenchConfig c = BenchConfig.tiny(List.of(target)).withWorkloads(List.of("concurrency"));
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    try (BenchTarget t = Main.target(target, c);
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8)) {
      Bench bench = new Bench(c, out);
      assertThat(bench.run(t)).as("only the concurrency group ran").isEmpty();
      return bench.cells();
    }
  }

  private static List<Result> run(String target) throws Exception {
    BenchConfig c = BenchConfig.tiny(List.of(target));
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    try (BenchTarget t = Main.target(target, c);
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8)) {
      return new Bench(c, out).run(t);
    }
  }
}
