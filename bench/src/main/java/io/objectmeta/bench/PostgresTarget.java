package io.objectmeta.bench;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.postgres.PostgresConfig;
import io.objectmeta.postgres.PostgresMetadataStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The PostgreSQL backend: {@code --pgUrl}, else {@code OBJECTMETA_PG_URL}, else an embedded
 * PostgreSQL 17 (zonky) started for the run. Each store gets a new schema; the raw baseline is
 * {@link PgBaseline} on its own plain connection to the same database.
 */
public final class PostgresTarget implements BenchTarget {
  private static final AtomicInteger SCHEMAS = new AtomicInteger();

  private final String url;
  private final EmbeddedPostgres embedded;
  private final int gcBatch;
  private String version = "";
  private Connection stats;

  private PostgresTarget(String url, EmbeddedPostgres embedded, int gcBatch) {
    this.url = url;
    this.embedded = embedded;
    this.gcBatch = gcBatch;
  }

  public static PostgresTarget create(BenchConfig c) {
    String url = c.pgUrl().isBlank() ? System.getenv("OBJECTMETA_PG_URL") : c.pgUrl();
    if (url != null && !url.isBlank()) {
      return new PostgresTarget(url, null, c.gcBatch());
    }
    try {
      EmbeddedPostgres pg = EmbeddedPostgres.builder()
          .setServerConfig("max_connections", "100")
          .setServerConfig("shared_preload_libraries", "pg_stat_statements")
          .setServerConfig("pg_stat_statements.max", "1000")
          .start();
      return new PostgresTarget("postgres://postgres@localhost:" + pg.getPort() + "/postgres", pg,
          c.gcBatch());
    } catch (IOException e) {
      throw new IllegalStateException("no PostgreSQL for the bench: --pgUrl and OBJECTMETA_PG_URL"
          + " are not set and the embedded PostgreSQL (zonky) failed to start: " + e.getMessage(), e);
    }
  }

  @Override
  public String name() {
    return "postgres";
  }

  @Override
  public String describe() {
    return version + (embedded != null ? " (embedded, zonky)" : " at " + url.replaceAll(":[^:@/]*@", ":***@"));
  }

  @Override
  public MetadataStore openStore() {
    return open(Map.of("maxPoolSize", "8"));
  }

  /** The backend's default pool unless {@code pool} is positive. */
  @Override
  public MetadataStore openConcurrentStore(int pool) {
    return open(pool > 0 ? Map.of("maxPoolSize", String.valueOf(pool)) : Map.of());
  }

  @Override
  public Limit limit(MetadataStore store) {
    return new PgMinimal(((PostgresMetadataStore) store).config());
  }

  private MetadataStore open(Map<String, String> options) {
    String schema = "bench_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
    Map<String, String> o = new java.util.HashMap<>(options);
    o.put("schema", schema);
    PostgresMetadataStore s = new PostgresMetadataStore(PostgresConfig.from(URI.create(url), o));
    try (Connection c = connect(s); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SHOW server_version")) {
      rs.next();
      version = "PostgreSQL " + rs.getString(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    try {
      if (stats == null) {
        stats = connect(s);
        try (Statement st = stats.createStatement()) {
          st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
          st.executeQuery("SELECT count(*) FROM pg_stat_statements").close();
        }
      }
    } catch (SQLException e) {
      stats = null; // not preloaded on this server: no statement counts
    }
    return s;
  }

  @Override
  public Baseline baseline(MetadataStore store) {
    try {
      return new PgBaseline(connect(store), schema(store), gcBatch);
    } catch (SQLException e) {
      throw new IllegalStateException("baseline connection: " + e.getMessage(), e);
    }
  }

  /** Inserts {@code n} records like the ones an overwrite queues, an hour old, in one statement. */
  @Override
  public void fillGarbage(MetadataStore store, String bucket, int n) {
    String s = schema(store);
    try (Connection c = connect(store); PreparedStatement ps = c.prepareStatement("INSERT INTO "
        + s + ".deleted_object (bucket_id, kind, bucket, key, version_id, size, locations,"
        + " deleted_at) SELECT b.id, 0, b.name, convert_to('gc/' || g, 'UTF8'), 'null', 1000,"
        + " jsonb_build_array(jsonb_build_object('store', 'blob', 'key', 'data/gc/' || g,"
        + " 'offset', 0, 'size', 1000)), now() - interval '1 hour' + g * interval '1 microsecond'"
        + " FROM " + s + ".bucket b, generate_series(1, ?) g WHERE b.name = ?")) {
      ps.setInt(1, n);
      ps.setString(2, bucket);
      ps.executeUpdate();
      try (Statement st = c.createStatement()) {
        st.execute("ANALYZE " + s + ".deleted_object");
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void clearGarbage(MetadataStore store) {
    String s = schema(store);
    try (Connection c = connect(store); Statement st = c.createStatement()) {
      st.execute("DELETE FROM " + s + ".deleted_object");
      st.execute("DELETE FROM " + s + ".gc_lease");
      st.execute("VACUUM " + s + ".deleted_object");
      st.execute("VACUUM " + s + ".gc_lease");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String schema(MetadataStore store) {
    return ((PostgresMetadataStore) store).config().schema();
  }

  private static Connection connect(MetadataStore store) throws SQLException {
    PostgresConfig pc = ((PostgresMetadataStore) store).config();
    Properties p = new Properties();
    p.setProperty("user", pc.user());
    if (pc.password() != null) {
      p.setProperty("password", pc.password());
    }
    return DriverManager.getConnection(pc.jdbcUrl(), p);
  }

  @Override
  public boolean resetStatementCounts() {
    if (stats == null) {
      return false;
    }
    try (Statement st = stats.createStatement()) {
      st.executeQuery("SELECT pg_stat_statements_reset()").close();
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  /** The postgres processes' CPU time from /proc (a server on this machine; Linux). */
  @Override
  public long serverCpuNanos() {
    java.nio.file.Path proc = java.nio.file.Path.of("/proc");
    if (!java.nio.file.Files.isDirectory(proc) || !(url.contains("@localhost") || url.contains("@127.0.0.1")
        || url.contains("//localhost") || url.contains("//127.0.0.1"))) {
      return -1;
    }
    long ticks = 0;
    try (var dirs = java.nio.file.Files.list(proc)) {
      for (java.nio.file.Path d : (Iterable<java.nio.file.Path>) dirs::iterator) {
        if (!d.getFileName().toString().chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          String stat = java.nio.file.Files.readString(d.resolve("stat"));
          int close = stat.lastIndexOf(')');
          if (!stat.substring(stat.indexOf('(') + 1, close).startsWith("postgres")) {
            continue;
          }
          String[] f = stat.substring(close + 2).split(" ");
          ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime
        } catch (IOException | RuntimeException gone) {
          // the process ended
        }
      }
    } catch (IOException e) {
      return -1;
    }
    return ticks * 10_000_000L; // USER_HZ = 100
  }

  @Override
  public double statementsPerOp(long ops) {
    if (stats == null || ops == 0) {
      return Double.NaN;
    }
    try (Statement st = stats.createStatement(); ResultSet rs = st.executeQuery("SELECT"
        + " coalesce(sum(calls), 0) FROM pg_stat_statements"
        + " WHERE query NOT LIKE '%pg_stat_statements%'")) {
      rs.next();
      return rs.getLong(1) / (double) ops;
    } catch (SQLException e) {
      return Double.NaN;
    }
  }

  /**
   * Counts the Sync messages pgjdbc sends on this thread while {@code work} runs: each ends a
   * round trip (the driver waits for the server's ReadyForQuery before it sends more).
   */
  @Override
  public long roundTrips(Runnable work) {
    java.util.logging.Logger l =
        java.util.logging.Logger.getLogger("org.postgresql.core.v3.QueryExecutorImpl");
    Thread me = Thread.currentThread();
    java.util.concurrent.atomic.AtomicLong syncs = new java.util.concurrent.atomic.AtomicLong();
    java.util.logging.Handler h = new java.util.logging.Handler() {
      @Override
      public void publish(java.util.logging.LogRecord r) {
        if (Thread.currentThread() == me && "FE=> Sync".equals(String.valueOf(r.getMessage()).trim())) {
          syncs.incrementAndGet();
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    java.util.logging.Level level = l.getLevel();
    boolean parents = l.getUseParentHandlers();
    l.setLevel(java.util.logging.Level.FINEST);
    l.setUseParentHandlers(false);
    l.addHandler(h);
    try {
      work.run();
    } finally {
      l.removeHandler(h);
      l.setUseParentHandlers(parents);
      l.setLevel(level);
    }
    return syncs.get();
  }

  @Override
  public String statementCounts(long ops) {
    if (stats == null) {
      return null;
    }
    StringBuilder b = new StringBuilder();
    try (Statement st = stats.createStatement(); ResultSet rs = st.executeQuery("SELECT calls,"
        + " total_exec_time, regexp_replace(query, '\\s+', ' ', 'g') FROM pg_stat_statements"
        + " WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY calls DESC, query LIMIT 12")) {
      while (rs.next()) {
        String q = rs.getString(3).replaceAll("bench_[0-9]+_[0-9]+\\.", "");
        b.append(String.format(java.util.Locale.ROOT, "%9.3f calls/op %7d calls %8.3f ms/call  %s%n",
            rs.getLong(1) / (double) ops, rs.getLong(1), rs.getDouble(2) / Math.max(1, rs.getLong(1)),
            q.length() > 150 ? q.substring(0, 150) + "…" : q));
      }
    } catch (SQLException e) {
      return "statement counts unavailable: " + e.getMessage();
    }
    return b.toString();
  }

  @Override
  public void close() {
    if (stats != null) {
      try {
        stats.close();
      } catch (SQLException ignored) {
        // ending
      }
    }
    if (embedded != null) {
      try {
        embedded.close();
      } catch (IOException ignored) {
        // ending
      }
    }
  }
}
