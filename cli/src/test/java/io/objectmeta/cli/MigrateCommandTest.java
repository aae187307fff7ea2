package io.objectmeta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** migrate between in-memory stores (memory:NAME is shared by the commands of this JVM). */
class MigrateCommandTest {
  private final String source = "memory:migrate-src-" + UUID.randomUUID();
  private final String target = "memory:migrate-dst-" + UUID.randomUUID();
  private final Cli cli = new Cli(Map.of("OBJECTMETA_STORE", source));
  private final Cli onTarget = new Cli(Map.of("OBJECTMETA_STORE", target));

  private void fillSource() {
    cli.ok("bucket", "create", "photos", "--versioning", "Enabled");
    cli.ok("put", "photos", "cat.jpg", "--size", "3", "--etag", "e1");
    cli.ok("put", "photos", "cat.jpg", "--size", "4", "--etag", "e2");
    cli.ok("put", "photos", "dog.jpg", "--size", "5");
    cli.ok("delete", "photos", "dog.jpg");
    cli.ok("bucket", "create", "logs");
    cli.ok("put", "logs", "2026/11/22.log", "--size", "10");
    cli.ok("put", "logs", "2026/11/22.log", "--size", "11"); // the first goes to the GC queue
  }

  @Test
  void everythingIsCopiedAndVerified() {
    fillSource();
    Cli.Result r = cli.run("migrate", "--to", target);
    assertThat(r.exit()).as(r.err()).isEqualTo(ExitCode.OK);
    assertThat(r.out()).contains("2 buckets, 3 keys, 4 versions, 1 delete markers",
        "1 GC records", "verified: the target holds everything the source holds, the same");
    for (String[] listing : new String[][] {{"list", "photos", "--versions", "--json"},
        {"list", "logs", "--json"}, {"gc", "status", "--json"}}) {
      assertThat(onTarget.ok(listing).json()).as(String.join(" ", listing))
          .isEqualTo(cli.ok(listing).json());
    }
  }

  @Test
  void verifyOnlyFindsADifferenceAndNamesIt() {
    fillSource();
    cli.ok("migrate", "--to", target);
    onTarget.ok("put", "logs", "2026/11/22.log", "--size", "12");
    Cli.Result r = cli.run("migrate", "--to", target, "--verify-only");
    assertThat(r.exit()).isEqualTo(ExitCode.MISMATCH);
    assertThat(r.out()).contains("DIFFERS", "bucket logs: ", "NOT verified");
    JsonNode doc = cli.run("migrate", "--to", target, "--verify-only", "--json").json();
    assertThat(doc.get("matches").asBoolean()).isFalse();
  }

  @Test
  void aSecondRunWithoutACheckpointIsRefusedAndNothingChanges() {
    fillSource();
    cli.ok("migrate", "--to", target);
    onTarget.ok("delete", "logs", "2026/11/22.log");
    Cli.Result r = cli.run("migrate", "--to", target);
    assertThat(r.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(r.errLines()).singleElement().asString().startsWith("objectmeta: InvalidArgument: migrate: ");
    assertThat(onTarget.run("get", "logs", "2026/11/22.log").exit()).isEqualTo(ExitCode.S3_ERROR);
  }

  @Test
  void aStoreIsNotMigratedIntoItself() {
    fillSource();
    Cli.Result r = cli.run("migrate", "--from", source, "--to", source);
    assertThat(r.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(r.err()).contains("same store");
  }

  @Test
  void aFinishedCheckpointedRunOnlyVerifiesWhenRunAgain(@TempDir Path dir) {
    fillSource();
    Path cp = dir.resolve("cp.json");
    cli.ok("migrate", "--to", target, "--checkpoint", cp.toString(), "--batch-size", "1");
    assertThat(cp).exists();
    Cli.Result again = cli.run("migrate", "--to", target, "--checkpoint", cp.toString());
    assertThat(again.exit()).as(again.err()).isZero();
    assertThat(again.out()).contains("resumed from the checkpoint, finished", "verified: ");
  }

  @Test
  void badOptionsAreUsageErrors() {
    assertThat(cli.run("migrate").exit()).isEqualTo(ExitCode.USAGE);
    assertThat(cli.run("migrate", "--to", target, "--batch-size", "0").exit()).isEqualTo(ExitCode.USAGE);
    assertThat(cli.run("migrate", "--to", target, "--no-verify", "--verify-only").exit())
        .isEqualTo(ExitCode.USAGE);
    assertThat(cli.run("--store", "memory:a", "migrate", "--from", "memory:b", "--to", target).exit())
        .isEqualTo(ExitCode.USAGE);
    assertThat(Files.exists(Path.of("cp.json"))).isFalse();
  }
}
