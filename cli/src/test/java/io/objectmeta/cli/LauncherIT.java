package io.objectmeta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.objectmeta.cli.embedded.Launcher;
import io.objectmeta.cli.embedded.LauncherTestBase;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The real ./objectmeta script, run as a process against the embedded PostgreSQL default. */
class LauncherIT extends LauncherTestBase {

  private static JsonNode json(Launcher.Result r) throws Exception {
    assertThat(r.exit()).as(r.err()).isZero();
    return Output.JSON.readTree(r.out());
  }

  private static List<String> keys(JsonNode listing) {
    List<String> keys = new ArrayList<>();
    listing.get("contents").forEach(e -> keys.add(e.get("key").asText()));
    return keys;
  }

  @Test
  void theDemoRunsOnTheEmbeddedDefaultInUnderAMinute() throws Exception {
    Launcher.Result r = launcher.run("demo");

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.took()).isLessThan(Duration.ofMinutes(1));
    assertThat(r.errLines()).anySatisfy(l -> assertThat(l)
        .startsWith("objectmeta: starting the embedded PostgreSQL; first run: creating its database in "));
    assertThat(r.errLines()).anySatisfy(l -> assertThat(l)
        .startsWith("objectmeta: store: embedded PostgreSQL postgres://postgres:***@localhost:"));
    assertThat(r.out()).contains("put 3000 objects", "2400 objects (3000 written, 600 delete-marked)",
        "12 common prefixes", "3000 objects as of ", "1001 records freed", "done in ");
    launcher.assertNoServer();
  }

  @Test
  void dataPersistsAcrossInvocationsEachOfWhichStopsTheServerItLeavesLast() throws Exception {
    assertThat(launcher.run("bucket", "create", "photos", "--versioning", "Enabled").exit()).isZero();
    launcher.assertNoServer();
    assertThat(launcher.run("put", "photos", "cat.jpg", "--size", "3", "--etag", "e1").exit()).isZero();
    assertThat(launcher.run("put", "photos", "dog.jpg", "--size", "4").exit()).isZero();
    assertThat(keys(json(launcher.run("list", "photos", "--json")))).containsExactly("cat.jpg", "dog.jpg");
    launcher.assertNoServer();

    Launcher.Result deleted = launcher.run("delete", "photos", "cat.jpg");
    assertThat(deleted.out()).startsWith("deleted cat.jpg: delete marker ");
    assertThat(keys(json(launcher.run("list", "photos", "--json")))).containsExactly("dog.jpg");
    Launcher.Result gone = launcher.run("get", "photos", "cat.jpg");
    assertThat(gone.exit()).isEqualTo(ExitCode.S3_ERROR);
    assertThat(gone.errLines()).last().asString().startsWith("objectmeta: NoSuchKey: ");
    JsonNode stats = json(launcher.run("stats", "--json"));
    assertThat(stats.get("perBucket").get(0).get("usage").get("nonCurrentVersions").asLong()).isEqualTo(1);
    assertThat(json(launcher.run("head", "photos", "cat.jpg", "--version-id",
        json(launcher.run("list", "photos", "--versions", "--json")).get("versions").get(1)
            .get("versionId").asText(), "--json")).get("etag").asText()).isEqualTo("e1");
    launcher.assertNoServer();
  }

  @Test
  void badInputGivesOneClearLineAndANonZeroExitWithoutAStackTrace() throws Exception {
    record Case(int exit, String firstWords, String... args) {}
    List<Case> cases = List.of(
        new Case(ExitCode.USAGE, "objectmeta: InvalidBucketName: ", "bucket", "create", "Not_A_Bucket"),
        new Case(ExitCode.USAGE, "objectmeta: InvalidArgument: uri: no backend for scheme \"foo\"",
            "--store", "foo://somewhere", "stats"),
        new Case(ExitCode.UNAVAILABLE, "objectmeta: ServiceUnavailable: cannot reach PostgreSQL at 127.0.0.1:1/x",
            "--store", "postgres://127.0.0.1:1/x", "stats"),
        new Case(ExitCode.USAGE, "objectmeta: Unknown option: '--colour'", "list", "photos", "--colour"));
    for (Case c : cases) {
      Launcher.Result r = launcher.run(c.args());
      assertThat(r.exit()).as(String.join(" ", c.args())).isEqualTo(c.exit());
      assertThat(r.errLines()).as(String.join(" ", c.args())).singleElement().asString()
          .startsWith(c.firstWords()).doesNotContain("Exception").doesNotContain("\tat ");
      assertThat(r.out()).isEmpty();
    }
    // None of them needed the embedded server, so none was started.
    assertThat(Files.exists(launcher.home().resolve("pgdata"))).isFalse();
  }

  @Test
  void verifyProvesTheEmbeddedDefaultKeepsTheContractInScratchSchemas() throws Exception {
    assertThat(launcher.run("bucket", "create", "kept").exit()).isZero();
    Launcher.Result r = launcher.run("verify");

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.errLines()).anySatisfy(l -> assertThat(l)
        .startsWith("verify: scratch namespaces in postgres localhost:").contains("objectmeta_scratch_"));
    assertThat(r.out()).contains("GC queue", " 0 failed, 0 skipped", "the store keeps the contract");
    assertThat(json(launcher.run("bucket", "list", "--json")).get("buckets")).hasSize(1);
    launcher.assertNoServer();
  }
}
