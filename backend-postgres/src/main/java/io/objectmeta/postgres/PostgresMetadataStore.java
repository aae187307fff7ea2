package io.objectmeta.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.error.StoreConfigurationException;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.StoreUsage;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.version.VersionIdGenerator;
import io.objectmeta.api.versioning.KeyWrites;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * The PostgreSQL backend. See this module's README for the data layout and what each operation
 * writes. Every write to a key runs in one READ COMMITTED transaction that holds a share lock on
 * the bucket row (so a bucket cannot change versioning state or be deleted under it) and a
 * transaction-scoped advisory lock on the key (so concurrent first inserts cannot lose an
 * archive record); it reads the key's history, applies the shared rules of
 * {@link KeyWrites}, and writes the difference, the GC records and the usage delta before commit.
 */
public final class PostgresMetadataStore extends io.objectmeta.api.spi.ComposedMetadataStore {
  static final int USAGE_SHARDS = 16;

  final PostgresConfig config;
  final HikariDataSource pool;
  final String s;
  final PostgresSql sql;
  /** The advisory lock GC claimers of this schema take turns on (no bucket is named ""). */
  final long claimLock;
  final VersionIdGenerator ids = new VersionIdGenerator();

  /** Test hook: called at named steps inside a write's transaction ("locked", "written"). */
  volatile java.util.function.BiConsumer<String, Connection> hook = (step, c) -> {};
  final PostgresBuckets buckets = new PostgresBuckets(this);
  final PostgresKeys keys = new PostgresKeys(this);
  final PostgresUploads uploads = new PostgresUploads(this);
  final PostgresScans scans = new PostgresScans(this);
  final PostgresGcQueue queue = new PostgresGcQueue(this);

  /** Test switch: leave out the per-key lock, to prove the tests catch the race it prevents. */
  volatile boolean unsafeSkipKeyLock;

  public PostgresMetadataStore(PostgresConfig config) {
    parts(buckets, keys, uploads, scans, queue);
    this.config = config;
    this.s = config.schema();
    this.sql = new PostgresSql(s);
    this.claimLock = PostgresSql.keyHash("", "gc-claims:" + s);
    HikariConfig hc = config.poolConfig("objectmeta-" + s);
    try {
      this.pool = new HikariDataSource(hc);
    } catch (RuntimeException e) {
      throw PostgresErrors.translate("cannot reach PostgreSQL at " + config.host() + ":"
          + config.port() + "/" + config.database(), e);
    }
    try {
      if (config.migrate()) {
        jdbc(false, c -> Migrations.migrate(c, s));
      } else {
        int at = jdbc(true, c -> Migrations.current(c, s));
        Migrations.refuseNewer(at, s);
        if (at < Migrations.latest()) {
          throw new StoreConfigurationException("schema \"" + s + "\" is at version " + at
              + (at == 0 ? " (not there)" : "") + ", this objectmeta needs " + Migrations.latest()
              + "; open it with migrate=true to run the migration", null);
        }
      }
    } catch (RuntimeException e) {
      pool.close();
      throw translate(e);
    }
  }

  public PostgresConfig config() {
    return config;
  }

  @Override
  public void close() {
    pool.close();
  }

  void addUsage(Connection c, UUID bucketId, int shard, Usage d) throws SQLException {
    if (d.equals(Usage.ZERO)) {
      return;
    }
    try (NamedSql.Bound q = prepare(c, sql.addUsage())) {
      q.set("a", d.currentObjects()).set("b", d.currentBytes()).set("c", d.nonCurrentVersions())
          .set("d", d.nonCurrentBytes()).set("e", d.deleteMarkers()).set("f", d.uploads())
          .set("g", d.partBytes()).set("id", bucketId).set("shard", (short) shard).update();
    }
  }

  // --------------------------------------------------------------------------------- management

  @Override
  public UUID getUUID() {
    return jdbc(false, c -> {
      try (NamedSql.Bound q = prepare(c, sql.initUuid())) {
        q.set("u", UUID.randomUUID()).update();
      }
      try (NamedSql.Bound q = prepare(c, sql.readUuid())) {
        return q.first(rs -> rs.getObject(1, UUID.class)).orElseThrow();
      }
    });
  }

  @Override
  protected Usage doBucketUsage(String bucket) {
    return jdbc(true, c -> {
      Bucket b = bucket(c, bucket, PostgresSql.Lock.NONE);
      try (NamedSql.Bound q = prepare(c, sql.bucketUsage())) {
        return q.set("b", UUID.fromString(b.id())).first(PostgresRows::usage).orElseThrow();
      }
    });
  }

  @Override
  public StoreUsage usage() {
    return jdbc(true, c -> {
      try (NamedSql.Bound q = prepare(c, sql.storeUsage())) {
        return q.first(rs -> new StoreUsage(rs.getLong("n"), PostgresRows.usage(rs))).orElseThrow();
      }
    });
  }

  // ------------------------------------------------------------------------------------ helpers

  /** Work on a plain JDBC connection. */
  @FunctionalInterface
  interface SqlWork<T> {
    T run(Connection c) throws SQLException;
  }

  /**
   * Runs a call on a plain JDBC connection from the pool, the backend's one data-access path
   * (Jdbi's per-statement setup cost more than the statements on the hot paths, so the backend
   * binds {@link PostgresSql}'s named statements itself, through {@link NamedSql}): in
   * autocommit, or as one transaction. Faults are typed by PostgresErrors; contract errors pass
   * through after a rollback.
   */
  <T> T jdbc(boolean autocommit, SqlWork<T> work) {
    try (Connection c = pool.getConnection()) {
      if (autocommit) {
        return work.run(c);
      }
      c.setAutoCommit(false);
      try {
        T result = work.run(c);
        c.commit();
        return result;
      } catch (SQLException | RuntimeException e) {
        rollbackQuietly(c);
        throw e;
      }
    } catch (MetadataException e) {
      throw e;
    } catch (SQLException | RuntimeException e) {
      throw translate(e instanceof RuntimeException r ? r : new IllegalStateException(e));
    }
  }

  static void rollbackQuietly(Connection c) {
    try {
      c.rollback();
    } catch (SQLException ignored) {
      // the connection is broken; the pool discards it
    }
  }

  /** A statement of {@link PostgresSql} on {@code c}, to bind by name. */
  NamedSql.Bound prepare(Connection c, String named) throws SQLException {
    return NamedSql.of(named).prepare(c);
  }

  /** A driver failure that reached the contract's calls untyped (from a listing's cursor, say). */
  @Override
  protected MetadataException fault(RuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SQLException) {
        return translate(e);
      }
    }
    return null;
  }

  MetadataException translate(RuntimeException e) {
    return PostgresErrors.translate("PostgreSQL at " + config.host() + ":" + config.port() + "/"
        + config.database() + " (schema " + s + ")", e);
  }

  Bucket bucket(Connection c, String name, PostgresSql.Lock lock) throws SQLException {
    return findBucket(c, name, lock).orElseThrow(() -> NoSuchBucketException.of(name));
  }

  Optional<Bucket> findBucket(Connection c, String name, PostgresSql.Lock lock)
      throws SQLException {
    try (NamedSql.Bound q = prepare(c, sql.findBucket(lock))) {
      q.set("name", name);
      if (lock != PostgresSql.Lock.NONE) {
        if (lock == PostgresSql.Lock.SHARE) {
          q.set("blk", PostgresSql.bucketLock(name, usageShard()));
        } else {
          q.set("blks", PostgresSql.bucketLocks(name));
        }
      }
      return q.first(PostgresRows::bucket);
    }
  }

  /** The time as PostgreSQL stores it (microseconds), so what a call returns equals what a read returns. */
  static Instant now() {
    return micros(Instant.now());
  }

  /** A time as PostgreSQL keeps it: finer digits dropped (PostgreSQL would round them). */
  static Instant micros(Instant t) {
    return t.truncatedTo(java.time.temporal.ChronoUnit.MICROS);
  }

  static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }

  static byte[] utf8(String key) {
    return key.getBytes(StandardCharsets.UTF_8);
  }

  private static final java.util.concurrent.atomic.AtomicInteger NEXT_SHARD =
      new java.util.concurrent.atomic.AtomicInteger();
  private static final ThreadLocal<Integer> SHARD =
      ThreadLocal.withInitial(() -> Math.floorMod(NEXT_SHARD.getAndIncrement(), USAGE_SHARDS));

  /**
   * The usage shard this thread's writes add to (and the part of a bucket's lock it takes). A bucket's usage is the sum of its shards, so
   * any shard will do; a shard per thread, dealt round-robin, keeps concurrent writers of one
   * bucket off each other's shard row (held until commit) up to {@value #USAGE_SHARDS} threads,
   * where a hash of the key made them collide by chance, and a transaction adds to one shard only
   * (no lock-order deadlock between two).
   */
  int usageShard() {
    return SHARD.get();
  }

}
