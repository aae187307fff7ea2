package io.objectmeta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** verify: the conformance suite against the command's store, in scratch namespaces. */
class VerifyCommandTest {

  @Test
  void aConformingStorePassesEveryGroupAndItsOwnDataIsUntouched() {
    Cli cli = new Cli();
    cli.ok("bucket", "create", "mine");
    Cli.Result r = cli.run("verify");
    assertThat(r.exit()).as(r.err()).isEqualTo(ExitCode.OK);
    assertThat(r.err()).contains("verify: scratch namespaces in memory:");
    assertThat(r.outLines().get(0)).startsWith("GROUP").contains("PASSED", "FAILED", "SKIPPED");
    assertThat(r.out()).contains("GC queue", "listing versions", "keys and UTF-8 order")
        .doesNotContain("FAIL ").contains(" 0 failed, 0 skipped", "the store keeps the contract");
    assertThat(cli.ok("bucket", "list", "--json").json().get("buckets")).hasSize(1)
        .allSatisfy(b -> assertThat(b.get("name").asText()).isEqualTo("mine"));
  }

  @Test
  void jsonGivesTheCountsPerGroup() {
    JsonNode doc = new Cli().ok("verify", "--json").json();
    assertThat(doc.get("ok").asBoolean()).isTrue();
    assertThat(doc.get("failed").asInt()).isZero();
    assertThat(doc.get("passed").asInt()).isGreaterThan(380);
    assertThat(doc.get("groups")).anySatisfy(g -> {
      assertThat(g.get("name").asText()).isEqualTo("GC queue");
      assertThat(g.get("passed").asInt()).isGreaterThan(10);
      assertThat(g.get("failed").asInt()).isZero();
    });
  }
}
