package io.objectmeta.postgres;

/**
 * The SQL of the hot paths, named, in one place: what a put, get or delete sends. The benchmark's
 * raw-JDBC baseline sends these same statements, so the comparison measures this backend's own
 * overhead. {@code s} is the schema.
 */
public final class PostgresSql {
  private final String s;

  public PostgresSql(String schema) {
    this.s = schema;
  }

  public String schema() {
    return s;
  }

  static final String VERSION_COLUMNS = "key, version_id, is_null, delete_marker, meta";
  static final String LIVE_COLUMNS = "key, version_id, is_null, false AS delete_marker, meta";

  /**
   * Step 1 of a write: the bucket row, share-locked (its versioning state cannot change and it
   * cannot be deleted until commit), and the key's transaction-scoped advisory lock, which
   * serializes writers of one key (a concurrent first insert would otherwise overwrite without
   * archiving). Binds: name, lock.
   */
  public String lockBucketAndKey() {
    return "SELECT id, versioning, pg_advisory_xact_lock(:lock)"
        + " FROM " + s + ".bucket WHERE name = :name FOR SHARE";
  }

  /** Step 1 without the key lock: the naive write, for the test that proves the lock matters. */
  String lockBucketOnly() {
    return "SELECT id, versioning FROM " + s + ".bucket WHERE name = :name FOR SHARE";
  }

  /**
   * Step 2: what the write needs of the key's history, read after the lock (READ COMMITTED: a fresh
   * snapshot, so it sees what the previous holder of the lock committed): the two newest versions,
   * the null version, and the version the call names (v: its newest-first encoding, or null). The
   * shared rules need no more (see KeyWrites), so a write costs the same however long the history.
   * Rows may repeat. Binds: b, k, v (versioned only).
   */
  public String readHistory(boolean versioned) {
    String from = " FROM " + s + ".object_version WHERE bucket_id = :b AND key = :k";
    return versioned
        ? "(SELECT " + VERSION_COLUMNS + from + " ORDER BY version_id LIMIT 2)"
            + " UNION ALL (SELECT " + VERSION_COLUMNS + from + " AND is_null)"
            + " UNION ALL (SELECT " + VERSION_COLUMNS + from + " AND version_id = :v)"
        : "SELECT " + LIVE_COLUMNS + " FROM " + s + ".object_live WHERE bucket_id = :b AND key = :k";
  }

  /**
   * Step 3: everything the write changes, in one statement of data-modifying CTEs (each part
   * present only when the change needs it). Binds: b, k, and per part:
   * del (text[]); iv, in, idm, isz, im (parallel arrays of new versions); uv, um (updated
   * metadata); lv, ln, lsz, lm (the new live row); bn, gv, gsz, gloc (GC records); shard and
   * u1..u7 (usage delta).
   */
  public String writeKey(boolean deleteVersions, boolean insertVersions, boolean updateVersions,
      Boolean upsertLive, boolean queueGarbage, boolean usage) {
    StringBuilder q = new StringBuilder("WITH ");
    if (deleteVersions) {
      q.append("del AS (DELETE FROM ").append(s).append(".object_version WHERE bucket_id = :b")
          .append(" AND key = :k AND version_id = ANY(CAST(:del AS text[]))), ");
    }
    if (insertVersions) {
      q.append("ins AS (INSERT INTO ").append(s).append(".object_version (bucket_id, key, version_id,")
          .append(" is_null, delete_marker, size, meta) SELECT :b, :k, x.v, x.n, x.dm, x.sz, x.m")
          .append(" FROM unnest(CAST(:iv AS text[]), CAST(:in AS boolean[]), CAST(:idm AS boolean[]),")
          .append(" CAST(:isz AS bigint[]), CAST(:im AS jsonb[])) AS x(v, n, dm, sz, m)), ");
    }
    if (updateVersions) {
      q.append("upd AS (UPDATE ").append(s).append(".object_version o SET meta = x.m FROM")
          .append(" unnest(CAST(:uv AS text[]), CAST(:um AS jsonb[])) AS x(v, m)")
          .append(" WHERE o.bucket_id = :b AND o.key = :k AND o.version_id = x.v), ");
    }
    if (upsertLive != null) {
      if (upsertLive) {
        q.append("live AS (INSERT INTO ").append(s).append(".object_live (bucket_id, key, version_id,")
            .append(" is_null, size, meta) VALUES (:b, :k, :lv, :ln, :lsz, CAST(:lm AS jsonb))")
            .append(" ON CONFLICT (bucket_id, key) DO UPDATE SET version_id = excluded.version_id,")
            .append(" is_null = excluded.is_null, size = excluded.size, meta = excluded.meta), ");
      } else {
        q.append("live AS (DELETE FROM ").append(s).append(".object_live WHERE bucket_id = :b")
            .append(" AND key = :k), ");
      }
    }
    if (queueGarbage) {
      q.append("gc AS (INSERT INTO ").append(s).append(".deleted_object (bucket_id, kind, bucket,")
          .append(" key, version_id, size, locations) SELECT :b, 0, :bn, :k, x.v, x.sz, x.loc FROM")
          .append(" unnest(CAST(:gv AS text[]), CAST(:gsz AS bigint[]), CAST(:gloc AS jsonb[]))")
          .append(" WITH ORDINALITY AS x(v, sz, loc, i) ORDER BY x.i), ");
    }
    if (usage) {
      q.append("usage AS (UPDATE ").append(s).append(".bucket_usage SET")
          .append(" current_objects = current_objects + :u1, current_bytes = current_bytes + :u2,")
          .append(" noncurrent_versions = noncurrent_versions + :u3,")
          .append(" noncurrent_bytes = noncurrent_bytes + :u4, delete_markers = delete_markers + :u5,")
          .append(" uploads = uploads + :u6, part_bytes = part_bytes + :u7")
          .append(" WHERE bucket_id = :b AND shard = :shard), ");
    }
    if (q.length() == 5) {
      return "SELECT 1";
    }
    q.setLength(q.length() - 2);
    return q.append(" SELECT 1").toString();
  }

  /**
   * A get of the latest version in one statement, no transaction: the bucket row and the key's
   * newest version (from object_version or object_live, by the bucket's state). Binds: name, k.
   */
  public String getLatest() {
    return "SELECT b.id AS bucket_id, x.* FROM " + s + ".bucket b LEFT JOIN LATERAL ("
        + "(SELECT " + VERSION_COLUMNS + ", true AS latest FROM " + s + ".object_version v"
        + " WHERE b.versioning <> 0 AND v.bucket_id = b.id AND v.key = :k ORDER BY version_id LIMIT 1)"
        + " UNION ALL (SELECT " + LIVE_COLUMNS + ", true FROM " + s + ".object_live l"
        + " WHERE b.versioning = 0 AND l.bucket_id = b.id AND l.key = :k)) x ON true WHERE b.name = :name";
  }

  /**
   * A get of one version in one statement, no transaction, with whether it is the newest.
   * Binds: name, k, v (the newest-first revision encoding, or null), isnull.
   */
  public String getVersion() {
    return "SELECT b.id AS bucket_id, x.* FROM " + s + ".bucket b LEFT JOIN LATERAL ("
        + "(SELECT " + VERSION_COLUMNS + ", v.version_id = (SELECT min(version_id) FROM " + s
        + ".object_version m WHERE m.bucket_id = b.id AND m.key = :k) AS latest FROM " + s
        + ".object_version v WHERE b.versioning <> 0 AND v.bucket_id = b.id AND v.key = :k"
        + " AND (v.version_id = :v OR (:isnull AND v.is_null)) LIMIT 1)"
        + " UNION ALL (SELECT " + LIVE_COLUMNS + ", true FROM " + s + ".object_live l"
        + " WHERE b.versioning = 0 AND :isnull AND l.bucket_id = b.id AND l.key = :k)) x ON true"
        + " WHERE b.name = :name";
  }

  /** The per-key advisory lock key: a 64-bit FNV-1a hash of bucket name, NUL, key. */
  public static long keyHash(String bucket, String key) {
    long h = 0xcbf29ce484222325L;
    for (byte b : (bucket + '\0' + key).getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }
}
