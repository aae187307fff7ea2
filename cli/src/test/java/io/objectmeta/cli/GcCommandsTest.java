package io.objectmeta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GcCommandsTest {
  private static final int GARBAGE = 29;
  private final Cli cli = new Cli();

  /** An unversioned bucket whose one key was overwritten: every overwrite queues a record. */
  @BeforeEach
  void garbage() {
    cli.ok("bucket", "create", "scratch");
    for (int i = 0; i <= GARBAGE; i++) {
      cli.ok("put", "scratch", "tmp", "--size", "100");
    }
  }

  private JsonNode status() {
    return cli.ok("gc", "status", "--json").json();
  }

  private static Set<String> ids(List<String> jsonLines) throws Exception {
    Set<String> ids = new HashSet<>();
    for (String line : jsonLines) {
      ids.add(Output.JSON.readTree(line).get("id").asText());
    }
    return ids;
  }

  @Test
  void statusShowsTheQueue() {
    assertThat(status().get("queued").asLong()).isEqualTo(GARBAGE);
    assertThat(status().get("leased").asLong()).isZero();
    assertThat(status().get("bytes").asLong()).isEqualTo(GARBAGE * 100L);
    Cli.Result table = cli.ok("gc", "status");
    assertThat(table.outLines()).anySatisfy(l -> assertThat(l).matches("queued +29 records \\(2\\.8 KiB\\)"));
  }

  @Test
  void aRunWithTheLogSinkWritesEveryRecordOnceAndEmptiesTheQueue(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("gc.jsonl");
    JsonNode summary = cli.ok("gc", "run", "--grace-period", "0", "--batch-size", "7",
        "--sink", "log:" + log, "--json").json();
    assertThat(summary.get("freed").asLong()).isEqualTo(GARBAGE);
    assertThat(summary.get("bytesFreed").asLong()).isEqualTo(GARBAGE * 100L);
    assertThat(summary.get("gcQueue").get("queued").asLong()).isZero();

    List<String> lines = Files.readAllLines(log);
    assertThat(lines).hasSize(GARBAGE);
    assertThat(ids(lines)).hasSize(GARBAGE);
    JsonNode record = Output.JSON.readTree(lines.get(0));
    assertThat(record.get("kind").asText()).isEqualTo("OBJECT_VERSION");
    assertThat(record.get("bucket").asText()).isEqualTo("scratch");
    assertThat(record.get("deletedAt").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
    assertThat(status().get("queued").asLong()).isZero();
  }

  @Test
  void theGracePeriodKeepsRecentRecordsQueued(@TempDir Path dir) {
    Cli.Result r = cli.ok("gc", "run", "--sink", "log:" + dir.resolve("gc.jsonl"));
    assertThat(r.outLines()).anySatisfy(l -> assertThat(l).matches("freed +0 records.*"));
    assertThat(status().get("queued").asLong()).isEqualTo(GARBAGE);
  }

  @Test
  void maxRecordsBoundsARun(@TempDir Path dir) throws Exception {
    JsonNode summary = cli.ok("gc", "run", "--grace-period", "0s", "--batch-size", "5",
        "--max-records", "10", "--sink", "log:" + dir.resolve("gc.jsonl"), "--json").json();
    assertThat(summary.get("freed").asLong()).isEqualTo(10);
    assertThat(status().get("queued").asLong()).isEqualTo(GARBAGE - 10);
  }

  @Test
  void aDryRunClaimsNothingAndSaysWhatIsDue() {
    JsonNode due = cli.ok("gc", "run", "--dry-run", "--grace-period", "0", "--sink", "log:-",
        "--json").json();
    assertThat(due.get("claimableAtMost").asLong()).isEqualTo(GARBAGE);
    JsonNode notYet = cli.ok("gc", "run", "--dry-run", "--sink", "log:-", "--json").json();
    assertThat(notYet.get("claimableAtMost").asLong()).isZero();
    assertThat(cli.ok("gc", "run", "--dry-run", "--grace-period", "0").out())
        .contains("nothing claimed", "the oldest record is past it");
    assertThat(status().get("queued").asLong()).isEqualTo(GARBAGE);
    assertThat(status().get("leased").asLong()).isZero();
  }

  @Test
  void theCommandSinkFreesABatchWhenTheCommandSucceeds(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("freed.jsonl");
    JsonNode summary = cli.ok("gc", "run", "--grace-period", "0", "--batch-size", "10",
        "--sink", "command:cat >> '" + out + "'", "--json").json();
    assertThat(summary.get("freed").asLong()).isEqualTo(GARBAGE);
    assertThat(ids(Files.readAllLines(out))).hasSize(GARBAGE);
  }

  @Test
  void aCommandSinkSlowerThanTheLeaseKeepsItsBatchesAndTheSummaryIsTrue(@TempDir Path dir)
      throws Exception {
    Path out = dir.resolve("freed.jsonl");
    // Each batch takes the sink 2.5 s, the lease is 1 s: the runner renews it meanwhile.
    Cli.Result r = cli.run("gc", "run", "--grace-period", "0", "--batch-size",
        String.valueOf(GARBAGE), "--lease", "1s", "--sink", "command:sleep 2.5; cat >> '" + out + "'",
        "--json");
    assertThat(r.exit()).as(r.err()).isEqualTo(ExitCode.OK);
    JsonNode summary = r.json();
    assertThat(summary.get("freed").asLong()).isEqualTo(GARBAGE);
    assertThat(summary.get("lostLease").asLong()).isZero();
    assertThat(summary.get("bytesFreed").asLong()).isPositive();
    assertThat(ids(Files.readAllLines(out))).hasSize(GARBAGE).doesNotHaveDuplicates();
    assertThat(status().get("queued").asLong()).isZero();
  }

  @Test
  void aLeaseOrGracePeriodTooLongIsAUsageErrorNotACrash() {
    for (String[] opt : new String[][] {{"--lease", "99999999999999999999d"},
        {"--lease", "PT2562047788015215H"}, {"--lease", "2d"}, {"--grace-period", "PT2562047788015215H"},
        {"--max-time", "99999999d"}}) {
      Cli.Result r = cli.run("gc", "run", "--sink", "log:-", opt[0], opt[1]);
      assertThat(r.exit()).as(String.join(" ", opt) + ": " + r.err()).isEqualTo(ExitCode.USAGE);
      assertThat(r.err()).doesNotContain("internal error");
    }
    assertThat(status().get("queued").asLong()).isEqualTo(GARBAGE);
  }

  @Test
  void batchesTheCommandSinkRefusesGoBackToTheQueueAndTheRunStopsAfterThreeInARow() {
    Cli.Result r = cli.run("gc", "run", "--grace-period", "0", "--batch-size", "10",
        "--sink", "command:cat > /dev/null; exit 3");
    assertThat(r.exit()).isEqualTo(ExitCode.INCOMPLETE);
    assertThat(r.outLines()).anySatisfy(l -> assertThat(l).contains("3 batches refused by the sink"));
    assertThat(r.err()).contains("the sink refused 3 batches in a row; stopping");
    assertThat(status().get("queued").asLong()).isEqualTo(GARBAGE);
    assertThat(status().get("leased").asLong()).isZero();
  }

  @Test
  void theLogSinkOnStdoutLeavesStdoutToTheRecordsAndSummarizesOnStderr() throws Exception {
    PrintStream saved = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    Cli.Result r;
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      r = cli.ok("gc", "run", "--grace-period", "0", "--sink", "log:-");
    } finally {
      System.setOut(saved);
    }
    List<String> lines = List.of(captured.toString(StandardCharsets.UTF_8).split("\n"));
    assertThat(ids(lines)).hasSize(GARBAGE);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains("freed", "29 records");
  }

  @Test
  void anUnknownSinkOrBadSettingsAreUsageErrors() {
    Cli.Result unknown = cli.run("gc", "run", "--sink", "nope:x");
    assertThat(unknown.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(unknown.errLines()).containsExactly("objectmeta: InvalidArgument: sink: no sink named"
        + " \"nope\" on the class path; sinks available: command, log");
    assertThat(cli.run("gc", "run", "--sink", "command:").exit()).isEqualTo(ExitCode.USAGE);
    assertThat(cli.run("gc", "run", "--sink", "log:-", "--batch-size", "0").exit())
        .isEqualTo(ExitCode.USAGE);
    assertThat(cli.run("gc", "run", "--sink", "log:-", "--grace-period", "soon").exit())
        .isEqualTo(ExitCode.USAGE);
    assertThat(cli.run("gc", "run").errLines()).singleElement().asString()
        .contains("Missing required option: '--sink=SPEC'");
  }
}
