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

  private static List<Result> run(String target) throws Exception {
    BenchConfig c = BenchConfig.tiny(List.of(target));
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    try (BenchTarget t = Main.target(target, c);
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8)) {
      return new Bench(c, out).run(t);
    }
  }
}
