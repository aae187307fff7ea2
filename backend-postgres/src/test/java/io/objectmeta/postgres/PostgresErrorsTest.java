package io.objectmeta.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectmeta.api.MetadataStores;
import io.objectmeta.api.error.InternalErrorException;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.error.ServiceUnavailableException;
import io.objectmeta.api.error.StoreConfigurationException;
import io.objectmeta.api.model.ObjectMetadata;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A failure is retryable only when repeating may cure it: the server's own errors, typed. */
class PostgresErrorsTest {

  private static Connection jdbc() throws SQLException {
    PostgresConfig c = PostgresConfig.from(URI.create(PostgresTestDatabase.url()), Map.of());
    return DriverManager.getConnection(c.jdbcUrl(), c.user(), c.password());
  }

  /** What PostgreSQL answers to {@code sql}, typed. */
  private static MetadataException typed(String sql) throws SQLException {
    try (Connection c = jdbc(); Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      return PostgresErrors.translate("test", new IllegalStateException(e));
    }
    throw new AssertionError("no error from " + sql);
  }

  @Test
  void inputTheServerRefusesIsInvalidArgumentNeverRetryable() throws Exception {
    String[] refused = {
        "SELECT 9223372036854775807::bigint + 1",          // 22003 numeric_value_out_of_range
        "SELECT convert_from('\\xff'::bytea, 'UTF8')",      // 22021 character_not_in_repertoire
        "SELECT '\"\\u0000\"'::jsonb",                     // 22P05 untranslatable_character
        "SELECT 1 / 0"};                                   // 22012 division_by_zero
    for (String sql : refused) {
      MetadataException e = typed(sql);
      assertThat(e).as(sql).isInstanceOf(InvalidArgumentException.class);
      assertThat(e.isRetryable()).as(sql).isFalse();
      assertThat(e.getMessage()).as(sql).contains("SQLSTATE 22");
    }
    // A NUL in a text parameter is refused by the server (22021) as it arrives.
    try (Connection c = jdbc(); PreparedStatement ps = c.prepareStatement("SELECT ?::text")) {
      ps.setString(1, "a\0b");
      assertThatThrownBy(ps::executeQuery).isInstanceOfSatisfying(SQLException.class, e ->
          assertThat(PostgresErrors.translate("test", e)).isInstanceOf(InvalidArgumentException.class));
    }
  }

  @Test
  void whatTheServerCannotDoNowIsRetryableAndWhatItNeverWillIsNot() throws Exception {
    MetadataException terminated = typed("SELECT pg_terminate_backend(pg_backend_pid())");
    assertThat(terminated).isInstanceOf(ServiceUnavailableException.class);
    assertThat(terminated.isRetryable()).isTrue();

    MetadataException noTable = typed("SELECT * FROM objectmeta_no_such_schema.bucket");
    assertThat(noTable).isInstanceOf(StoreConfigurationException.class);
    assertThat(noTable.isRetryable()).isFalse();

    MetadataException bug = typed("SELEKT 1");
    assertThat(bug).isInstanceOf(InternalErrorException.class)
        .isNotInstanceOf(StoreConfigurationException.class);
    assertThat(bug.isRetryable()).isFalse();

    MetadataException noServer = PostgresErrors.translate("test",
        new IllegalStateException(new SQLException("connection refused")));
    assertThat(noServer).isInstanceOf(ServiceUnavailableException.class);
  }

  @Test
  void aMissingDatabaseRoleOrSchemaIsAConfigurationErrorNotRetryable() {
    URI base = URI.create(PostgresTestDatabase.url());
    String noDb = base.getScheme() + "://" + (base.getRawUserInfo() == null ? "" : base.getRawUserInfo() + "@")
        + base.getHost() + ":" + base.getPort() + "/objectmeta_no_such_db";
    assertThatThrownBy(() -> MetadataStores.open(noDb, Map.of()))
        .isInstanceOfSatisfying(StoreConfigurationException.class,
            e -> assertThat(e.isRetryable()).isFalse())
        .hasMessageContaining("objectmeta_no_such_db");

    assertThatThrownBy(() -> MetadataStores.open(PostgresTestDatabase.url(),
        Map.of("user", "objectmeta_no_such_role")))
        .isInstanceOf(StoreConfigurationException.class)
        .hasMessageContaining("objectmeta_no_such_role");

    assertThatThrownBy(() -> MetadataStores.open(PostgresTestDatabase.url(),
        Map.of("schema", "objectmeta_never_made", "migrate", "false")))
        .isInstanceOf(StoreConfigurationException.class)
        .hasMessageContaining("objectmeta_never_made").hasMessageContaining("migrat");
  }

  @Test
  void aNulByteInAnyFieldIsRefusedAsInputAndStoresNothing() {
    try (PostgresMetadataStore store = PostgresTestDatabase.openFresh()) {
      store.createBucket("nul", "o", null);
      store.putObject("nul", "k", ObjectMetadata.builder().size(1).etag("before").build());
      assertThatThrownBy(() -> store.putObject("nul", "k",
          ObjectMetadata.builder().size(2).etag("a\0b").build()))
          .isInstanceOfSatisfying(InvalidArgumentException.class,
              e -> assertThat(e.isRetryable()).isFalse());
      assertThatThrownBy(() -> store.putObject("nul", "k",
          ObjectMetadata.builder().size(2).contentType("text/\0plain").build()))
          .isInstanceOf(InvalidArgumentException.class);
      assertThat(store.getObject("nul", "k").metadata().etag()).isEqualTo("before");
    }
  }
}
