package io.objectmeta.postgres;

import static io.objectmeta.postgres.PostgresMetadataStore.shard;
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
 * Object versions on PostgreSQL: one transaction per write on plain JDBC: the bucket row locked
 * shared and the key locked (advisory), the history read, the change planned by {@link
 * io.objectmeta.api.versioning.KeyWrites} written as one statement with its GC records and usage
 * delta ({@link #write}: this is where a delete marker or a null version gets written).
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
    List<ObjectVersion> found = store.jdbc(true, c -> {
      try (NamedSql.Bound q = store.prepare(c, store.sql.getLatest())) {
        q.set("name", bucket).set("k", utf8(key));
        return oneBucketRow(q, bucket);
      }
    });
    return KeyWrites.current(new KeyHistory(key, found));
  }

  @Override
  public ObjectVersion doGetObjectVersion(String bucket, String key, String versionId) {
    boolean isNull = VersionId.NULL.equals(versionId);
    List<ObjectVersion> found = store.jdbc(true, c -> {
      try (NamedSql.Bound q = store.prepare(c, store.sql.getVersion())) {
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
  static List<ObjectVersion> oneBucketRow(NamedSql.Bound q, String bucket)
      throws SQLException {
    try (ResultSet rs = q.statement().executeQuery()) {
      if (!rs.next()) {
        throw NoSuchBucketException.of(bucket);
      }
      return rs.getBytes("key") == null ? List.of()
          : List.of(PostgresRows.version(rs).withLatest(rs.getBoolean("latest")));
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
   * One write to one key, in one transaction of three statements on plain JDBC: lock the bucket
   * row (share) and the key (advisory), read what the write needs of the history, write the
   * difference with its GC records and usage delta ({@link PostgresSql}). The rule in between is
   * the shared one of {@link KeyWrites}.
   *
   * @param target the version id the call names (read with the history), or null
   */
  KeyChange writeKey(String bucket, String key, String target,
      BiFunction<Bucket, KeyHistory, KeyChange> rule) {
    return store.jdbc(false, c -> {
      Bucket b = lockBucketAndKey(c, bucket, key);
      KeyChange change = rule.apply(b, read(c, b, key, target));
      persist(c, b, change);
      return change;
    });
  }

  Bucket lockBucketAndKey(Connection c, String bucket, String key) throws SQLException {
    NamedSql q = NamedSql.of(store.unsafeSkipKeyLock ? store.sql.lockBucketOnly() : store.sql.lockBucketAndKey());
    Bucket b;
    try (NamedSql.Bound st = q.prepare(c)) {
      st.set("name", bucket);
      if (!store.unsafeSkipKeyLock) {
        st.set("lock", PostgresSql.keyHash(bucket, key));
      }
      try (ResultSet rs = st.statement().executeQuery()) {
        if (!rs.next()) {
          throw NoSuchBucketException.of(bucket);
        }
        // Only what a key write needs of the bucket: its incarnation and versioning state.
        b = new Bucket(bucket, rs.getString("id"), "-", Instant.EPOCH,
            VersioningState.values()[rs.getShort("versioning")], null);
      }
    }
    store.hook.accept("locked", c);
    return b;
  }

  /** What a write needs of the key's history ({@link PostgresSql#readHistory}). */
  KeyHistory read(Connection c, Bucket b, String key, String target) throws SQLException {
    boolean versioned = b.versioning().versioned();
    try (NamedSql.Bound q = store.prepare(c, store.sql.readHistory(versioned))) {
      q.set("b", UUID.fromString(b.id())).set("k", utf8(key));
      if (versioned) {
        q.set("v", target == null || VersionId.NULL.equals(target) ? null : target);
      }
      Map<String, ObjectVersion> rows = new LinkedHashMap<>();
      try (ResultSet rs = q.statement().executeQuery()) {
        while (rs.next()) {
          String id = rs.getString("version_id");
          if (!rows.containsKey(id)) {
            rows.put(id, PostgresRows.version(rs));
          }
        }
      }
      return new KeyHistory(key, new ArrayList<>(rows.values()));
    }
  }

  /** Writes the difference a key change makes, its GC records and its usage delta: one statement. */
  void persist(Connection c, Bucket b, KeyChange change) throws SQLException {
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
    store.hook.accept("written", c);
  }

  /**
   * The one statement of a key write ({@link PostgresSql#writeKey}): the given version rows, the
   * live row and GC records the change implies, its usage delta; none when nothing changes (an
   * update to the same values).
   */
  void write(Connection c, Bucket b, KeyChange change, List<String> del,
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
        v -> json.computeIfAbsent(v, PostgresRows::metaJson);
    if (del.isEmpty() && ins.isEmpty() && upd.isEmpty() && live == null && garbage.isEmpty()
        && !usage) {
      return;
    }
    try (NamedSql.Bound q = store.prepare(c, store.sql.writeKey(!del.isEmpty(), !ins.isEmpty(), !upd.isEmpty(),
        live, !garbage.isEmpty(), usage))) {
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
            .set("gloc", garbage.stream().map(v -> PostgresRows.json(v.metadata().dataLocations()))
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

  /**
   * One transaction, as a write's: lock the bucket and the key, read the key's whole history,
   * apply the shared rule; if the history differs, delete all of it and write the restored one
   * with the live row and usage delta (no GC records).
   */
  @Override
  public void doRestoreKey(String bucket, String key, List<ObjectVersion> versions) {
    store.jdbc(false, c -> {
      Bucket b = lockBucketAndKey(c, bucket, key);
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
      write(c, b, change, List.of(), versioned ? change.after().versions() : List.of(), List.of());
      return null;
    });
  }
}
