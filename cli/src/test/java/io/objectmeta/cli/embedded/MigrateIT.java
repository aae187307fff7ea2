package io.objectmeta.cli.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.objectmeta.cli.Output;
import io.objectmeta.conformance.Polling;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * migrate through the real ./objectmeta, PostgreSQL to PostgreSQL (two schemas of the embedded
 * server), stopped by SIGTERM in the middle and resumed from its checkpoint by a second process.
 */
class MigrateIT extends LauncherTestBase {

  private JsonNode json(String... args) throws Exception {
    Launcher.Result r = launcher.run(args);
    assertThat(r.exit()).as(r.err()).isZero();
    return Output.JSON.readTree(r.out());
  }

  @Test
  void aMigrationStoppedMidwayResumesFromItsCheckpointAndVerifies() throws Exception {
    assertThat(launcher.run("demo", "--objects", "1500", "--skip-gc").exit()).isZero();
    Path checkpoint = dir.resolve("migrate.json");
    String copy = "embedded?schema=copy";

    Launcher.Run first = launcher.start("migrate", "--to", copy, "--checkpoint",
        checkpoint.toString(), "--batch-size", "5");
    Polling.until("the first batch is checkpointed, or the run ends", Duration.ofMinutes(1),
        () -> Files.exists(checkpoint) || !first.process().isAlive());
    assertThat(first.process().isAlive()).as("still copying when its first batch is checkpointed")
        .isTrue();
    first.process().destroy(); // SIGTERM: the run stops after its batch, the checkpoint written
    Launcher.Result stopped = first.await(Duration.ofMinutes(1));
    assertThat(stopped.exit()).as(stopped.err()).isEqualTo(143);
    assertThat(stopped.out()).contains("STOPPED: run again with the same --checkpoint");

    Launcher.Result resumed = launcher.run("migrate", "--to", copy, "--checkpoint",
        checkpoint.toString());
    assertThat(resumed.exit()).as(resumed.err()).isZero();
    assertThat(resumed.out()).contains("resumed from the checkpoint, finished",
        "verified: the target holds everything the source holds, the same");

    JsonNode source = json("stats", "--json");
    JsonNode target = json("--store", copy, "stats", "--json");
    assertThat(target.get("perBucket")).isEqualTo(source.get("perBucket"));
    assertThat(target.get("total")).isEqualTo(source.get("total"));
    assertThat(target.get("uuid")).isNotEqualTo(source.get("uuid"));
    launcher.assertNoServer();
  }
}
