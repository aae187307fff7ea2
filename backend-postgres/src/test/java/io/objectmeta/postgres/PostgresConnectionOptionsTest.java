package io.objectmeta.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.MetadataStores;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.MetadataException;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every driver option reaches the driver; a misspelled one is refused; no password is shown. */
class PostgresConnectionOptionsTest {
  private static final String PASSWORD = "Sup3rS3cretPw";

  private static String schema() {
    return "opts" + ProcessHandle.current().pid() + "_" + System.nanoTime() % 100000;
  }

  @Test
  void aMisspelledOptionIsRefusedBeforeAnyConnection() {
    assertThatThrownBy(() -> MetadataStores.open(PostgresTestDatabase.url(), Map.of("schma", "x")))
        .isInstanceOfSatisfying(InvalidArgumentException.class,
            e -> assertThat(e.field()).isEqualTo("schma"))
        .hasMessageContaining("did you mean schema?").hasMessageContaining("sslmode");
    assertThatThrownBy(() -> MetadataStores.open("postgres://u:" + PASSWORD + "@127.0.0.1:1/db?sslmod=require"))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("did you mean sslmode?")
        .hasMessageNotContaining(PASSWORD);
  }

  @Test
  void tlsAskedForIsNeverDroppedForPlaintext() {
    // The test server has no TLS: a store that requires it must not open.
    assertThatThrownBy(() -> MetadataStores.open(PostgresTestDatabase.url(),
        Map.of("schema", schema(), "sslmode", "require")))
        .isInstanceOf(MetadataException.class).hasMessageContaining("SSL");
    assertThatThrownBy(() -> MetadataStores.open(PostgresTestDatabase.url(),
        Map.of("schema", schema(), "ssl", "true", "sslmode", "verify-full")))
        .isInstanceOf(MetadataException.class).hasMessageContaining("SSL");
  }

  @Test
  void driverOptionsReachTheServerAndTheSocketTimeoutHasADefault() throws Exception {
    String schema = schema();
    try (MetadataStore store = MetadataStores.open(PostgresTestDatabase.url(),
        Map.of("schema", schema, "ApplicationName", "objectmeta-options-test"))) {
      store.createBucket("opts", "o", null);
      PostgresConfig c = ((PostgresMetadataStore) store).config();
      try (Connection conn = c.connect();
          PreparedStatement ps = conn.prepareStatement("SELECT count(*) FROM pg_stat_activity"
              + " WHERE application_name = 'objectmeta-options-test'")) {
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          assertThat(rs.getInt(1)).as("connections named by ApplicationName").isPositive();
        }
      }
      assertThat(c.driverProperties().getProperty("socketTimeout"))
          .isEqualTo(String.valueOf(PostgresConfig.DEFAULT_SOCKET_TIMEOUT_SECONDS));
    }
    assertThat(PostgresConfig.from(URI.create("postgres://h/db?socketTimeout=7"), Map.of())
        .driverProperties().getProperty("socketTimeout")).isEqualTo("7");
  }

  @Test
  void noPasswordInAConfigsTextNorInErrors() {
    PostgresConfig c = PostgresConfig.from(URI.create("postgres://alice:" + PASSWORD
        + "@db.example:5432/meta?sslpassword=" + PASSWORD), Map.of());
    assertThat(c.toString()).doesNotContain(PASSWORD).contains("alice:***@db.example:5432/meta");
    assertThatThrownBy(() -> MetadataStores.open("postgres://alice:" + PASSWORD + "@127.0.0.1:1/db",
        Map.of("connectTimeoutSeconds", "1")))
        .isInstanceOf(MetadataException.class).hasMessageNotContaining(PASSWORD);
    assertThatThrownBy(() -> MetadataStores.open("postgres://alice:" + PASSWORD + "@bad host/db"))
        .isInstanceOf(InvalidArgumentException.class).hasMessageNotContaining(PASSWORD);
  }
}
