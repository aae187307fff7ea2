package io.objectmeta.postgres;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.conformance.ConformanceFixture;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The conformance fixture: one store (one schema) per test class, emptied before each test by
 * truncating its tables, so a test costs a TRUNCATE rather than a migration and a new pool.
 */
public final class PostgresFixture implements ConformanceFixture {
  private PostgresMetadataStore store;

  @Override
  public String name() {
    return "postgres";
  }

  @Override
  public synchronized MetadataStore open() {
    if (store == null) {
      store = PostgresTestDatabase.openFresh();
    } else {
      truncate(store);
    }
    return store;
  }

  /** Another pool on the same schema, as another process would have. */
  @Override
  public java.util.Optional<MetadataStore> openPeer(MetadataStore s) {
    return java.util.Optional.of(new PostgresMetadataStore(((PostgresMetadataStore) s).config()));
  }

  @Override
  public void close(MetadataStore s) {
    // kept open for the next test; truncated on the next open()
  }

  static void truncate(PostgresMetadataStore store) {
    PostgresConfig c = store.config();
    String s = c.schema();
    try (Connection conn = DriverManager.getConnection(c.jdbcUrl(), c.user(), c.password());
        Statement st = conn.createStatement()) {
      st.execute("TRUNCATE " + s + ".bucket, " + s + ".bucket_usage, " + s + ".deleted_bucket, "
          + s + ".object_version, " + s + ".object_live, " + s + ".upload, " + s + ".part, "
          + s + ".deleted_object, " + s + ".gc_lease");
    } catch (SQLException e) {
      throw new IllegalStateException("cannot empty schema " + s + ": " + e.getMessage(), e);
    }
  }
}
