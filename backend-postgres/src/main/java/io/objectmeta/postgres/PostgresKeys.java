package io.objectmeta.postgres;

import static io.objectmeta.postgres.PostgresMetadataStore.utf8;

import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.DeleteResult;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectMetadataUpdate;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.model.WriteCondition;
import io.objectmeta.api.version.VersionId;
import io.objectmeta.api.versioning.KeyChange;
import io.objectmeta.api.versioning.KeyHistory;
import io.objectmeta.api.versioning.KeyWrites;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiFunction;

/**
 * Object versions on PostgreSQL: one transaction of two round trips per write on plain JDBC:
 * the bucket locked shared and the key locked (advisory) and the history read; the change planned
 * by {@link io.objectmeta.api.versioning.KeyWrites} written as one statement with its GC records
 * and usage delta, and the commit ({@link #write}: this is where a delete marker or a null
 * version gets written).
 */
final class PostgresKeys implements io.objectmeta.api.spi.ComposedMetadataStore.Keys {
  private final PostgresMetadataStore store;

  PostgresKeys(PostgresMetadataStore store) {
    this.store = store;
  }

  // ------------------------------------------------------------------------------------ objects

  @Override
  public ObjectVersion doPutObject(String bucket, String key, ObjectMetadata metadata,
      WriteCondition condition) {
    return writeKey(bucket, key, null, (b, hist) ->
        KeyWrites.put(hist, b.versioning(), metadata, condition, store.ids.next())).subject();
  }

  @Override
  public ObjectVersion doGetObject(String bucket, String key) {
    List<ObjectVersion> found = versions(store.jdbc(true, c -> {
      try (NamedSql.Bound q = store.prepare(c, store.sql.getLatest())) {
        q.set("name", bucket).set("k", utf8(key));
        return oneBucketRow(q, bucket);
      }
    }));
    return KeyWrites.current(new KeyHistory(key, found));
  }

  /** The rows of a read, decoded (after the connection went back). */
  private static List<ObjectVersion> versions(List<Latest> rows) {
    return rows.isEmpty() ? List.of() : List.of(rows.get(0).raw().version()
        .withLatest(rows.get(0).latest()));
  }

  /** A version row as read, and whether it is the key's newest. */
  record Latest(PostgresRows.RawVersion raw, boolean latest) {}

  @Override
  public ObjectVersion doGetObjectVersion(String bucket, String key, String versionId) {
    boolean isNull = VersionId.NULL.equals(versionId);
    List<ObjectVersion> found = versions(store.jdbc(true, c -> {
      try (NamedSql.Bound q = store.prepare(c, store.sql.getVersion(isNull))) {
        q.set("name", bucket).set("k", utf8(key));
        if (!isNull) {
          q.set("v", versionId);
        }
        return oneBucketRow(q, bucket);
      }
    }));
    ObjectVersion v = KeyWrites.version(new KeyHistory(key, found), versionId);
    return v.withLatest(found.get(0).latest());
  }

  /**
   * The rows of a one-statement read that joins the bucket row: one row, with null version
   * columns when the key has none; no row at all when there is no such bucket.
   */
  static List<Latest> oneBucketRow(NamedSql.Bound q, String bucket) throws SQLException {
    try (ResultSet rs = q.statement().executeQuery()) {
      if (!rs.next()) {
        throw NoSuchBucketException.of(bucket);
      }
      return rs.getBytes("key") == null ? List.of()
          : List.of(new Latest(PostgresRows.raw(rs), rs.getBoolean("latest")));
    }
  }

  @Override
  public ObjectVersion doUpdateObjectMetadata(String bucket, String key, String versionId,
      ObjectMetadataUpdate update) {
    return writeKey(bucket, key, versionId, (b, hist) -> KeyWrites.update(hist, versionId, update))
        .subject();
  }

  @Override
  public DeleteResult doDeleteObject(String bucket, String key) {
    return writeKey(bucket, key, null,
        (b, hist) -> KeyWrites.delete(hist, b.versioning(), store.ids.next())).deleteResult();
  }

  @Override
  public DeleteResult doDeleteObjectVersion(String bucket, String key, String versionId) {
    return writeKey(bucket, key, versionId, (b, hist) -> KeyWrites.deleteVersion(hist, versionId))
        .versionDeleteResult();
  }

  /**
   * One write to one key: a key's first write speculated in one round trip where that has held
   * lately ({@link #firstWrite}); otherwise, or when the key had a history, one transaction of two
   * round trips on plain JDBC: lock the bucket (shared) and the key, then read the bucket row and
   * what the write needs of the history ({@link #lockAndRead}); write the difference with its GC
   * records and usage delta, and commit ({@link PostgresSql#writeKey}). The rule in between is the
   * shared one of {@link KeyWrites}.
   *
   * @param target the version id the call names (read with the history), or null
   */
  KeyChange writeKey(String bucket, String key, String target,
      BiFunction<Bucket, KeyHistory, KeyChange> rule) {
    if (target == null) {
      KeyChange first = firstWrite(bucket, key, rule);
      if (first != null) {
        return first;
      }
    }
    return store.jdbc(false, c -> {
      Locked l = lockAndRead(c, bucket, key, target);
      KeyChange change = rule.apply(l.bucket(), l.history());
      persist(c, l.bucket(), change, true);
      return change;
    });
  }

  /** A bucket (what a key write needs of it: incarnation and versioning) and a key's history. */
  record Locked(Bucket bucket, KeyHistory history) {}

  /**
   * Step 1 of a key write, one round trip ({@link PostgresSql#lockAndReadHistory}): the bucket's
   * shared lock and the key's lock, then the bucket and the key's history in a snapshot taken
   * after them.
   */
  Locked lockAndRead(Connection c, String bucket, String key, String target)
      throws SQLException {
    boolean keyLock = !store.unsafeSkipKeyLock;
    Bucket b;
    Map<String, ObjectVersion> rows = new LinkedHashMap<>();
    try (NamedSql.Bound q = store.prepare(c, store.sql.lockAndReadHistory(keyLock))) {
      q.set("blk", PostgresSql.bucketLock(bucket, store.usageShard())).set("name", bucket).set("k", utf8(key))
          .set("v", target == null || VersionId.NULL.equals(target) ? null : target);
      if (keyLock) {
        q.set("lock", PostgresSql.keyHash(bucket, key));
      }
      try (ResultSet rs = q.query()) {
        if (!rs.next()) {
          seen.invalidate(bucket);
          throw NoSuchBucketException.of(bucket);
        }
        b = keyWriteBucket(bucket, rs);
        if (!b.equals(seen.getIfPresent(bucket))) {
          seen.put(bucket, b); // a write to the cache only when the bucket is new to it
        }
        do {
          String id = rs.getString("version_id");
          if (id != null && !rows.containsKey(id)) {
            rows.put(id, PostgresRows.version(rs));
          }
        } while (rs.next());
      }
    }
    store.hook.accept("locked", c);
    return new Locked(b, new KeyHistory(key, new ArrayList<>(rows.values())));
  }

  /** Only what a key write needs of the bucket: its incarnation and versioning state. */
  private static Bucket keyWriteBucket(String name, ResultSet rs) throws SQLException {
    return new Bucket(name, rs.getString("bucket_id"), "-", Instant.EPOCH,
        VersioningState.values()[rs.getShort("versioning")], null);
  }

  /**
   * Writes the difference a key change makes, its GC records and its usage delta: one statement
   * ({@code commit}: with the transaction's COMMIT, in one round trip).
   */
  void persist(Connection c, Bucket b, KeyChange change, boolean commit) throws SQLException {
    Planned p = plan(b, change);
    if (!p.write().empty()) {
      try (NamedSql.Bound q = store.prepare(c, store.sql.writeKey(p.write(), commit))) {
        p.bind(q);
        q.statement().execute();
      }
    }
    store.hook.accept("written", c);
  }

  /**
   * What a change writes: in a versioned bucket the version rows it removes, adds and updates
   * (against the history it was planned on), then the live row, GC records and usage delta.
   */
  private Planned plan(Bucket b, KeyChange change) {
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
    return plan(b, change, del, ins, upd);
  }

  /**
   * The one statement of a key write ({@link PostgresSql#writeKey}): the given version rows, the
   * live row and GC records the change implies, its usage delta; none when nothing changes (an
   * update to the same values).
   */
  void write(Connection c, Bucket b, KeyChange change, List<String> del,
      List<ObjectVersion> ins, List<ObjectVersion> upd, boolean commit) throws SQLException {
    Planned p = plan(b, change, del, ins, upd);
    if (p.write().empty()) {
      return;
    }
    try (NamedSql.Bound q = store.prepare(c, store.sql.writeKey(p.write(), commit))) {
      p.bind(q);
      q.statement().execute();
    }
  }

  /** A write's statement parts and how to bind them. */
  private record Planned(PostgresSql.Write write, SqlBinding bind) {
    void bind(NamedSql.Bound q) throws SQLException {
      bind.bind(q);
    }
  }

  @FunctionalInterface
  private interface SqlBinding {
    void bind(NamedSql.Bound q) throws SQLException;
  }

  private Planned plan(Bucket b, KeyChange change, List<String> del, List<ObjectVersion> ins,
      List<ObjectVersion> upd) {
    ObjectVersion oldCurrent = change.before().current();
    ObjectVersion current = change.after().current();
    Boolean live = current == null ? (oldCurrent == null ? null : Boolean.FALSE)
        : (current.equals(oldCurrent) ? null : Boolean.TRUE);
    List<ObjectVersion> garbage = change.garbage();
    Usage d = change.usageDelta();
    boolean usage = !d.equals(Usage.ZERO);
    Map<ObjectVersion, String> json = new java.util.IdentityHashMap<>();
    java.util.function.Function<ObjectVersion, String> meta =
        v -> json.computeIfAbsent(v, PostgresRows::metaJson);
    boolean one = ins.size() == 1;
    PostgresSql.Write w = new PostgresSql.Write(!del.isEmpty(), !ins.isEmpty(), one,
        !upd.isEmpty(), live, !garbage.isEmpty(), usage, false);
    return new Planned(w, q -> {
      q.set("b", UUID.fromString(b.id())).set("k", utf8(change.after().key()));
      if (!del.isEmpty()) {
        q.set("del", del.toArray(new String[0]));
      }
      if (one) {
        ObjectVersion v = ins.get(0);
        q.set("iv", v.revision().encode()).set("in", v.nullVersion()).set("idm", v.deleteMarker())
            .set("isz", v.size()).set("im", meta.apply(v));
      } else if (!ins.isEmpty()) {
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
            .set("gloc", garbage.stream().map(v -> PostgresRows.json(v.metadata().dataLocations()))
                .toArray(String[]::new));
      }
      if (usage) {
        q.set("shard", (short) store.usageShard()).set("u1", d.currentObjects())
            .set("u2", d.currentBytes()).set("u3", d.nonCurrentVersions())
            .set("u4", d.nonCurrentBytes()).set("u5", d.deleteMarkers()).set("u6", d.uploads())
            .set("u7", d.partBytes());
      }
    });
  }

  // ------------------------------------------------------------------ speculated first writes

  /**
   * The buckets key writes have seen (what a write needs of one: incarnation and versioning), by
   * name: the assumption a speculated first write makes and its guard checks, so a stale entry
   * costs a fallback, never a wrong write.
   */
  private final com.github.benmanes.caffeine.cache.Cache<String, Bucket> seen =
      com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumSize(10_000).build();

  /**
   * How often a speculated first write held lately: +1 when it did, -4 when the key had a
   * history (a wasted round trip), kept within [-64, 16]; speculation runs while the score is not
   * negative, and once in 32 writes otherwise, to notice when a workload turns to new keys.
   */
  private final java.util.concurrent.atomic.AtomicInteger speculation =
      new java.util.concurrent.atomic.AtomicInteger();
  private final java.util.concurrent.atomic.AtomicInteger probes =
      new java.util.concurrent.atomic.AtomicInteger();
  private final java.util.concurrent.atomic.AtomicLong held =
      new java.util.concurrent.atomic.AtomicLong();

  /** Speculated first writes that held, since the store opened. */
  long firstWritesHeld() {
    return held.get();
  }

  /**
   * A write speculating that the key has no history (the common case of S3 puts: new keys), in
   * one round trip ({@link PostgresSql#firstWrite}): the locks, the change the rule plans for an
   * empty history, written only if the key has none and the bucket is the one assumed, then
   * commit. Null when it did not hold (or was not tried): the caller runs the two-round-trip
   * write, which reads the bucket and the key's history (and refreshes what the store knows of
   * the bucket).
   */
  private KeyChange firstWrite(String bucket, String key,
      BiFunction<Bucket, KeyHistory, KeyChange> rule) {
    Bucket b = seen.getIfPresent(bucket);
    if (b == null || (speculation.get() < 0 && probes.incrementAndGet() % 32 != 0)) {
      return null;
    }
    KeyChange change;
    try {
      change = rule.apply(b, new KeyHistory(key, List.of()));
    } catch (io.objectmeta.api.error.MetadataException e) {
      return null; // a condition an empty history fails (If-Match): the key's own history decides
    }
    Planned p = plan(b, change);
    boolean keyLock = !store.unsafeSkipKeyLock;
    boolean applied = store.jdbc(false, c -> {
      try (NamedSql.Bound q = store.prepare(c, store.sql.firstWrite(keyLock, p.write()))) {
        p.bind(q);
        q.set("blk", PostgresSql.bucketLock(bucket, store.usageShard())).set("name", bucket)
            .set("vs", (short) b.versioning().ordinal());
        if (keyLock) {
          q.set("lock", PostgresSql.keyHash(bucket, key));
        }
        java.sql.PreparedStatement ps = q.statement();
        ps.execute(); // the locks
        ps.getMoreResults(); // the guarded write (NamedSql.query would step on past the COMMIT)
        try (ResultSet rs = ps.getResultSet()) {
          return rs.next() && rs.getLong("applied") == 1;
        }
      }
    });
    speculation.updateAndGet(v -> applied ? Math.min(v + 1, 16) : Math.max(v - 4, -64));
    if (applied) {
      held.incrementAndGet();
    }
    return applied ? change : null;
  }

  /**
   * One transaction, as a write's: lock the bucket and the key, read the key's whole history,
   * apply the shared rule; if the history differs, delete all of it and write the restored one
   * with the live row and usage delta (no GC records).
   */
  @Override
  public void doRestoreKey(String bucket, String key, List<ObjectVersion> versions) {
    store.jdbc(false, c -> {
      Bucket b;
      try (NamedSql.Bound q = store.prepare(c, store.sql.lockBucketAndKey())) {
        q.set("blk", PostgresSql.bucketLock(bucket, store.usageShard())).set("lock", PostgresSql.keyHash(bucket, key))
            .set("name", bucket);
        try (ResultSet rs = q.query()) {
          if (!rs.next()) {
            throw NoSuchBucketException.of(bucket);
          }
          b = keyWriteBucket(bucket, rs);
        }
      }
      boolean versioned = b.versioning().versioned();
      List<ObjectVersion> rows = new ArrayList<>();
      try (NamedSql.Bound q = store.prepare(c, store.sql.readWholeHistory(versioned))) {
        q.set("b", UUID.fromString(b.id())).set("k", utf8(key));
        try (ResultSet rs = q.statement().executeQuery()) {
          while (rs.next()) {
            rows.add(PostgresRows.version(rs));
          }
        }
      }
      KeyChange change = KeyWrites.restore(new KeyHistory(key, rows), b.versioning(), versions);
      if (change.after().equals(change.before())) {
        return null; // restored before: a resumed copy redoing its last batch
      }
      if (versioned && !rows.isEmpty()) {
        try (NamedSql.Bound q = store.prepare(c, store.sql.deleteKeyHistory())) {
          q.set("b", UUID.fromString(b.id())).set("k", utf8(key)).statement().executeUpdate();
        }
      }
      write(c, b, change, List.of(), versioned ? change.after().versions() : List.of(), List.of(),
          true);
      return null;
    });
  }
}
