package io.objectmeta.bench;

import com.zaxxer.hikari.HikariDataSource;
import io.objectmeta.api.model.Json;
import io.objectmeta.api.version.VersionIdGenerator;
import io.objectmeta.postgres.PostgresConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The limit of the concurrency workloads on PostgreSQL: the "minimal design", the fewest
 * statements that store the same rows in the backend's own tables — a put is one autocommit
 * statement that resolves the bucket by name, inserts the version row and upserts the live row;
 * a delete marker inserts the marker and deletes the live row; a get and a listing page are one
 * statement each — over the same driver and a HikariCP pool of the store's size. No usage
 * counters, no per-key serialization, no history read: what any design must at least do. The
 * metadata JSON is serialized once, before the run. {@link #pgbench} runs the same SQL with
 * PostgreSQL's own load generator, where it is installed.
 */
final class PgMinimal implements BenchTarget.Limit {
  private final PostgresConfig config;
  private final HikariDataSource pool;
  private final String s;
  private final VersionIdGenerator ids = new VersionIdGenerator();
  private final String[] metas = new String[64];

  PgMinimal(PostgresConfig config) {
    this.config = config;
    this.s = config.schema();
    this.pool = new HikariDataSource(config.poolConfig("bench-minimal")); // the store's settings
    for (int i = 0; i < metas.length; i++) {
      try {
        metas[i] = Json.MAPPER.writeValueAsString(Bench.meta("concurrency/" + i, 1000 + i));
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** The put: bucket by name, version row, live row, in one statement. */
  String put() {
    return "WITH b AS (SELECT id FROM " + s + ".bucket WHERE name = ?),"
        + " v AS (INSERT INTO " + s + ".object_version (bucket_id, key, version_id, is_null,"
        + " delete_marker, size, meta) SELECT b.id, ?, ?, false, false, ?, CAST(? AS jsonb) FROM b)"
        + " INSERT INTO " + s + ".object_live (bucket_id, key, version_id, is_null, size, meta)"
        + " SELECT b.id, ?, ?, false, ?, CAST(? AS jsonb) FROM b ON CONFLICT (bucket_id, key)"
        + " DO UPDATE SET version_id = excluded.version_id, is_null = excluded.is_null,"
        + " size = excluded.size, meta = excluded.meta";
  }

  /** The delete marker: bucket by name, marker row, live row gone, in one statement. */
  String deleteMarker() {
    return "WITH b AS (SELECT id FROM " + s + ".bucket WHERE name = ?),"
        + " v AS (INSERT INTO " + s + ".object_version (bucket_id, key, version_id, is_null,"
        + " delete_marker, size, meta) SELECT b.id, ?, ?, false, true, 0, NULL FROM b)"
        + " DELETE FROM " + s + ".object_live l USING b WHERE l.bucket_id = b.id AND l.key = ?";
  }

  /** A get: bucket by name and the key's newest version (or the named one). */
  String get(boolean byVersion) {
    return "SELECT b.id, v.key, v.version_id, v.is_null, v.delete_marker, v.size, v.meta FROM "
        + s + ".bucket b JOIN LATERAL (SELECT * FROM " + s + ".object_version o"
        + " WHERE o.bucket_id = b.id AND o.key = ?"
        + (byVersion ? " AND o.version_id = ?" : " ORDER BY o.version_id LIMIT 1")
        + ") v ON true WHERE b.name = ?";
  }

  /** A listing's first page of 100: the live rows in key order, one more to know it is truncated. */
  String list() {
    return "SELECT key, version_id, is_null, size, meta FROM " + s + ".object_live"
        + " WHERE bucket_id = (SELECT id FROM " + s + ".bucket WHERE name = ?)"
        + " AND key >= ? ORDER BY key LIMIT 101";
  }

  @Override
  public void op(Concurrency.Kind k, Concurrency.Fixture f, int thread, long i,
      ThreadLocalRandom r) throws SQLException {
    try (Connection c = pool.getConnection()) {
      switch (k) {
        case PUT_ONE_BUCKET, PUT_16_BUCKETS, PUT_HOT_KEYS -> {
          byte[] key = utf8(k == Concurrency.Kind.PUT_HOT_KEYS
              ? Concurrency.Fixture.hotKey(r.nextInt(16)) : Concurrency.Fixture.newKey(thread, i));
          String v = ids.next().encode();
          String meta = metas[(int) (i & 63)];
          long size = 1000 + (i & 63);
          try (PreparedStatement ps = c.prepareStatement(put())) {
            ps.setString(1, f.bucket(k, i));
            ps.setBytes(2, key);
            ps.setString(3, v);
            ps.setLong(4, size);
            ps.setString(5, meta);
            ps.setBytes(6, key);
            ps.setString(7, v);
            ps.setLong(8, size);
            ps.setString(9, meta);
            ps.executeUpdate();
          }
        }
        case DELETE_MARKER -> {
          byte[] key = utf8(Concurrency.Fixture.newKey(thread, i));
          try (PreparedStatement ps = c.prepareStatement(deleteMarker())) {
            ps.setString(1, f.bucket(k));
            ps.setBytes(2, key);
            ps.setString(3, ids.next().encode());
            ps.setBytes(4, key);
            ps.executeUpdate();
          }
        }
        case GET_LATEST, GET_VERSION -> {
          int n = r.nextInt(f.getKeys());
          boolean byVersion = k == Concurrency.Kind.GET_VERSION;
          try (PreparedStatement ps = c.prepareStatement(get(byVersion))) {
            ps.setBytes(1, utf8(Concurrency.Fixture.getKey(n)));
            if (byVersion) {
              ps.setString(2, f.olderVersionIds()[n]);
            }
            ps.setString(byVersion ? 3 : 2, f.bucket(k));
            read(ps, 7);
          }
        }
        case LIST_PAGE -> {
          try (PreparedStatement ps = c.prepareStatement(list())) {
            ps.setString(1, f.bucket(k));
            ps.setBytes(2, new byte[0]);
            read(ps, 5);
          }
        }
      }
    }
  }

  private static void read(PreparedStatement ps, int columns) throws SQLException {
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        for (int col = 1; col <= columns; col++) {
          rs.getString(col);
        }
      }
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  // ------------------------------------------------------------------------------------ pgbench

  private static final Pattern TPS =
      Pattern.compile("tps = ([0-9.]+) \\(without initial connection time\\)");

  /**
   * pgbench ({@code -M prepared}, one connection per client, up to 2 worker threads) running the
   * minimal design's put, get and listing with literal buckets and random keys, for
   * {@code seconds} (whole seconds, at least 1); empty when pgbench is not installed or the
   * workload has no script here.
   */
  @Override
  public OptionalDouble pgbench(Concurrency.Kind k, Concurrency.Fixture f, int threads,
      double seconds) {
    String script = script(k, f);
    Path bin = pgbenchBinary();
    if (script == null || bin == null) {
      return OptionalDouble.empty();
    }
    try {
      Path file = Files.createTempFile("objectmeta-pgbench", ".sql");
      try {
        Files.writeString(file, script);
        List<String> cmd = new ArrayList<>(List.of(bin.toString(), "-n", "-M", "prepared",
            "-c", String.valueOf(threads), "-j", String.valueOf(Math.min(threads, 2)),
            "-T", String.valueOf(Math.max(1, Math.round(seconds))), "-f", file.toString(),
            "-h", config.host(), "-p", String.valueOf(config.port()), "-U", config.user(),
            config.database()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (config.password() != null) {
          pb.environment().put("PGPASSWORD", config.password());
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(Math.round(seconds) + 60, TimeUnit.SECONDS) || p.exitValue() != 0) {
          System.err.println("pgbench failed: " + out.lines().reduce((a, b) -> b).orElse(""));
          return OptionalDouble.empty();
        }
        Matcher m = TPS.matcher(out);
        return m.find() ? OptionalDouble.of(Double.parseDouble(m.group(1)))
            : OptionalDouble.empty();
      } finally {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      return OptionalDouble.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return OptionalDouble.empty();
    }
  }

  /** The pgbench script of a workload: the same statements, keys drawn by pgbench. */
  String script(Concurrency.Kind k, Concurrency.Fixture f) {
    // the JSON as base64: pgbench would read its colons as variables
    String meta = "convert_from(decode('" + java.util.Base64.getEncoder().encodeToString(
        metas[0].getBytes(StandardCharsets.UTF_8)) + "', 'base64'), 'UTF8')::jsonb";
    return switch (k) {
      case PUT_ONE_BUCKET -> "WITH b AS (SELECT id, convert_to('pgb/' || :client_id || '/'"
          + " || random(), 'UTF8') AS k, gen_random_uuid()::text AS v FROM " + s + ".bucket"
          + " WHERE name = '" + f.bucket(k) + "'), x AS (INSERT INTO " + s + ".object_version"
          + " (bucket_id, key, version_id, is_null, delete_marker, size, meta) SELECT id, k, v,"
          + " false, false, 1000, " + meta + " FROM b) INSERT INTO " + s + ".object_live"
          + " (bucket_id, key, version_id, is_null, size, meta) SELECT id, k, v, false, 1000, "
          + meta + " FROM b ON CONFLICT (bucket_id, key) DO UPDATE SET"
          + " version_id = excluded.version_id, is_null = excluded.is_null, size = excluded.size,"
          + " meta = excluded.meta;\n";
      case GET_LATEST -> "\\set n random(0, " + (f.getKeys() - 1) + ")\n"
          + "SELECT b.id, v.key, v.version_id, v.is_null, v.delete_marker, v.size, v.meta FROM "
          + s + ".bucket b JOIN LATERAL (SELECT * FROM " + s + ".object_version o"
          + " WHERE o.bucket_id = b.id AND o.key = convert_to('get/' || lpad(:n::text, 6, '0'),"
          + " 'UTF8') ORDER BY o.version_id LIMIT 1) v ON true WHERE b.name = '" + f.bucket(k)
          + "';\n";
      case LIST_PAGE -> list().replace("name = ?", "name = '" + f.bucket(k) + "'")
          .replace("key >= ?", "key >= ''::bytea") + ";\n";
      default -> null;
    };
  }

  /** pgbench on the PATH or in Debian's PostgreSQL packages (the newest), or null. */
  static Path pgbenchBinary() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path p = Path.of(dir.isEmpty() ? "." : dir, "pgbench");
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    try (var dirs = Files.list(Path.of("/usr/lib/postgresql"))) {
      return dirs.map(d -> d.resolve("bin/pgbench")).filter(Files::isExecutable)
          .max(Comparator.comparing(p -> String.format(Locale.ROOT, "%10s",
              p.getParent().getParent().getFileName()))).orElse(null);
    } catch (IOException e) {
      return null;
    }
  }

  @Override
  public void close() {
    pool.close();
  }
}
