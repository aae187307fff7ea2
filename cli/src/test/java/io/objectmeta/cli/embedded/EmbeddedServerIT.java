package io.objectmeta.cli.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.objectmeta.cli.Output;
import io.objectmeta.conformance.Polling;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Several ./objectmeta processes on one embedded server: sharing, kill -9, Ctrl-C, GC races. */
class EmbeddedServerIT extends LauncherTestBase {
  private static final String STARTING = "objectmeta: starting the embedded PostgreSQL";
  private static final String ATTACHED = "(already running)";

  private JsonNode gcStatus() throws Exception {
    Launcher.Result r = launcher.run("-q", "gc", "status", "--json");
    assertThat(r.exit()).as(r.err()).isZero();
    return Output.JSON.readTree(r.out());
  }

  private static List<String> ids(Path log) throws Exception {
    List<String> ids = new ArrayList<>();
    for (String line : Files.readAllLines(log)) {
      ids.add(Output.JSON.readTree(line).get("id").asText());
    }
    return ids;
  }

  /**
   * Sinks slower than the lease (each batch takes a command 3 s, the lease is 1 s) in two
   * processes: renewals keep every batch with the run that claimed it, so no record reaches two
   * sinks, all are freed, and both runs say so truthfully.
   */
  @Test
  void twoGcRunsWithSinksSlowerThanTheLeaseHandEachRecordToOneSinkOnce() throws Exception {
    assertThat(launcher.run("-q", "demo", "--objects", "100", "--skip-gc").exit()).isZero();
    long queued = gcStatus().get("queued").asLong();
    assertThat(queued).isPositive();

    Path outA = dir.resolve("slow-a.jsonl");
    Path outB = dir.resolve("slow-b.jsonl");
    String batch = String.valueOf(Math.max(1, queued / 4));
    Launcher.Run a = launcher.start("-q", "gc", "run", "--grace-period", "0", "--batch-size", batch,
        "--lease", "1s", "--sink", "command:sleep 3; cat >> '" + outA + "'", "--json");
    Launcher.Run b = launcher.start("-q", "gc", "run", "--grace-period", "0", "--batch-size", batch,
        "--lease", "1s", "--sink", "command:sleep 3; cat >> '" + outB + "'", "--json");
    Launcher.Result ra = a.await(Duration.ofMinutes(3));
    Launcher.Result rb = b.await(Duration.ofMinutes(3));
    assertThat(ra.exit()).as(ra.err()).isZero();
    assertThat(rb.exit()).as(rb.err()).isZero();

    List<String> idsA = Files.exists(outA) ? ids(outA) : List.of();
    List<String> idsB = Files.exists(outB) ? ids(outB) : List.of();
    Set<String> union = new HashSet<>(idsA);
    union.addAll(idsB);
    assertThat(idsA.size() + idsB.size()).as("no record handed to a sink twice")
        .isEqualTo(union.size());
    assertThat(union).as("every record handed to a sink").hasSize((int) queued);
    long freed = Output.JSON.readTree(ra.out()).get("freed").asLong()
        + Output.JSON.readTree(rb.out()).get("freed").asLong();
    assertThat(freed).as("freed, as the two summaries say").isEqualTo(queued);
    assertThat(Output.JSON.readTree(ra.out()).get("lostLease").asLong()).isZero();
    assertThat(Output.JSON.readTree(rb.out()).get("lostLease").asLong()).isZero();
    assertThat(gcStatus().get("queued").asLong()).isZero();
    launcher.assertNoServer();
  }

  @Test
  void twoGcRunsShareOneServerAndNeverFreeTheSameRecord() throws Exception {
    assertThat(launcher.run("-q", "demo", "--skip-gc").exit()).isZero();
    long queued = gcStatus().get("queued").asLong();
    assertThat(queued).isEqualTo(1001);

    Path logA = dir.resolve("a.jsonl");
    Path logB = dir.resolve("b.jsonl");
    Launcher.Run a = launcher.start("gc", "run", "--grace-period", "0", "--batch-size", "5",
        "--sink", "log:" + logA);
    Launcher.Run b = launcher.start("gc", "run", "--grace-period", "0", "--batch-size", "5",
        "--sink", "log:" + logB);
    Launcher.Result ra = a.await(Duration.ofMinutes(2));
    Launcher.Result rb = b.await(Duration.ofMinutes(2));
    assertThat(ra.exit()).as(ra.err()).isZero();
    assertThat(rb.exit()).as(rb.err()).isZero();

    // One of them started the server, the other used it.
    assertThat(List.of(ra.err(), rb.err())).filteredOn(e -> e.contains(STARTING)).hasSize(1);
    assertThat(List.of(ra.err(), rb.err())).filteredOn(e -> e.contains(ATTACHED)).hasSize(1);

    List<String> idsA = ids(logA);
    List<String> idsB = ids(logB);
    assertThat(idsA).as("records freed by the first run").isNotEmpty();
    assertThat(idsB).as("records freed by the second run").isNotEmpty();
    Set<String> union = new HashSet<>(idsA);
    union.addAll(idsB);
    assertThat(idsA.size() + idsB.size()).as("no record freed twice").isEqualTo(union.size());
    assertThat(union).as("every record freed").hasSize((int) queued);
    assertThat(gcStatus().get("queued").asLong()).isZero();
    launcher.assertNoServer();
  }

  @Test
  void aServerLeftByAKilledProcessIsUsedByTheNextAndStoppedByTheLast() throws Exception {
    Launcher.Run doomed = launcher.start("demo", "--objects", "1000000");
    Polling.until("the demo writes objects", Duration.ofMinutes(1),
        () -> launcher.objectVersions() > 100); // well into its writes
    doomed.process().destroyForcibly(); // kill -9: no shutdown hook, the server stays
    doomed.process().waitFor();
    assertThat(launcher.server()).as("the server the killed process started").isPresent();
    long pid = launcher.server().get().pid();

    Launcher.Result next = launcher.run("stats");
    assertThat(next.exit()).as(next.err()).isZero();
    assertThat(next.err()).contains(ATTACHED).doesNotContain(STARTING);
    assertThat(next.out()).contains("demo-");
    assertThat(ProcessHandle.of(pid).filter(Postmaster::running)).as("the old server").isEmpty();
    launcher.assertNoServer();
  }

  @Test
  void aGcRunAskedToStopReleasesWhatItClaimedAtOnce() throws Exception {
    assertThat(launcher.run("-q", "demo", "--objects", "120", "--skip-gc").exit()).isZero();
    long queued = gcStatus().get("queued").asLong();

    // A sink that never finishes: the run holds two batches under a five-minute lease.
    Launcher.Run gc = launcher.start("gc", "run", "--grace-period", "0", "--batch-size", "10",
        "--workers", "2", "--sink", "command:cat > /dev/null; sleep 600");
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    long leased = 0;
    while (leased < 20 && System.nanoTime() < deadline) {
      leased = gcStatus().get("leased").asLong();
    }
    assertThat(leased).isEqualTo(20);

    gc.process().destroy(); // SIGTERM, as Ctrl-C's SIGINT: the shutdown hook stops the runner
    Launcher.Result stopped = gc.await(Duration.ofMinutes(1));
    assertThat(stopped.exit()).isEqualTo(143);
    assertThat(stopped.out()).containsPattern("released +20 ");
    JsonNode after = gcStatus();
    assertThat(after.get("leased").asLong()).isZero();
    assertThat(after.get("queued").asLong()).isEqualTo(queued);
    launcher.assertNoServer();
  }
}
