package io.objectmeta.postgres;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.spi.SweepingScratchSpace;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Scratch stores on a live PostgreSQL: each {@link #open()} creates a schema
 * {@code <base>_scratch_<run>_<n>} (the base being the URI's schema) with the full migrations.
 * A live run holds a session advisory lock of its own. Closing drops every schema of the run; a
 * run that could not (killed: the server let go of its lock with its session) is dropped by the
 * next one ({@link SweepingScratchSpace}). The URI's own schema is never touched.
 */
final class PostgresScratchSpace extends SweepingScratchSpace {
  private final PostgresConfig base;
  private final String stem;
  private final Pattern names;
  /** Holds this run's advisory lock while it lives. */
  private Connection holder;

  PostgresScratchSpace(PostgresConfig base) {
    this.base = base;
    String schema = base.schema().length() > 30 ? base.schema().substring(0, 30) : base.schema();
    this.stem = schema + "_scratch_";
    this.names = Pattern.compile(Pattern.quote(stem) + "(" + RUN_ID.pattern() + ")_\\d+");
  }

  @Override
  public String describe() {
    return "postgres " + base.host() + ":" + base.port() + "/" + base.database() + ", schemas "
        + stem + run() + "_*";
  }

  @Override
  protected MetadataStore openNamespace(int n) {
    return new PostgresMetadataStore(base.withSchema(stem + run() + "_" + n,
        Math.min(base.maxPoolSize(), 4)));
  }

  /** Every scratch schema of this base, with the run it belongs to. */
  private List<String[]> schemas(Connection c) throws SQLException {
    List<String[]> found = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT nspname FROM pg_namespace WHERE starts_with(nspname, ?)")) {
      ps.setString(1, stem);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Matcher m = names.matcher(rs.getString(1));
          if (m.matches()) {
            found.add(new String[] {m.group(1), m.group(0)});
          }
        }
      }
    }
    return found;
  }

  @Override
  protected Set<String> runs() {
    return call(c -> {
      Set<String> runs = new TreeSet<>();
      for (String[] s : schemas(c)) {
        runs.add(s[0]);
      }
      return runs;
    });
  }

  /** The advisory lock a live run holds, per run: the server lets go of it when the run dies. */
  private long lockOf(String run) {
    return PostgresSql.keyHash("", "scratch-run:" + stem + run);
  }

  @Override
  protected void begin() {
    try {
      holder = base.connect();
      try (PreparedStatement ps = holder.prepareStatement("SELECT pg_advisory_lock(?)")) {
        ps.setLong(1, lockOf(run()));
        ps.execute();
      }
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  @Override
  protected boolean abandoned(String run) {
    return call(c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
        ps.setLong(1, lockOf(run));
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          return rs.getBoolean(1); // the connection's close lets go of it
        }
      }
    });
  }

  @Override
  protected void end() {
    try {
      holder.close();
    } catch (SQLException e) {
      // closing gives the lock up either way: the server ends the session
    }
  }

  @Override
  protected void remove(String run) {
    call(c -> {
      try (Statement st = c.createStatement()) {
        for (String[] schema : schemas(c)) {
          if (schema[0].equals(run)) {
            st.execute("DROP SCHEMA IF EXISTS " + schema[1] + " CASCADE");
          }
        }
      }
      return null;
    });
  }

  private interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  private <T> T call(Work<T> work) {
    try (Connection c = base.connect()) {
      return work.run(c);
    } catch (SQLException e) {
      throw unavailable(e);
    }
  }

  private MetadataException unavailable(SQLException e) {
    return PostgresErrors.translate("scratch schemas " + stem + "* at " + base.host() + ":"
        + base.port() + "/" + base.database(), e);
  }
}
