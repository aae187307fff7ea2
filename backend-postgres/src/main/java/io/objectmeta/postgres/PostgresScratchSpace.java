package io.objectmeta.postgres;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.error.ServiceUnavailableException;
import io.objectmeta.api.spi.ScratchSpace;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Scratch stores on a live PostgreSQL: each {@link #open()} creates a schema
 * {@code <base>_scratch_<random>_<n>} (the base being the URI's schema) with the full migrations;
 * {@link #close()} drops every one of them. The URI's own schema is never touched.
 */
final class PostgresScratchSpace implements ScratchSpace {
  private final PostgresConfig base;
  private final String prefix;
  private final List<String> schemas = new ArrayList<>();

  PostgresScratchSpace(PostgresConfig base) {
    this.base = base;
    byte[] random = new byte[4];
    new SecureRandom().nextBytes(random);
    String stem = base.schema().length() > 30 ? base.schema().substring(0, 30) : base.schema();
    this.prefix = stem + "_scratch_" + HexFormat.of().formatHex(random);
  }

  @Override
  public String describe() {
    return "postgres " + base.host() + ":" + base.port() + "/" + base.database() + ", schemas "
        + prefix + "_*";
  }

  @Override
  public synchronized MetadataStore open() {
    String schema = prefix + "_" + (schemas.size() + 1);
    schemas.add(schema);
    return new PostgresMetadataStore(new PostgresConfig(base.host(), base.port(), base.database(),
        base.user(), base.password(), schema, Math.min(base.maxPoolSize(), 4),
        base.connectTimeoutSeconds(), true));
  }

  @Override
  public synchronized void close() {
    if (schemas.isEmpty()) {
      return;
    }
    try (Connection c = DriverManager.getConnection(base.jdbcUrl(), base.user(), base.password());
        Statement st = c.createStatement()) {
      for (String schema : schemas) {
        st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      }
      schemas.clear();
    } catch (SQLException e) {
      throw new ServiceUnavailableException("cannot drop the scratch schemas " + prefix + "_* at "
          + base.host() + ":" + base.port() + "/" + base.database() + ": " + e.getMessage(), e);
    }
  }
}
