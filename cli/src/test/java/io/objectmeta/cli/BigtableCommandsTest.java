package io.objectmeta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.cloud.bigtable.emulator.core.EmulatorController;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The command on a Bigtable store: {@code OBJECTMETA_BIGTABLE_URI} if set, else Google's
 * emulator started from the emulator-core artifact.
 */
class BigtableCommandsTest {
  private static EmulatorController emulator;
  private static String base;

  @BeforeAll
  static void start() throws Exception {
    String env = System.getenv("OBJECTMETA_BIGTABLE_URI");
    if (env != null && !env.isBlank()) {
      base = env + (env.contains("?") ? "&" : "?");
    } else {
      emulator = EmulatorController.createBundled();
      emulator.start();
      base = "bigtable://cli-project/cli-instance?emulatorHost=localhost:" + emulator.getPort() + "&";
    }
  }

  @AfterAll
  static void stop() {
    if (emulator != null) {
      emulator.stop();
    }
  }

  private static Cli cli(String prefix) {
    return new Cli(Map.of("OBJECTMETA_STORE", base + "tablePrefix=" + prefix));
  }

  @Test
  void bucketsObjectsListingsAndStats() {
    Cli c = cli("cmds_");
    c.ok("bucket", "create", "photos");
    c.ok("bucket", "versioning", "photos", "Enabled");
    c.ok("put", "photos", "a/cat.jpg", "--size", "3");
    c.ok("put", "photos", "a/cat.jpg", "--size", "4");
    c.ok("put", "photos", "b\u0000nul", "--size", "5");
    c.ok("delete", "photos", "b\u0000nul");
    JsonNode versions = c.ok("list", "photos", "--all", "--versions", "--json").json();
    assertThat(versions.toString()).contains("a/cat.jpg", "b\\u0000nul");
    JsonNode current = c.ok("list", "photos", "--all", "--json").json();
    assertThat(current.toString()).contains("a/cat.jpg").doesNotContain("nul");
    assertThat(c.ok("get", "photos", "a/cat.jpg", "--json").json().get("size").asLong())
        .isEqualTo(4);
    JsonNode stats = c.ok("stats", "--json").json();
    assertThat(stats.toString()).contains("photos");
  }

  @Test
  void verifyRunsTheConformanceSuiteInScratchTablesAndLeavesTheStoreAlone() {
    Cli c = cli("verify_");
    c.ok("bucket", "create", "mine");
    Cli.Result r = c.run("verify", "--json");
    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(ExitCode.OK);
    JsonNode doc = r.json();
    assertThat(doc.get("ok").asBoolean()).as(doc.toString()).isTrue();
    assertThat(doc.get("failed").asInt()).isZero();
    assertThat(doc.get("passed").asInt()).isGreaterThan(380);
    assertThat(c.ok("bucket", "list", "--json").json().get("buckets")).hasSize(1);
  }
}
