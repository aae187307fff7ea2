package io.objectmeta.postgres;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.objectmeta.api.error.InternalErrorException;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.error.StoreConfigurationException;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.Json;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.StoreUsage;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.version.VersionId;
import io.objectmeta.api.version.VersionIdGenerator;
import io.objectmeta.api.versioning.KeyWrites;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;

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
  static final com.fasterxml.jackson.databind.ObjectReader LOCATIONS =
      Json.MAPPER.readerFor(new TypeReference<List<DataLocation>>() {});

  final PostgresConfig config;
  final HikariDataSource pool;
  final Jdbi jdbi;
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
    this.config = config;
    this.s = config.schema();
    this.sql = new PostgresSql(s);
    this.claimLock = PostgresSql.keyHash("", "gc-claims:" + s);
    HikariConfig hc = new HikariConfig();
    hc.setJdbcUrl(config.jdbcUrl());
    hc.setUsername(config.user());
    if (config.password() != null) {
      hc.setPassword(config.password());
    }
    hc.setMaximumPoolSize(config.maxPoolSize());
    hc.setConnectionTimeout(config.connectTimeoutSeconds() * 1000L);
    hc.setInitializationFailTimeout(config.connectTimeoutSeconds() * 1000L);
    hc.addDataSourceProperty("reWriteBatchedInserts", "true");
    config.driverProperties().forEach((k, v) -> hc.addDataSourceProperty((String) k, v));
    hc.setPoolName("objectmeta-" + s);
    try {
      this.pool = new HikariDataSource(hc);
    } catch (RuntimeException e) {
      throw PostgresErrors.translate("cannot reach PostgreSQL at " + config.host() + ":"
          + config.port() + "/" + config.database(), e);
    }
    this.jdbi = Jdbi.create(pool);
    try {
      if (config.migrate()) {
        Migrations.migrate(jdbi, s);
      } else {
        int at = Migrations.current(jdbi, s);
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

  void addUsage(Handle h, UUID bucketId, int shard, Usage d) {
    if (d.equals(Usage.ZERO)) {
      return;
    }
    h.createUpdate("UPDATE " + s + ".bucket_usage SET current_objects = current_objects + :a,"
            + " current_bytes = current_bytes + :b, noncurrent_versions = noncurrent_versions + :c,"
            + " noncurrent_bytes = noncurrent_bytes + :d, delete_markers = delete_markers + :e,"
            + " uploads = uploads + :f, part_bytes = part_bytes + :g"
            + " WHERE bucket_id = :id AND shard = :shard")
        .bind("a", d.currentObjects()).bind("b", d.currentBytes()).bind("c", d.nonCurrentVersions())
        .bind("d", d.nonCurrentBytes()).bind("e", d.deleteMarkers()).bind("f", d.uploads())
        .bind("g", d.partBytes()).bind("id", bucketId).bind("shard", (short) shard).execute();
  }

  // --------------------------------------------------------------------------------- management

  @Override
  public UUID getUUID() {
    return tx(h -> {
      h.createUpdate("INSERT INTO " + s + ".store_info (id, uuid) VALUES (1, :u) ON CONFLICT (id) DO NOTHING")
          .bind("u", UUID.randomUUID()).execute();
      return h.createQuery("SELECT uuid FROM " + s + ".store_info WHERE id = 1").mapTo(UUID.class).one();
    });
  }

  @Override
  protected Usage doBucketUsage(String bucket) {
    return tx(h -> {
      Bucket b = bucket(h, bucket, "");
      return h.createQuery(USAGE_SUM + " FROM " + s + ".bucket_usage WHERE bucket_id = :b")
          .bind("b", UUID.fromString(b.id())).map((rs, ctx) -> usageRow(rs)).one();
    });
  }

  @Override
  public StoreUsage usage() {
    return tx(h -> {
      long buckets = h.createQuery("SELECT count(*) FROM " + s + ".bucket").mapTo(Long.class).one();
      Usage total = h.createQuery(USAGE_SUM + " FROM " + s + ".bucket_usage")
          .map((rs, ctx) -> usageRow(rs)).one();
      return new StoreUsage(buckets, total);
    });
  }

  static final String USAGE_SUM = "SELECT coalesce(sum(current_objects), 0) a,"
      + " coalesce(sum(current_bytes), 0) b, coalesce(sum(noncurrent_versions), 0) c,"
      + " coalesce(sum(noncurrent_bytes), 0) d, coalesce(sum(delete_markers), 0) e,"
      + " coalesce(sum(uploads), 0) f, coalesce(sum(part_bytes), 0) g";

  static Usage usageRow(ResultSet rs) throws SQLException {
    return new Usage(rs.getLong("a"), rs.getLong("b"), rs.getLong("c"), rs.getLong("d"),
        rs.getLong("e"), rs.getLong("f"), rs.getLong("g"));
  }

  // ------------------------------------------------------------------------------------ helpers

  /** Work on a plain JDBC connection. */
  @FunctionalInterface
  interface SqlWork<T> {
    T run(Connection c) throws SQLException;
  }

  /**
   * Runs the hot paths on a plain JDBC connection from the pool (Jdbi's per-statement setup cost
   * more than the statements): in autocommit, or as one transaction. Faults are typed by
   * PostgresErrors; contract errors pass through after a rollback.
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

  static <T> T withConnection(Handle h, SqlWork<T> work) {
    try {
      return work.run(h.getConnection());
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  static void rollbackQuietly(Connection c) {
    try {
      c.rollback();
    } catch (SQLException ignored) {
      // the connection is broken; the pool discards it
    }
  }

  /** Runs outside a transaction (autocommit); database faults are typed by PostgresErrors. */
  <T> T handle(HandleCallback<T, RuntimeException> body) {
    return guarded(() -> jdbi.withHandle(body));
  }

  /** Runs in one transaction; database faults are typed by PostgresErrors. */
  <T> T tx(HandleCallback<T, RuntimeException> body) {
    return guarded(() -> jdbi.inTransaction(body));
  }

  <T> T guarded(java.util.function.Supplier<T> call) {
    try {
      return call.get();
    } catch (MetadataException e) {
      throw e;
    } catch (RuntimeException e) {
      throw translate(e);
    }
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

  Bucket bucket(Handle h, String name, String lock) {
    return findBucket(h, name, lock)
        .orElseThrow(() -> NoSuchBucketException.of(name));
  }

  Optional<Bucket> findBucket(Handle h, String name, String lock) {
    return h.createQuery("SELECT * FROM " + s + ".bucket WHERE name = :name" + lock)
        .bind("name", name).map((rs, ctx) -> bucketRow(rs)).findOne();
  }

  static Bucket bucketRow(ResultSet rs) throws SQLException {
    return new Bucket(rs.getString("name"), rs.getString("id"), rs.getString("owner"),
        rs.getTimestamp("created").toInstant(), VersioningState.values()[rs.getShort("versioning")],
        Json.object(rs.getString("attributes")));
  }

  static ObjectVersion versionRow(ResultSet rs) throws SQLException {
    boolean dm = rs.getBoolean("delete_marker");
    String meta = rs.getString("meta");
    return new ObjectVersion(new String(rs.getBytes("key"), StandardCharsets.UTF_8),
        VersionId.decode(rs.getString("version_id"), "version_id"), rs.getBoolean("is_null"), dm,
        false, dm ? null : read(meta, ObjectMetadata.class));
  }

  static MultipartUpload uploadRow(ResultSet rs) throws SQLException {
    return new MultipartUpload(new String(rs.getBytes("key"), StandardCharsets.UTF_8),
        rs.getString("upload_id"), rs.getTimestamp("initiated").toInstant(),
        read(rs.getString("meta"), ObjectMetadata.class));
  }

  static String metaJson(ObjectVersion v) {
    return v.deleteMarker() ? null : json(v.metadata());
  }

  static String json(Object o) {
    try {
      return Json.MAPPER.writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static <T> T read(String json, Class<T> type) {
    try {
      return Json.MAPPER.readValue(json, type);
    } catch (JsonProcessingException e) {
      throw new InternalErrorException("corrupt record: " + e.getOriginalMessage());
    }
  }

  static List<DataLocation> locations(String json) {
    try {
      return LOCATIONS.readValue(json);
    } catch (JsonProcessingException e) {
      throw new InternalErrorException("corrupt record: " + e.getOriginalMessage());
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

  static int shard(String key) {
    return Math.floorMod(key.hashCode(), USAGE_SHARDS);
  }

  // ------------------------------------- the parts that the SPI's calls are handed to

  @Override
  protected Buckets buckets() {
    return buckets;
  }

  @Override
  protected Keys keys() {
    return keys;
  }

  @Override
  protected Uploads multipart() {
    return uploads;
  }

  @Override
  protected Scans scans() {
    return scans;
  }

  @Override
  protected GcQueue gcQueue() {
    return queue;
  }

}
