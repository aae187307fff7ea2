package io.objectmeta.postgres;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.objectmeta.api.error.BucketAlreadyExistsException;
import io.objectmeta.api.error.BucketNotEmptyException;
import io.objectmeta.api.error.InternalErrorException;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.error.NoSuchUploadException;
import io.objectmeta.api.error.StoreConfigurationException;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbagePage;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.gc.GcQueueStats;
import io.objectmeta.api.listing.Cursor;
import io.objectmeta.api.listing.PagedCursor;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.CompletedPart;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.DeleteResult;
import io.objectmeta.api.model.Json;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectMetadataUpdate;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.model.StoreUsage;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.model.WriteCondition;
import io.objectmeta.api.spi.AbstractMetadataStore;
import io.objectmeta.api.version.VersionId;
import io.objectmeta.api.version.VersionIdGenerator;
import io.objectmeta.api.versioning.BucketRules;
import io.objectmeta.api.versioning.KeyChange;
import io.objectmeta.api.versioning.KeyHistory;
import io.objectmeta.api.versioning.KeyWrites;
import io.objectmeta.api.versioning.MultipartRules;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiFunction;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * The PostgreSQL backend. See this module's README for the data layout and what each operation
 * writes. Every write to a key runs in one READ COMMITTED transaction that holds a share lock on
 * the bucket row (so a bucket cannot change versioning state or be deleted under it) and a
 * transaction-scoped advisory lock on the key (so concurrent first inserts cannot lose an
 * archive record); it reads the key's history, applies the shared rules of
 * {@link KeyWrites}, and writes the difference, the GC records and the usage delta before commit.
 */
public final class PostgresMetadataStore extends AbstractMetadataStore {
  private static final int USAGE_SHARDS = 16;
  private static final com.fasterxml.jackson.databind.ObjectReader LOCATIONS =
      Json.MAPPER.readerFor(new TypeReference<List<DataLocation>>() {});

  private final PostgresConfig config;
  private final HikariDataSource pool;
  private final Jdbi jdbi;
  private final String s;
  private final PostgresSql sql;
  /** The advisory lock GC claimers of this schema take turns on (no bucket is named ""). */
  private final long claimLock;
  private final VersionIdGenerator ids = new VersionIdGenerator();

  /** Test hook: called at named steps inside a write's transaction ("locked", "written"). */
  volatile java.util.function.BiConsumer<String, Connection> hook = (step, c) -> {};

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

  // ------------------------------------------------------------------------------------ buckets

  @Override
  protected Bucket doCreateBucket(String name, String owner, ObjectNode attributes) {
    Bucket b = new Bucket(name, UUID.randomUUID().toString(), owner, now(),
        VersioningState.UNVERSIONED, attributes);
    return tx(h -> {
      if (!insertBucket(h, b)) {
        throw new BucketAlreadyExistsException("bucket: \"" + name + "\" exists");
      }
      return b;
    });
  }

  /**
   * Inserts a bucket row and its usage shards; false (nothing written) if the name, or the id,
   * is taken.
   */
  private boolean insertBucket(Handle h, Bucket b) {
    int n = h.createUpdate("INSERT INTO " + s + ".bucket (id, name, owner, created, versioning,"
            + " attributes) VALUES (:id, :name, :owner, :created, :v, CAST(:attrs AS jsonb))"
            + " ON CONFLICT DO NOTHING")
        .bind("id", UUID.fromString(b.id())).bind("name", b.name()).bind("owner", b.owner())
        .bind("created", Timestamp.from(b.created())).bind("v", (short) b.versioning().ordinal())
        .bind("attrs", json(b.attributes())).execute();
    if (n == 0) {
      return false;
    }
    h.createUpdate("INSERT INTO " + s + ".bucket_usage (bucket_id, shard)"
            + " SELECT :id, g FROM generate_series(0, " + (USAGE_SHARDS - 1) + ") g")
        .bind("id", UUID.fromString(b.id())).execute();
    return true;
  }

  @Override
  protected Bucket doGetBucket(String name) {
    return handle(h -> bucket(h, name, ""));
  }

  @Override
  protected Bucket doUpdateBucket(String name, BucketUpdate update) {
    return tx(h -> {
      Bucket before = bucket(h, name, " FOR UPDATE");
      return update(h, before, BucketRules.apply(before, update));
    });
  }

  /** Writes a change of a (locked) bucket row; enabling versioning starts its history table. */
  private Bucket update(Handle h, Bucket before, Bucket after) {
    if (!before.versioning().versioned() && after.versioning().versioned()) {
      // From now on the history lives in object_version: start it with the null versions.
      h.createUpdate("INSERT INTO " + s + ".object_version (bucket_id, key, version_id, is_null,"
              + " delete_marker, size, meta) SELECT bucket_id, key, version_id, is_null, false, size,"
              + " meta FROM " + s + ".object_live WHERE bucket_id = :id")
          .bind("id", UUID.fromString(before.id())).execute();
    }
    h.createUpdate("UPDATE " + s + ".bucket SET owner = :owner, versioning = :v,"
            + " attributes = CAST(:attrs AS jsonb) WHERE id = :id")
        .bind("owner", after.owner()).bind("v", (short) after.versioning().ordinal())
        .bind("attrs", json(after.attributes())).bind("id", UUID.fromString(after.id()))
        .execute();
    return after;
  }

  @Override
  protected void doDeleteBucket(String name) {
    tx(h -> {
      Bucket b = bucket(h, name, " FOR UPDATE");
      UUID id = UUID.fromString(b.id());
      boolean empty = h.createQuery("SELECT NOT EXISTS (SELECT 1 FROM " + s + ".object_version"
          + " WHERE bucket_id = :id) AND NOT EXISTS (SELECT 1 FROM " + s + ".object_live"
          + " WHERE bucket_id = :id)").bind("id", id).mapTo(Boolean.class).one();
      if (!empty) {
        throw new BucketNotEmptyException("bucket: \"" + name + "\" holds versions or delete markers");
      }
      h.createUpdate("INSERT INTO " + s + ".deleted_object (bucket_id, kind, bucket, key, version_id,"
              + " part_number, size, locations)"
              + " SELECT p.bucket_id, " + GarbageRecord.Kind.PART.ordinal() + ", :name, u.key,"
              + " p.upload_id, p.part_number, p.size, p.locations FROM " + s + ".part p JOIN " + s
              + ".upload u ON u.bucket_id = p.bucket_id AND u.upload_id = p.upload_id"
              + " WHERE p.bucket_id = :id ORDER BY u.key, p.upload_id, p.part_number")
          .bind("id", id).bind("name", name).execute();
      for (String table : List.of("part", "upload", "bucket_usage")) {
        h.execute("DELETE FROM " + s + "." + table + " WHERE bucket_id = ?", id);
      }
      h.execute("DELETE FROM " + s + ".bucket WHERE id = ?", id);
      h.createUpdate("INSERT INTO " + s + ".deleted_bucket (id, name, owner, created)"
              + " VALUES (:id, :name, :owner, :created)")
          .bind("id", id).bind("name", name).bind("owner", b.owner())
          .bind("created", Timestamp.from(b.created())).execute();
      return null;
    });
  }

  @Override
  protected List<Bucket> doListBuckets(String owner, String after, int limit) {
    return handle(h -> h.createQuery("SELECT * FROM " + s + ".bucket WHERE (CAST(:owner AS text) IS NULL"
            + " OR owner = :owner) AND name > :after ORDER BY name LIMIT :limit")
        .bind("owner", owner).bind("after", after == null ? "" : after).bind("limit", limit)
        .map((rs, ctx) -> bucketRow(rs)).list());
  }

  // ------------------------------------------------------------------------------------ objects

  @Override
  protected ObjectVersion doPutObject(String bucket, String key, ObjectMetadata metadata,
      WriteCondition condition) {
    return writeKey(bucket, key, null, (b, hist) ->
        KeyWrites.put(hist, b.versioning(), metadata, condition, ids.next())).subject();
  }

  @Override
  protected ObjectVersion doGetObject(String bucket, String key) {
    List<ObjectVersion> found = jdbc(true, c -> {
      try (NamedSql.Bound q = NamedSql.of(sql.getLatest()).prepare(c)) {
        q.set("name", bucket).set("k", utf8(key));
        return oneBucketRow(q, bucket);
      }
    });
    return KeyWrites.current(new KeyHistory(key, found));
  }

  @Override
  protected ObjectVersion doGetObjectVersion(String bucket, String key, String versionId) {
    boolean isNull = VersionId.NULL.equals(versionId);
    List<ObjectVersion> found = jdbc(true, c -> {
      try (NamedSql.Bound q = NamedSql.of(sql.getVersion()).prepare(c)) {
        q.set("name", bucket).set("k", utf8(key)).set("v", isNull ? null : versionId)
            .set("isnull", isNull);
        return oneBucketRow(q, bucket);
      }
    });
    ObjectVersion v = KeyWrites.version(new KeyHistory(key, found), versionId);
    return v.withLatest(found.get(0).latest());
  }

  /**
   * The rows of a one-statement read that joins the bucket row: one row, with null version
   * columns when the key has none; no row at all when there is no such bucket.
   */
  private static List<ObjectVersion> oneBucketRow(NamedSql.Bound q, String bucket)
      throws SQLException {
    try (ResultSet rs = q.statement().executeQuery()) {
      if (!rs.next()) {
        throw new NoSuchBucketException("bucket: \"" + bucket + "\" does not exist");
      }
      return rs.getBytes("key") == null ? List.of()
          : List.of(versionRow(rs).withLatest(rs.getBoolean("latest")));
    }
  }

  @Override
  protected ObjectVersion doUpdateObjectMetadata(String bucket, String key, String versionId,
      ObjectMetadataUpdate update) {
    return writeKey(bucket, key, versionId, (b, hist) -> KeyWrites.update(hist, versionId, update))
        .subject();
  }

  @Override
  protected DeleteResult doDeleteObject(String bucket, String key) {
    VersioningState[] state = new VersioningState[1];
    KeyChange c = writeKey(bucket, key, null, (b, hist) -> {
      state[0] = b.versioning();
      return KeyWrites.delete(hist, b.versioning(), ids.next());
    });
    return state[0] == VersioningState.UNVERSIONED
        ? new DeleteResult(key, null, false)
        : new DeleteResult(key, c.subject().versionId(), true);
  }

  @Override
  protected DeleteResult doDeleteObjectVersion(String bucket, String key, String versionId) {
    KeyChange c = writeKey(bucket, key, versionId,
        (b, hist) -> KeyWrites.deleteVersion(hist, versionId));
    return new DeleteResult(key, c.subject().versionId(), c.subject().deleteMarker());
  }

  /**
   * One write to one key, in one transaction of three statements on plain JDBC: lock the bucket
   * row (share) and the key (advisory), read what the write needs of the history, write the
   * difference with its GC records and usage delta ({@link PostgresSql}). The rule in between is
   * the shared one of {@link KeyWrites}.
   *
   * @param target the version id the call names (read with the history), or null
   */
  private KeyChange writeKey(String bucket, String key, String target,
      BiFunction<Bucket, KeyHistory, KeyChange> rule) {
    return jdbc(false, c -> {
      Bucket b = lockBucketAndKey(c, bucket, key);
      KeyChange change = rule.apply(b, read(c, b, key, target));
      persist(c, b, change);
      return change;
    });
  }

  private Bucket lockBucketAndKey(Connection c, String bucket, String key) throws SQLException {
    NamedSql q = NamedSql.of(unsafeSkipKeyLock ? sql.lockBucketOnly() : sql.lockBucketAndKey());
    Bucket b;
    try (NamedSql.Bound st = q.prepare(c)) {
      st.set("name", bucket);
      if (!unsafeSkipKeyLock) {
        st.set("lock", PostgresSql.keyHash(bucket, key));
      }
      try (ResultSet rs = st.statement().executeQuery()) {
        if (!rs.next()) {
          throw new NoSuchBucketException("bucket: \"" + bucket + "\" does not exist");
        }
        // Only what a key write needs of the bucket: its incarnation and versioning state.
        b = new Bucket(bucket, rs.getString("id"), "-", Instant.EPOCH,
            VersioningState.values()[rs.getShort("versioning")], null);
      }
    }
    hook.accept("locked", c);
    return b;
  }

  /** What a write needs of the key's history ({@link PostgresSql#readHistory}). */
  private KeyHistory read(Connection c, Bucket b, String key, String target) throws SQLException {
    boolean versioned = b.versioning().versioned();
    try (NamedSql.Bound q = NamedSql.of(sql.readHistory(versioned)).prepare(c)) {
      q.set("b", UUID.fromString(b.id())).set("k", utf8(key));
      if (versioned) {
        q.set("v", target == null || VersionId.NULL.equals(target) ? null : target);
      }
      Map<String, ObjectVersion> rows = new LinkedHashMap<>();
      try (ResultSet rs = q.statement().executeQuery()) {
        while (rs.next()) {
          String id = rs.getString("version_id");
          if (!rows.containsKey(id)) {
            rows.put(id, versionRow(rs));
          }
        }
      }
      return new KeyHistory(key, new ArrayList<>(rows.values()));
    }
  }

  /** Writes the difference a key change makes, its GC records and its usage delta: one statement. */
  private void persist(Connection c, Bucket b, KeyChange change) throws SQLException {
    List<String> del = new ArrayList<>();
    List<ObjectVersion> ins = new ArrayList<>();
    List<ObjectVersion> upd = new ArrayList<>();
    if (b.versioning().versioned()) {
      Map<String, ObjectVersion> old = new HashMap<>();
      for (ObjectVersion v : change.before().versions()) {
        old.put(v.revision().encode(), v);
      }
      for (ObjectVersion v : change.removed()) {
        del.add(v.revision().encode());
      }
      for (ObjectVersion v : change.after().versions()) {
        ObjectVersion was = old.get(v.revision().encode());
        if (was == null) {
          ins.add(v);
        } else if (!java.util.Objects.equals(was.metadata(), v.metadata())) {
          upd.add(v);
        }
      }
    }
    write(c, b, change, del, ins, upd);
    hook.accept("written", c);
  }

  /**
   * The one statement of a key write ({@link PostgresSql#writeKey}): the given version rows, the
   * live row and GC records the change implies, its usage delta; none when nothing changes (an
   * update to the same values).
   */
  private void write(Connection c, Bucket b, KeyChange change, List<String> del,
      List<ObjectVersion> ins, List<ObjectVersion> upd) throws SQLException {
    ObjectVersion oldCurrent = change.before().current();
    ObjectVersion current = change.after().current();
    Boolean live = current == null ? (oldCurrent == null ? null : Boolean.FALSE)
        : (current.equals(oldCurrent) ? null : Boolean.TRUE);
    List<ObjectVersion> garbage = change.garbage();
    Usage d = change.usageDelta();
    boolean usage = !d.equals(Usage.ZERO);
    Map<ObjectVersion, String> json = new java.util.IdentityHashMap<>();
    java.util.function.Function<ObjectVersion, String> meta =
        v -> json.computeIfAbsent(v, PostgresMetadataStore::metaJson);
    if (del.isEmpty() && ins.isEmpty() && upd.isEmpty() && live == null && garbage.isEmpty()
        && !usage) {
      return;
    }
    try (NamedSql.Bound q = NamedSql.of(sql.writeKey(!del.isEmpty(), !ins.isEmpty(), !upd.isEmpty(),
        live, !garbage.isEmpty(), usage)).prepare(c)) {
      q.set("b", UUID.fromString(b.id())).set("k", utf8(change.after().key()));
      if (!del.isEmpty()) {
        q.set("del", del.toArray(new String[0]));
      }
      if (!ins.isEmpty()) {
        q.set("iv", ins.stream().map(v -> v.revision().encode()).toArray(String[]::new))
            .set("in", ins.stream().map(ObjectVersion::nullVersion).toArray(Boolean[]::new))
            .set("idm", ins.stream().map(ObjectVersion::deleteMarker).toArray(Boolean[]::new))
            .set("isz", ins.stream().map(ObjectVersion::size).toArray(Long[]::new))
            .set("im", ins.stream().map(meta).toArray(String[]::new));
      }
      if (!upd.isEmpty()) {
        q.set("uv", upd.stream().map(v -> v.revision().encode()).toArray(String[]::new))
            .set("um", upd.stream().map(meta).toArray(String[]::new));
      }
      if (Boolean.TRUE.equals(live)) {
        q.set("lv", current.revision().encode()).set("ln", current.nullVersion())
            .set("lsz", current.size()).set("lm", meta.apply(current));
      }
      if (!garbage.isEmpty()) {
        q.set("bn", b.name())
            .set("gv", garbage.stream().map(ObjectVersion::versionId).toArray(String[]::new))
            .set("gsz", garbage.stream().map(ObjectVersion::size).toArray(Long[]::new))
            .set("gloc", garbage.stream().map(v -> json(v.metadata().dataLocations()))
                .toArray(String[]::new));
      }
      if (usage) {
        q.set("shard", (short) shard(change.after().key())).set("u1", d.currentObjects())
            .set("u2", d.currentBytes()).set("u3", d.nonCurrentVersions())
            .set("u4", d.nonCurrentBytes()).set("u5", d.deleteMarkers()).set("u6", d.uploads())
            .set("u7", d.partBytes());
      }
      q.statement().executeQuery().close();
    }
  }

  private void addUsage(Handle h, UUID bucketId, int shard, Usage d) {
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

  // ---------------------------------------------------------------------------------- multipart

  @Override
  protected MultipartUpload doInitiateMultipartUpload(String bucket, String key,
      ObjectMetadata metadata) {
    return tx(h -> {
      Bucket b = bucket(h, bucket, " FOR SHARE");
      VersionId id = ids.next();
      MultipartUpload u = new MultipartUpload(key, id.encodeOldestFirst(), id.timestamp(), metadata);
      h.createUpdate("INSERT INTO " + s + ".upload (bucket_id, key, upload_id, initiated, meta)"
              + " VALUES (:b, :k, :u, :at, CAST(:meta AS jsonb))")
          .bind("b", UUID.fromString(b.id())).bind("k", utf8(key)).bind("u", u.uploadId())
          .bind("at", Timestamp.from(u.initiated())).bind("meta", json(metadata)).execute();
      addUsage(h, UUID.fromString(b.id()), shard(key), new Usage(0, 0, 0, 0, 0, 1, 0));
      return u;
    });
  }

  @Override
  protected Part doPutPart(String bucket, String key, String uploadId, Part part) {
    return tx(h -> {
      Bucket b = bucket(h, bucket, " FOR SHARE");
      lockUpload(h, b, key, uploadId);
      UUID bid = UUID.fromString(b.id());
      Part stored = part.withLastModified(now());
      Optional<Part> old = parts(h, bid, uploadId, part.partNumber() - 1, 1).stream()
          .filter(p -> p.partNumber() == part.partNumber()).findFirst();
      h.createUpdate("INSERT INTO " + s + ".part (bucket_id, upload_id, part_number, size, etag,"
              + " last_modified, locations) VALUES (:b, :u, :n, :size, :etag, :at, CAST(:loc AS jsonb))"
              + " ON CONFLICT (bucket_id, upload_id, part_number) DO UPDATE SET size = excluded.size,"
              + " etag = excluded.etag, last_modified = excluded.last_modified,"
              + " locations = excluded.locations")
          .bind("b", bid).bind("u", uploadId).bind("n", part.partNumber()).bind("size", part.size())
          .bind("etag", part.etag()).bind("at", Timestamp.from(stored.lastModified()))
          .bind("loc", json(part.dataLocations())).execute();
      long delta = stored.size();
      if (old.isPresent()) {
        queueParts(h, b, key, uploadId, List.of(old.get()));
        delta -= old.get().size();
      }
      addUsage(h, bid, shard(key), new Usage(0, 0, 0, 0, 0, 0, delta));
      return stored;
    });
  }

  @Override
  protected ObjectVersion doCompleteMultipartUpload(String bucket, String key, String uploadId,
      List<CompletedPart> named) {
    return tx(h -> {
      Bucket b = bucket(h, bucket, " FOR SHARE");
      MultipartUpload u = lockUpload(h, b, key, uploadId);
      h.execute("SELECT pg_advisory_xact_lock(?)", PostgresSql.keyHash(bucket, key));
      UUID bid = UUID.fromString(b.id());
      Map<Integer, Part> stored = new LinkedHashMap<>();
      for (Part p : parts(h, bid, uploadId, 0, Integer.MAX_VALUE)) {
        stored.put(p.partNumber(), p);
      }
      ObjectMetadata m = MultipartRules.complete(u.metadata(), stored, named);
      KeyChange c = withConnection(h, conn -> {
        KeyChange change = KeyWrites.put(read(conn, b, key, null), b.versioning(), m,
            WriteCondition.none(), ids.next());
        persist(conn, b, change);
        return change;
      });
      queueParts(h, b, key, uploadId, MultipartRules.leftOut(stored, named));
      removeUpload(h, b, key, uploadId, stored.values());
      return c.subject();
    });
  }

  @Override
  protected void doAbortMultipartUpload(String bucket, String key, String uploadId) {
    tx(h -> {
      Bucket b = bucket(h, bucket, " FOR SHARE");
      lockUpload(h, b, key, uploadId);
      List<Part> parts = parts(h, UUID.fromString(b.id()), uploadId, 0, Integer.MAX_VALUE);
      queueParts(h, b, key, uploadId, parts);
      removeUpload(h, b, key, uploadId, parts);
      return null;
    });
  }

  @Override
  protected List<Part> doListParts(String bucket, String key, String uploadId, int after, int limit) {
    return tx(h -> {
      Bucket b = bucket(h, bucket, "");
      upload(h, b, key, uploadId, "");
      return parts(h, UUID.fromString(b.id()), uploadId, after, limit);
    });
  }

  private MultipartUpload lockUpload(Handle h, Bucket b, String key, String uploadId) {
    return upload(h, b, key, uploadId, " FOR UPDATE");
  }

  private MultipartUpload upload(Handle h, Bucket b, String key, String uploadId, String lock) {
    return h.createQuery("SELECT key, upload_id, initiated, meta FROM " + s + ".upload"
            + " WHERE bucket_id = :b AND key = :k AND upload_id = :u" + lock)
        .bind("b", UUID.fromString(b.id())).bind("k", utf8(key)).bind("u", uploadId)
        .map((rs, ctx) -> uploadRow(rs)).findOne()
        .orElseThrow(() -> new NoSuchUploadException("uploadId: no upload " + uploadId + " of \""
            + key + "\""));
  }

  private List<Part> parts(Handle h, UUID bucketId, String uploadId, int after, int limit) {
    return h.createQuery("SELECT * FROM " + s + ".part WHERE bucket_id = :b AND upload_id = :u"
            + " AND part_number > :after ORDER BY part_number LIMIT :limit")
        .bind("b", bucketId).bind("u", uploadId).bind("after", after).bind("limit", limit)
        .map((rs, ctx) -> new Part(rs.getInt("part_number"), rs.getLong("size"), rs.getString("etag"),
            rs.getTimestamp("last_modified").toInstant(), locations(rs.getString("locations"))))
        .list();
  }

  private void queueParts(Handle h, Bucket b, String key, String uploadId, Collection<Part> parts) {
    for (Part p : parts) {
      h.createUpdate("INSERT INTO " + s + ".deleted_object (bucket_id, kind, bucket, key, version_id,"
              + " part_number, size, locations) VALUES (:b, :kind, :name, :k, :u, :n, :size,"
              + " CAST(:loc AS jsonb))")
          .bind("b", UUID.fromString(b.id())).bind("kind", (short) GarbageRecord.Kind.PART.ordinal())
          .bind("name", b.name()).bind("k", utf8(key)).bind("u", uploadId)
          .bind("n", p.partNumber()).bind("size", p.size()).bind("loc", json(p.dataLocations()))
          .execute();
    }
  }

  private void removeUpload(Handle h, Bucket b, String key, String uploadId, Collection<Part> parts) {
    UUID bid = UUID.fromString(b.id());
    h.execute("DELETE FROM " + s + ".part WHERE bucket_id = ? AND upload_id = ?", bid, uploadId);
    h.execute("DELETE FROM " + s + ".upload WHERE bucket_id = ? AND key = ? AND upload_id = ?",
        bid, utf8(key), uploadId);
    long partBytes = parts.stream().mapToLong(Part::size).sum();
    addUsage(h, bid, shard(key), new Usage(0, 0, 0, 0, 0, -1, -partBytes));
  }

  // ----------------------------------------------------------------------------------- listings

  @Override
  protected Cursor<ObjectVersion> currentObjects(Bucket bucket) {
    UUID bid = UUID.fromString(bucket.id());
    return new PagedCursor<>(8, 1024) {
      @Override
      protected List<ObjectVersion> fetch(String from, ObjectVersion after, int limit) {
        return handle(h -> h.createQuery("SELECT key, version_id, is_null, false AS delete_marker, meta FROM "
                + s + ".object_live WHERE bucket_id = :b AND key " + (after == null ? ">=" : ">")
                + " :k ORDER BY key LIMIT :limit")
            .bind("b", bid).bind("k", utf8(after == null ? from : after.key())).bind("limit", limit)
            .map((rs, ctx) -> versionRow(rs).withLatest(true)).list());
      }
    };
  }

  @Override
  protected Cursor<ObjectVersion> versions(Bucket bucket) {
    UUID bid = UUID.fromString(bucket.id());
    String from = bucket.versioning().versioned()
        ? "SELECT key, version_id, is_null, delete_marker, meta FROM " + s + ".object_version"
        : "SELECT key, version_id, is_null, false AS delete_marker, meta FROM " + s + ".object_live";
    return new PagedCursor<>(8, 1024) {
      @Override
      protected List<ObjectVersion> fetch(String seek, ObjectVersion after, int limit) {
        return handle(h -> {
          Query q = h.createQuery(from + " WHERE bucket_id = :b AND "
              + (after == null ? "key >= :k" : "(key, version_id) > (:k, :v)")
              + " ORDER BY key, version_id LIMIT :limit")
              .bind("b", bid).bind("k", utf8(after == null ? seek : after.key()))
              .bind("limit", limit);
          if (after != null) {
            q.bind("v", after.revision().encode());
          }
          return q.map((rs, ctx) -> versionRow(rs)).list();
        });
      }
    };
  }

  @Override
  protected Cursor<MultipartUpload> uploads(Bucket bucket) {
    UUID bid = UUID.fromString(bucket.id());
    return new PagedCursor<>(8, 1024) {
      @Override
      protected List<MultipartUpload> fetch(String from, MultipartUpload after, int limit) {
        return handle(h -> {
          Query q = h.createQuery("SELECT key, upload_id, initiated, meta FROM " + s + ".upload"
              + " WHERE bucket_id = :b AND "
              + (after == null ? "key >= :k" : "(key, upload_id) > (:k, :u)")
              + " ORDER BY key, upload_id LIMIT :limit")
              .bind("b", bid).bind("k", utf8(after == null ? from : after.key()))
              .bind("limit", limit);
          if (after != null) {
            q.bind("u", after.uploadId());
          }
          return q.map((rs, ctx) -> uploadRow(rs)).list();
        });
      }
    };
  }

  // ------------------------------------------------------------------------------------ restore

  @Override
  protected Bucket doRestoreBucket(Bucket given) {
    Bucket b = new Bucket(given.name(), given.id(), given.owner(), micros(given.created()),
        given.versioning(), given.attributes());
    return tx(h -> {
      Optional<Bucket> existing = findBucket(h, b.name(), " FOR UPDATE");
      if (existing.isEmpty()) {
        if (insertBucket(h, b)) {
          return b;
        }
        // a concurrent restore of the same name, or an id another bucket holds
        existing = findBucket(h, b.name(), " FOR UPDATE");
        if (existing.isEmpty()) {
          throw new BucketAlreadyExistsException("bucket.id: " + b.id() + " is the id of another"
              + " bucket");
        }
      }
      return update(h, existing.get(), BucketRules.restore(existing.get(), b));
    });
  }

  /**
   * One transaction, as a write's: lock the bucket and the key, read the key's whole history,
   * apply the shared rule; if the history differs, delete all of it and write the restored one
   * with the live row and usage delta (no GC records).
   */
  @Override
  protected void doRestoreKey(String bucket, String key, List<ObjectVersion> versions) {
    jdbc(false, c -> {
      Bucket b = lockBucketAndKey(c, bucket, key);
      boolean versioned = b.versioning().versioned();
      List<ObjectVersion> rows = new ArrayList<>();
      try (NamedSql.Bound q = NamedSql.of(sql.readWholeHistory(versioned)).prepare(c)) {
        q.set("b", UUID.fromString(b.id())).set("k", utf8(key));
        try (ResultSet rs = q.statement().executeQuery()) {
          while (rs.next()) {
            rows.add(versionRow(rs));
          }
        }
      }
      KeyChange change = KeyWrites.restore(new KeyHistory(key, rows), b.versioning(), versions);
      if (change.after().equals(change.before())) {
        return null; // restored before: a resumed copy redoing its last batch
      }
      if (versioned && !rows.isEmpty()) {
        try (NamedSql.Bound q = NamedSql.of(sql.deleteKeyHistory()).prepare(c)) {
          q.set("b", UUID.fromString(b.id())).set("k", utf8(key)).statement().executeUpdate();
        }
      }
      write(c, b, change, List.of(), versioned ? change.after().versions() : List.of(), List.of());
      return null;
    });
  }

  @Override
  protected void doRestoreUpload(String bucket, MultipartUpload upload, List<Part> parts) {
    tx(h -> {
      Bucket b = bucket(h, bucket, " FOR SHARE");
      UUID bid = UUID.fromString(b.id());
      String key = upload.key();
      h.execute("SELECT pg_advisory_xact_lock(?)", PostgresSql.keyHash(bucket, key));
      Usage delta = uploadUsage(parts);
      boolean exists = h.createQuery("SELECT 1 FROM " + s + ".upload WHERE bucket_id = :b"
              + " AND key = :k AND upload_id = :u FOR UPDATE")
          .bind("b", bid).bind("k", utf8(key)).bind("u", upload.uploadId()).mapTo(Integer.class)
          .findOne().isPresent();
      if (exists) {
        List<Part> old = parts(h, bid, upload.uploadId(), 0, Integer.MAX_VALUE);
        delta = delta.minus(uploadUsage(old));
        h.execute("DELETE FROM " + s + ".part WHERE bucket_id = ? AND upload_id = ?", bid,
            upload.uploadId());
        h.execute("DELETE FROM " + s + ".upload WHERE bucket_id = ? AND key = ? AND upload_id = ?",
            bid, utf8(key), upload.uploadId());
      }
      h.createUpdate("INSERT INTO " + s + ".upload (bucket_id, key, upload_id, initiated, meta)"
              + " VALUES (:b, :k, :u, :at, CAST(:meta AS jsonb))")
          .bind("b", bid).bind("k", utf8(key)).bind("u", upload.uploadId())
          .bind("at", Timestamp.from(micros(upload.initiated()))).bind("meta", json(upload.metadata()))
          .execute();
      if (!parts.isEmpty()) {
        org.jdbi.v3.core.statement.PreparedBatch batch = h.prepareBatch("INSERT INTO " + s
            + ".part (bucket_id, upload_id, part_number, size, etag, last_modified, locations)"
            + " VALUES (:b, :u, :n, :size, :etag, :at, CAST(:loc AS jsonb))");
        for (Part p : parts) {
          batch.bind("b", bid).bind("u", upload.uploadId()).bind("n", p.partNumber())
              .bind("size", p.size()).bind("etag", p.etag())
              .bind("at", Timestamp.from(micros(p.lastModified())))
              .bind("loc", json(p.dataLocations())).add();
        }
        batch.execute();
      }
      addUsage(h, bid, shard(key), delta);
      return null;
    });
  }

  private static Usage uploadUsage(Collection<Part> parts) {
    return new Usage(0, 0, 0, 0, 0, 1, parts.stream().mapToLong(Part::size).sum());
  }

  /**
   * Two index scans in queue order, merged: object and part records by (deleted_at, id), then
   * deleted-bucket records of the same time by id. The cursor is the last record's place:
   * {@code o:<deleted_at µs>:<id>} or {@code b:<deleted_at µs>:<bucket id>}.
   */
  @Override
  protected GarbagePage doListGarbage(String after, int limit) {
    GarbageCursor from = after == null ? null : GarbageCursor.parse(after);
    return jdbc(true, c -> {
      List<GarbageRecord> objects = new ArrayList<>();
      try (NamedSql.Bound q = NamedSql.of(sql.listObjectGarbage(from == null,
          from != null && from.bucket())).prepare(c)) {
        bindGarbageCursor(q, from, from == null || from.bucket() ? null : Long.parseLong(from.id()));
        q.set("limit", limit + 1);
        try (ResultSet rs = q.statement().executeQuery()) {
          ObjectGarbageColumns cols = null;
          while (rs.next()) {
            cols = cols == null ? new ObjectGarbageColumns(rs) : cols;
            objects.add(cols.read(rs));
          }
        }
      }
      List<GarbageRecord> buckets = new ArrayList<>();
      try (NamedSql.Bound q = NamedSql.of(sql.listBucketGarbage(from == null,
          from != null && !from.bucket())).prepare(c)) {
        bindGarbageCursor(q, from, from != null && from.bucket() ? UUID.fromString(from.id()) : null);
        q.set("limit", limit + 1);
        try (ResultSet rs = q.statement().executeQuery()) {
          while (rs.next()) {
            buckets.add(bucketGarbage(rs));
          }
        }
      }
      List<GarbageRecord> page = new ArrayList<>(Math.min(limit, objects.size() + buckets.size()));
      int o = 0;
      int k = 0;
      while (page.size() < limit && (o < objects.size() || k < buckets.size())) {
        boolean object = k == buckets.size() || (o < objects.size()
            && !objects.get(o).deletedAt().isAfter(buckets.get(k).deletedAt()));
        page.add(object ? objects.get(o++) : buckets.get(k++));
      }
      boolean more = o < objects.size() || k < buckets.size();
      return new GarbagePage(page, more, more ? GarbageCursor.of(page.get(page.size() - 1)).encode() : null);
    });
  }

  private static void bindGarbageCursor(NamedSql.Bound q, GarbageCursor from, Object id)
      throws SQLException {
    if (from != null) {
      q.set("at", Timestamp.from(from.deletedAt()));
      if (id != null) {
        q.set("id", id);
      }
    }
  }

  /**
   * A place in the queue order of {@link #doListGarbage}: the last record's queue time, table
   * and id there (a sequence number, or a deleted bucket's id).
   */
  private record GarbageCursor(boolean bucket, Instant deletedAt, String id) {
    static GarbageCursor of(GarbageRecord r) {
      boolean bucket = r.kind() == GarbageRecord.Kind.BUCKET;
      return new GarbageCursor(bucket, r.deletedAt(),
          bucket ? r.bucketId() : r.id().substring(r.id().lastIndexOf(':') + 1));
    }

    String encode() {
      long micros = deletedAt.getEpochSecond() * 1_000_000L + deletedAt.getNano() / 1000;
      return (bucket ? "b:" : "o:") + micros + ":" + id;
    }

    static GarbageCursor parse(String cursor) {
      String[] p = cursor.split(":", 3);
      try {
        if (p.length == 3 && (p[0].equals("o") || p[0].equals("b"))) {
          long micros = Long.parseLong(p[1]);
          boolean bucket = p[0].equals("b");
          String id = bucket ? UUID.fromString(p[2]).toString() : Long.toString(Long.parseLong(p[2]));
          return new GarbageCursor(bucket, Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
              Math.floorMod(micros, 1_000_000L) * 1000), id);
        }
      } catch (IllegalArgumentException e) {
        // not a cursor of ours: as below
      }
      throw new io.objectmeta.api.error.InvalidArgumentException("after", "not a cursor this store"
          + " returned: \"" + cursor + "\"");
    }
  }

  @Override
  protected int doRestoreGarbage(List<GarbageRecord> records) {
    List<GarbageRecord> objects = new ArrayList<>();
    List<GarbageRecord> buckets = new ArrayList<>();
    for (GarbageRecord r : records) {
      (r.kind() == GarbageRecord.Kind.BUCKET ? buckets : objects).add(r);
    }
    return jdbc(true, c -> {
      try (NamedSql.Bound q = NamedSql.of(sql.restoreGarbage()).prepare(c)) {
        q.set("ob", objects.stream().map(r -> UUID.fromString(r.bucketId())).toArray(UUID[]::new))
            .set("okind", objects.stream().map(r -> (long) r.kind().ordinal()).toArray(Long[]::new))
            .set("obn", objects.stream().map(GarbageRecord::bucket).toArray(String[]::new))
            .set("ok", objects.stream().map(r -> java.util.HexFormat.of().formatHex(utf8(r.key())))
                .toArray(String[]::new))
            .set("ov", objects.stream().map(GarbageRecord::versionId).toArray(String[]::new))
            .set("opn", objects.stream().map(r -> (long) r.partNumber()).toArray(Long[]::new))
            .set("osz", objects.stream().map(GarbageRecord::size).toArray(Long[]::new))
            .set("oloc", objects.stream().map(r -> json(r.dataLocations())).toArray(String[]::new))
            .set("oat", objects.stream().map(r -> micros(r.deletedAt()).toString())
                .toArray(String[]::new))
            .set("oorigin", objects.stream().map(GarbageRecord::id).toArray(String[]::new))
            .set("bid", buckets.stream().map(r -> UUID.fromString(r.bucketId())).toArray(UUID[]::new))
            .set("bn", buckets.stream().map(GarbageRecord::bucket).toArray(String[]::new))
            .set("bat", buckets.stream().map(r -> micros(r.deletedAt()).toString())
                .toArray(String[]::new))
            .set("borigin", buckets.stream().map(GarbageRecord::id).toArray(String[]::new));
        try (ResultSet rs = q.statement().executeQuery()) {
          rs.next();
          return rs.getInt("n");
        }
      }
    });
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

  private static final String USAGE_SUM = "SELECT coalesce(sum(current_objects), 0) a,"
      + " coalesce(sum(current_bytes), 0) b, coalesce(sum(noncurrent_versions), 0) c,"
      + " coalesce(sum(noncurrent_bytes), 0) d, coalesce(sum(delete_markers), 0) e,"
      + " coalesce(sum(uploads), 0) f, coalesce(sum(part_bytes), 0) g";

  private static Usage usageRow(ResultSet rs) throws SQLException {
    return new Usage(rs.getLong("a"), rs.getLong("b"), rs.getLong("c"), rs.getLong("d"),
        rs.getLong("e"), rs.getLong("f"), rs.getLong("g"));
  }

  // ----------------------------------------------------------------------------------- GC queue

  @Override
  protected GarbageClaim doClaimGarbage(int max, Duration gracePeriod, Duration lease) {
    UUID claim = UUID.randomUUID();
    double grace = seconds(gracePeriod);
    double hold = seconds(lease);
    // One transaction, claimers taking turns: drop expired leases, claim objects, and let
    // deleted-bucket records fill what is left of the batch.
    return jdbc(false, c -> {
      try (NamedSql.Bound q = NamedSql.of(sql.lockClaims()).prepare(c)) {
        q.set("lock", claimLock).statement().execute();
      }
      try (java.sql.Statement st = c.createStatement()) {
        st.executeUpdate(sql.dropExpiredLeases());
      }
      List<GarbageRecord> out = new ArrayList<>(max);
      Instant until = null;
      try (NamedSql.Bound q = NamedSql.of(sql.claimObjects()).prepare(c)) {
        q.set("claim", claim).set("grace", grace).set("lease", hold).set("max", max);
        try (ResultSet rs = q.statement().executeQuery()) {
          ObjectGarbageColumns cols = null;
          while (rs.next()) {
            if (cols == null) {
              cols = new ObjectGarbageColumns(rs);
              until = rs.getTimestamp("lease_until").toInstant();
            }
            out.add(cols.read(rs));
          }
        }
      }
      if (out.size() < max) {
        try (NamedSql.Bound q = NamedSql.of(sql.claimBuckets()).prepare(c)) {
          q.set("claim", claim).set("grace", grace).set("lease", hold).set("max", max - out.size());
          try (ResultSet rs = q.statement().executeQuery()) {
            while (rs.next()) {
              out.add(bucketGarbage(rs));
              if (until == null) {
                until = rs.getTimestamp("lease_until").toInstant();
              }
            }
          }
        }
      }
      out.sort(java.util.Comparator.comparing(GarbageRecord::deletedAt));
      return new GarbageClaim(claim.toString(), until == null ? Instant.now().plus(lease) : until, out);
    });
  }

  /** A deleted_bucket row as a GC record. */
  private static GarbageRecord bucketGarbage(ResultSet rs) throws SQLException {
    return new GarbageRecord("b:" + rs.getString("id"), GarbageRecord.Kind.BUCKET,
        rs.getString("name"), rs.getString("id"), null, null, 0, 0, List.of(),
        rs.getTimestamp("deleted_at").toInstant());
  }

  /** Reads deleted_object rows (claimed or listed), its columns found once per result. */
  private static final class ObjectGarbageColumns {
    private final int bucketId;
    private final int id;
    private final int kind;
    private final int bucket;
    private final int key;
    private final int versionId;
    private final int partNumber;
    private final int size;
    private final int locations;
    private final int deletedAt;

    ObjectGarbageColumns(ResultSet rs) throws SQLException {
      bucketId = rs.findColumn("bucket_id");
      id = rs.findColumn("id");
      kind = rs.findColumn("kind");
      bucket = rs.findColumn("bucket");
      key = rs.findColumn("key");
      versionId = rs.findColumn("version_id");
      partNumber = rs.findColumn("part_number");
      size = rs.findColumn("size");
      locations = rs.findColumn("locations");
      deletedAt = rs.findColumn("deleted_at");
    }

    GarbageRecord read(ResultSet rs) throws SQLException {
      String b = rs.getString(bucketId);
      return new GarbageRecord("o:" + b + ":" + rs.getLong(id),
          GarbageRecord.Kind.values()[rs.getShort(kind)], rs.getString(bucket), b,
          new String(rs.getBytes(key), StandardCharsets.UTF_8), rs.getString(versionId),
          rs.getInt(partNumber), rs.getLong(size), locations(rs.getString(locations)),
          rs.getTimestamp(deletedAt).toInstant());
    }
  }

  @Override
  protected int doAcknowledgeGarbage(String claimId, Collection<String> recordIds) {
    return settle(claimId, recordIds, false);
  }

  @Override
  protected int doReleaseGarbage(String claimId, Collection<String> recordIds) {
    return settle(claimId, recordIds, true);
  }

  @Override
  protected int doRenewGarbage(String claimId, Collection<String> recordIds, Duration lease) {
    UUID claim = claimUuid(claimId);
    ClaimedIds ids = ClaimedIds.of(recordIds);
    if (claim == null || ids == null) {
      return 0;
    }
    return jdbc(true, c -> {
      try (NamedSql.Bound q = NamedSql.of(sql.renewClaim()).prepare(c)) {
        q.set("claim", claim).set("lease", seconds(lease)).set("oids", ids.objects())
            .set("bids", ids.buckets());
        try (ResultSet rs = q.statement().executeQuery()) {
          return rs.next() ? rs.getInt("n") : 0;
        }
      }
    });
  }

  private static UUID claimUuid(String claimId) {
    try {
      return UUID.fromString(claimId);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Record ids of this store, parsed: object sequence numbers and deleted-bucket ids, sorted. */
  private record ClaimedIds(long[] objects, UUID[] buckets) {
    /** Null when none of the ids is one of this store's. */
    static ClaimedIds of(Collection<String> recordIds) {
      long[] objectIds = new long[recordIds.size()];
      int objects = 0;
      // uuid order in PostgreSQL is unsigned byte order: that of the canonical lower-case text
      java.util.TreeMap<String, UUID> buckets = new java.util.TreeMap<>();
      for (String id : recordIds) {
        // "o:<bucket id>:<seq>" (the seq alone identifies it) or "b:<bucket id>"; anything else
        // is not a record of this store and is ignored, as the contract says.
        try {
          if (id.length() == 38 && id.startsWith("b:")) {
            UUID b = UUID.fromString(id.substring(2));
            buckets.put(b.toString(), b);
          } else if (id.length() > 39 && id.startsWith("o:") && id.charAt(38) == ':'
              && id.charAt(10) == '-' && id.charAt(15) == '-' && id.charAt(20) == '-'
              && id.charAt(25) == '-') {
            objectIds[objects++] = Long.parseLong(id, 39, id.length(), 10);
          }
        } catch (IllegalArgumentException e) {
          // as above
        }
      }
      if (objects == 0 && buckets.isEmpty()) {
        return null;
      }
      return new ClaimedIds(java.util.Arrays.stream(objectIds, 0, objects).sorted().distinct().toArray(),
          buckets.values().toArray(new UUID[0]));
    }
  }

  /**
   * Acknowledges or releases the named records of one claim. The usual call names the whole
   * batch: one statement that deletes the lease row (and, acknowledging, its records).
   * Otherwise one transaction settles the named part and drops the row if it is left empty.
   */
  private int settle(String claimId, Collection<String> recordIds, boolean release) {
    UUID claim = claimUuid(claimId);
    ClaimedIds ids = ClaimedIds.of(recordIds);
    if (claim == null || ids == null) {
      return 0;
    }
    long[] oids = ids.objects();
    UUID[] bids = ids.buckets();
    Integer whole = jdbc(true, c -> {
      try (NamedSql.Bound q = NamedSql.of(sql.settleWholeClaim(release)).prepare(c)) {
        q.set("claim", claim).set("oids", oids).set("bids", bids);
        try (ResultSet rs = q.statement().executeQuery()) {
          rs.next();
          return rs.getInt("matched") == 1 ? rs.getInt("n") : null;
        }
      }
    });
    if (whole != null) {
      return whole;
    }
    return jdbc(false, c -> {
      int n;
      try (NamedSql.Bound q = NamedSql.of(sql.settlePartOfClaim(release)).prepare(c)) {
        q.set("claim", claim).set("oids", oids).set("bids", bids);
        try (ResultSet rs = q.statement().executeQuery()) {
          rs.next();
          n = rs.getInt("n");
        }
      }
      try (NamedSql.Bound q = NamedSql.of(sql.dropEmptyLease()).prepare(c)) {
        q.set("claim", claim).statement().executeUpdate();
      }
      return n;
    });
  }

  @Override
  public GcQueueStats gcQueueStats() {
    return jdbc(true, c -> {
      try (java.sql.Statement st = c.createStatement();
          ResultSet rs = st.executeQuery(sql.gcQueueStats())) {
        rs.next();
        return new GcQueueStats(rs.getLong("n"), rs.getLong("leased"),
            rs.getTimestamp("oldest") == null ? null : rs.getTimestamp("oldest").toInstant(),
            rs.getLong("bytes"));
      }
    });
  }

  // ------------------------------------------------------------------------------------ helpers

  /** Work on a plain JDBC connection. */
  @FunctionalInterface
  private interface SqlWork<T> {
    T run(Connection c) throws SQLException;
  }

  /**
   * Runs the hot paths on a plain JDBC connection from the pool (Jdbi's per-statement setup cost
   * more than the statements): in autocommit, or as one transaction. Faults are typed by
   * PostgresErrors; contract errors pass through after a rollback.
   */
  private <T> T jdbc(boolean autocommit, SqlWork<T> work) {
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

  private static <T> T withConnection(Handle h, SqlWork<T> work) {
    try {
      return work.run(h.getConnection());
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void rollbackQuietly(Connection c) {
    try {
      c.rollback();
    } catch (SQLException ignored) {
      // the connection is broken; the pool discards it
    }
  }

  /** Runs outside a transaction (autocommit); database faults are typed by PostgresErrors. */
  private <T> T handle(HandleCallback<T, RuntimeException> body) {
    return guarded(() -> jdbi.withHandle(body));
  }

  /** Runs in one transaction; database faults are typed by PostgresErrors. */
  private <T> T tx(HandleCallback<T, RuntimeException> body) {
    return guarded(() -> jdbi.inTransaction(body));
  }

  private <T> T guarded(java.util.function.Supplier<T> call) {
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

  private MetadataException translate(RuntimeException e) {
    return PostgresErrors.translate("PostgreSQL at " + config.host() + ":" + config.port() + "/"
        + config.database() + " (schema " + s + ")", e);
  }

  private Bucket bucket(Handle h, String name, String lock) {
    return findBucket(h, name, lock)
        .orElseThrow(() -> new NoSuchBucketException("bucket: \"" + name + "\" does not exist"));
  }

  private Optional<Bucket> findBucket(Handle h, String name, String lock) {
    return h.createQuery("SELECT * FROM " + s + ".bucket WHERE name = :name" + lock)
        .bind("name", name).map((rs, ctx) -> bucketRow(rs)).findOne();
  }

  private static Bucket bucketRow(ResultSet rs) throws SQLException {
    return new Bucket(rs.getString("name"), rs.getString("id"), rs.getString("owner"),
        rs.getTimestamp("created").toInstant(), VersioningState.values()[rs.getShort("versioning")],
        Json.object(rs.getString("attributes")));
  }

  private static ObjectVersion versionRow(ResultSet rs) throws SQLException {
    boolean dm = rs.getBoolean("delete_marker");
    String meta = rs.getString("meta");
    return new ObjectVersion(new String(rs.getBytes("key"), StandardCharsets.UTF_8),
        VersionId.decode(rs.getString("version_id"), "version_id"), rs.getBoolean("is_null"), dm,
        false, dm ? null : read(meta, ObjectMetadata.class));
  }

  private static MultipartUpload uploadRow(ResultSet rs) throws SQLException {
    return new MultipartUpload(new String(rs.getBytes("key"), StandardCharsets.UTF_8),
        rs.getString("upload_id"), rs.getTimestamp("initiated").toInstant(),
        read(rs.getString("meta"), ObjectMetadata.class));
  }

  private static String metaJson(ObjectVersion v) {
    return v.deleteMarker() ? null : json(v.metadata());
  }

  private static String json(Object o) {
    try {
      return Json.MAPPER.writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static <T> T read(String json, Class<T> type) {
    try {
      return Json.MAPPER.readValue(json, type);
    } catch (JsonProcessingException e) {
      throw new InternalErrorException("corrupt record: " + e.getOriginalMessage());
    }
  }

  private static List<DataLocation> locations(String json) {
    try {
      return LOCATIONS.readValue(json);
    } catch (JsonProcessingException e) {
      throw new InternalErrorException("corrupt record: " + e.getOriginalMessage());
    }
  }

  /** The time as PostgreSQL stores it (microseconds), so what a call returns equals what a read returns. */
  private static Instant now() {
    return micros(Instant.now());
  }

  /** A time as PostgreSQL keeps it: finer digits dropped (PostgreSQL would round them). */
  private static Instant micros(Instant t) {
    return t.truncatedTo(java.time.temporal.ChronoUnit.MICROS);
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }

  private static byte[] utf8(String key) {
    return key.getBytes(StandardCharsets.UTF_8);
  }

  private static int shard(String key) {
    return Math.floorMod(key.hashCode(), USAGE_SHARDS);
  }


}
