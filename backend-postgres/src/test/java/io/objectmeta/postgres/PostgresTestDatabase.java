package io.objectmeta.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The PostgreSQL the tests use, in this order: {@code OBJECTMETA_PG_URL} (a real server, e.g. the
 * machine's own PostgreSQL that .ci/run starts); a Testcontainers PostgreSQL 17 when
 * {@code OBJECTMETA_PG_TESTCONTAINERS=true} (needs a Docker engine); otherwise an embedded
 * PostgreSQL 17 (zonky's binaries from Maven Central), started once per JVM. When neither works the tests fail with a
 * message saying which database was expected where; they are never skipped.
 */
public final class PostgresTestDatabase {
  private static final AtomicInteger SCHEMAS = new AtomicInteger();
  private static String baseUrl;
  private static EmbeddedPostgres embedded;

  private PostgresTestDatabase() {}

  /** The base URL (without schema) of the test database. */
  public static synchronized String url() {
    if (baseUrl != null) {
      return baseUrl;
    }
    String env = System.getenv("OBJECTMETA_PG_URL");
    if (env != null && !env.isBlank()) {
      URI u = URI.create(env);
      probe(u.getHost(), u.getPort() < 0 ? 5432 : u.getPort(), "OBJECTMETA_PG_URL=" + env);
      baseUrl = env;
      return baseUrl;
    }
    if ("true".equalsIgnoreCase(System.getenv("OBJECTMETA_PG_TESTCONTAINERS"))) {
      if (!org.testcontainers.DockerClientFactory.instance().isDockerAvailable()) {
        throw new IllegalStateException("OBJECTMETA_PG_TESTCONTAINERS=true but no Docker engine is"
            + " reachable; unset it to use the embedded PostgreSQL");
      }
      org.testcontainers.postgresql.PostgreSQLContainer container =
          new org.testcontainers.postgresql.PostgreSQLContainer("postgres:17");
      container.start();
      Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
      baseUrl = "postgres://" + container.getUsername() + ":" + container.getPassword() + "@"
          + container.getHost() + ":" + container.getFirstMappedPort() + "/" + container.getDatabaseName();
      return baseUrl;
    }
    try {
      embedded = EmbeddedPostgres.builder().start();
    } catch (IOException e) {
      throw new IllegalStateException("no PostgreSQL for the tests: OBJECTMETA_PG_URL is not set and"
          + " the embedded PostgreSQL (zonky) failed to start: " + e.getMessage(), e);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        embedded.close();
      } catch (IOException ignored) {
        // the process is ending
      }
    }));
    baseUrl = "postgres://postgres@localhost:" + embedded.getPort() + "/postgres";
    return baseUrl;
  }

  /** A store in a new, empty schema. */
  public static PostgresMetadataStore openFresh() {
    String schema = "t" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
    return new PostgresMetadataStore(PostgresConfig.from(URI.create(url()),
        Map.of("schema", schema, "maxPoolSize", "8")));
  }

  private static void probe(String host, int port, String what) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 2000);
    } catch (IOException e) {
      throw new IllegalStateException("no PostgreSQL at " + host + ":" + port + " (" + what + "): "
          + e.getMessage(), e);
    }
  }
}
