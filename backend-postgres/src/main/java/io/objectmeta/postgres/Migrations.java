package io.objectmeta.postgres;

import io.objectmeta.api.error.InternalErrorException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Versioned schema migrations: numbered SQL files applied in order, each in its own transaction
 * with its version recorded, under an advisory lock so concurrent openers apply each once.
 * Running them again is a no-op. A schema newer than this code knows is refused.
 */
final class Migrations {
  private Migrations() {}

  /** The migration files, in order; the version of each is its position (1-based). */
  static final List<String> FILES = List.of("V001__initial.sql", "V002__gc_claims.sql",
      "V003__gc_leases.sql", "V004__restores.sql", "V005__null_version_index.sql");

  static int latest() {
    return FILES.size();
  }

  /** The schema's version (0: not created). */
  static int current(Connection c, String schema) throws SQLException {
    try (NamedSql.Bound q = NamedSql.of(PostgresSql.tableExists()).prepare(c)) {
      if (!q.set("t", schema + ".schema_version").first(rs -> rs.getBoolean(1)).orElse(false)) {
        return 0;
      }
    }
    return version(c, schema);
  }

  private static int version(Connection c, String schema) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT coalesce(max(version), 0) FROM " + schema
            + ".schema_version")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /** Applies what is missing, in the caller's transaction; returns the schema version after. */
  static int migrate(Connection c, String schema) throws SQLException {
    try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))")) {
      lock.setString(1, "objectmeta-migrate:" + schema);
      lock.execute();
    }
    try (Statement st = c.createStatement()) {
      st.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
      st.execute("CREATE TABLE IF NOT EXISTS " + schema + ".schema_version ("
          + "version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
    }
    int at = version(c, schema);
    refuseNewer(at, schema);
    for (int v = at + 1; v <= latest(); v++) {
      try (Statement st = c.createStatement()) {
        // one script of several statements: the simple query protocol runs them in order
        st.execute(read(FILES.get(v - 1)).replace("{schema}", schema));
      }
      try (PreparedStatement ins = c.prepareStatement("INSERT INTO " + schema
          + ".schema_version (version) VALUES (?)")) {
        ins.setInt(1, v);
        ins.executeUpdate();
      }
    }
    return latest();
  }

  static void refuseNewer(int at, String schema) {
    if (at > latest()) {
      throw new InternalErrorException("schema \"" + schema + "\" is at version " + at
          + ", newer than this objectmeta knows (" + latest() + "); upgrade objectmeta");
    }
  }

  private static String read(String file) {
    try (InputStream in = Migrations.class.getResourceAsStream("migrations/" + file)) {
      if (in == null) {
        throw new IllegalStateException("missing migration " + file);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
