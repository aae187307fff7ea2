package io.objectmeta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The command on a MongoDB store: {@code MONGODB_URI} if set, else an in-process server that
 * speaks the wire protocol.
 */
class MongoCommandsTest {
  private static MongoServer server;
  private static String base;

  @BeforeAll
  static void start() {
    String env = System.getenv("MONGODB_URI");
    if (env != null && !env.isBlank()) {
      base = env.endsWith("/") ? env : env + "/";
    } else {
      server = new MongoServer(new MemoryBackend());
      base = server.bindAndGetConnectionString() + "/";
    }
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.shutdownNow();
    }
  }

  private static Cli cli(String db, String options) {
    return new Cli(Map.of("OBJECTMETA_STORE", base + db + options));
  }

  @Test
  void keyFormatMigrateConvertsAV0BucketAndKeepsItsListing() {
    Cli v0 = cli("cli_kf", "?keyFormat=v0");
    v0.ok("bucket", "create", "legacy");
    v0.ok("bucket", "versioning", "legacy", "Enabled");
    for (String k : new String[] {"a/1", "a/2", "b", "\u007fweird"}) {
      v0.ok("put", "legacy", k, "--size", "3");
      v0.ok("put", "legacy", k, "--size", "4");
    }
    v0.ok("delete", "legacy", "b");
    JsonNode before = v0.ok("list", "legacy", "--all", "--versions", "--json").json();
    JsonNode m = v0.ok("key-format", "migrate", "legacy", "--json").json();
    assertThat(m.get("keysMoved").asInt()).isEqualTo(4);
    assertThat(m.get("versionsMoved").asInt()).isEqualTo(9);
    assertThat(v0.ok("list", "legacy", "--all", "--versions", "--json").json()).isEqualTo(before);
    assertThat(v0.ok("key-format", "migrate", "legacy", "--json").json().get("keysMoved").asInt())
        .isZero();
  }

  @Test
  void keyFormatMigrateOnAnotherBackendIsAUsageError() {
    Cli memory = new Cli();
    memory.ok("bucket", "create", "plain");
    Cli.Result r = memory.run("key-format", "migrate", "plain");
    assertThat(r.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(r.err()).contains("store").contains("MongoDB");
  }

  @Test
  void verifyRunsTheConformanceSuiteOnMongoDbInScratchDatabases() {
    Cli c = cli("cli_verify", "?layout=shared");
    c.ok("bucket", "create", "mine");
    JsonNode doc = c.ok("verify", "--json").json();
    assertThat(doc.get("ok").asBoolean()).as(doc.toString()).isTrue();
    assertThat(doc.get("failed").asInt()).isZero();
    assertThat(doc.get("passed").asInt()).isGreaterThan(380);
    assertThat(c.ok("bucket", "list", "--json").json().get("buckets")).hasSize(1);
  }
}
