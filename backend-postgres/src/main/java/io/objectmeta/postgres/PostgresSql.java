package io.objectmeta.postgres;

import java.util.List;

/**
 * Every statement the backend sends, named, in one place, by family: buckets and usage, key
 * writes and reads, uploads, the listing scans, the GC queue (Oak's RDBDocumentStoreJDBC: SQL
 * without logic; the rows are read by {@link PostgresRows}). The benchmark's raw-JDBC baseline
 * sends the same key and GC statements, so the comparison measures this backend's own overhead.
 * Parameters are named ({@code :name}, bound through {@link NamedSql}); {@code s} is the schema.
 */
public final class PostgresSql {
  private final String s;
  private final String lockAndRead;
  private final String lockAndReadNaive;

  public PostgresSql(String schema) {
    this.s = schema;
    this.lockAndRead = buildLockAndReadHistory(true);
    this.lockAndReadNaive = buildLockAndReadHistory(false);
  }

  public String schema() {
    return s;
  }

  static final String VERSION_COLUMNS = "key, version_id, is_null, delete_marker, meta";
  static final String LIVE_COLUMNS = "key, version_id, is_null, false AS delete_marker, meta";

  /** How many parts a bucket's lock has. */
  public static final int BUCKET_LOCK_PARTS = 16;

  /**
   * The bucket's lock, taken before its row is read: shared by every writer into the bucket (a
   * key write, an upload), exclusive for a change of the bucket itself (versioning, delete,
   * restore). Transaction-scoped advisory locks on hashes of the name, held in the server's lock
   * table, so many writers of one bucket share it without writing anything (a {@code FOR SHARE}
   * on the bucket row writes a multixact for every new set of lockers). The lock has
   * {@value #BUCKET_LOCK_PARTS} parts: a writer takes one of them shared (its thread's, binds
   * blk), a change takes all of them exclusively, in order (binds blks), so the writers of a hot
   * bucket spread over the server's lock table instead of queueing on one entry.
   */
  static String lockBucket(boolean exclusive) {
    return exclusive ? "count(pg_advisory_xact_lock(x)) FROM unnest(CAST(:blks AS bigint[])) AS x"
        : "pg_advisory_xact_lock_shared(:blk)";
  }

  /** The advisory lock key of one part of a bucket's lock (the key locks hash other input). */
  public static long bucketLock(String name, int part) {
    return keyHash("", "bucket:" + part + ":" + name);
  }

  /** Every part of a bucket's lock, in the order a change takes them. */
  public static long[] bucketLocks(String name) {
    long[] all = new long[BUCKET_LOCK_PARTS];
    for (int i = 0; i < all.length; i++) {
      all[i] = bucketLock(name, i);
    }
    return all;
  }

  /**
   * Step 1 of a write, one round trip of two statements: the bucket's shared lock and the key's
   * transaction-scoped advisory lock (which serializes the writers of one key: a concurrent first
   * insert would otherwise overwrite without archiving); then, in the second statement's own
   * snapshot (READ COMMITTED: taken after the locks, so it sees what the previous holder
   * committed), the bucket row and what the write needs of the key's history: the two newest
   * versions, the null version and the version the call names (v: its newest-first encoding, or
   * null), or the live row of an unversioned bucket. The shared rules need no more (see
   * KeyWrites), so a write costs the same however long the history. No row: no such bucket; one
   * row of nulls besides the bucket: no history. Rows may repeat.
   * Binds: blk, lock (unless {@code keyLock} is false: the naive write, for the test that proves
   * the lock matters), name, k, v.
   */
  /** The locks of step 1 alone: the bucket's (shared part) and the key's. Binds: blk, lock. */
  String writeLocks(boolean keyLock) {
    return "SELECT " + lockBucket(false) + (keyLock ? ", pg_advisory_xact_lock(:lock)" : "");
  }

  public String lockAndReadHistory(boolean keyLock) {
    return keyLock ? lockAndRead : lockAndReadNaive;
  }


  private String buildLockAndReadHistory(boolean keyLock) {
    String from = " FROM " + s + ".object_version WHERE b.versioning <> 0 AND bucket_id = b.id"
        + " AND key = :k";
    return writeLocks(keyLock) + "; SELECT b.id AS bucket_id, b.versioning, h.* FROM " + s
        + ".bucket b LEFT JOIN LATERAL ("
        + "(SELECT " + VERSION_COLUMNS + from + " ORDER BY version_id LIMIT 2)"
        + " UNION ALL (SELECT " + VERSION_COLUMNS + from + " AND is_null)"
        + " UNION ALL (SELECT " + VERSION_COLUMNS + from + " AND version_id = :v)"
        + " UNION ALL (SELECT " + LIVE_COLUMNS + " FROM " + s + ".object_live WHERE"
        + " b.versioning = 0 AND bucket_id = b.id AND key = :k)) h ON true WHERE b.name = :name";
  }

  /**
   * Step 1 of a restore: the bucket's shared lock and the key's lock, then the bucket row's id and
   * versioning state. Binds: blk, lock, name.
   */
  public String lockBucketAndKey() {
    return writeLocks(true) + "; SELECT id AS bucket_id, versioning FROM " + s
        + ".bucket WHERE name = :name";
  }

  /**
   * Step 2: everything the write changes, in one statement of data-modifying CTEs (each part
   * present only when the change needs it). Binds: b, k, and per part:
   * del (text[]); iv, in, idm, isz, im (parallel arrays of new versions); uv, um (updated
   * metadata); lv, ln, lsz, lm (the new live row); bn, gv, gsz, gloc (GC records); shard and
   * u1..u7 (usage delta). {@code commit}: the transaction's COMMIT follows in the same round trip
   * (the write is its last statement).
   */
  public String writeKey(boolean deleteVersions, boolean insertVersions, boolean updateVersions,
      Boolean upsertLive, boolean queueGarbage, boolean usage, boolean commit) {
    return writeKey(new Write(deleteVersions, insertVersions, false, updateVersions, upsertLive,
        queueGarbage, usage, false), commit);
  }

  /**
   * The parts of a key write. {@code insertOne}: the one new version bound as plain values (iv,
   * in, idm, isz, im as scalars: no arrays to build for the common write, a put or a delete
   * marker). {@code guarded}: every part runs only if the key has no history and the bucket is
   * the one named (see {@link #firstWrite}).
   */
  public record Write(boolean deleteVersions, boolean insertVersions, boolean insertOne,
      boolean updateVersions, Boolean upsertLive, boolean queueGarbage, boolean usage,
      boolean guarded) {

    int bits() {
      return (deleteVersions ? 1 : 0) | (insertVersions ? 2 : 0) | (insertOne ? 4 : 0)
          | (updateVersions ? 8 : 0) | (upsertLive == null ? 0 : upsertLive ? 16 : 32)
          | (queueGarbage ? 64 : 0) | (usage ? 128 : 0) | (guarded ? 256 : 0);
    }

    /** The same parts, each run only if the guard holds. */
    Write asGuarded() {
      return new Write(deleteVersions, insertVersions, insertOne, updateVersions, upsertLive,
          queueGarbage, usage, true);
    }

    boolean empty() {
      return !deleteVersions && !insertVersions && !updateVersions && upsertLive == null
          && !queueGarbage && !usage;
    }
  }

  private final java.util.Map<Integer, String> writes = new java.util.concurrent.ConcurrentHashMap<>();

  /** The statement of a key write, built once per combination of parts. */
  public String writeKey(Write w, boolean commit) {
    int key = w.bits() | (commit ? 512 : 0);
    String built = writes.get(key);
    return built != null ? built : writes.computeIfAbsent(key, x -> buildWriteKey(w, commit));
  }

  /**
   * A key's first write, speculated, in one round trip of three statements: the bucket's and the
   * key's locks (as in {@link #lockAndReadHistory}), then the write planned for an empty history,
   * every part guarded by "the bucket is the one named (name, b), in the versioning state the
   * plan assumed (vs), and the key has no version and no live row" (the statement's snapshot is
   * taken after the locks, so the guard sees every committed write of the key), and COMMIT. The
   * write's one row says whether the guard held (applied = 1); if not, nothing was written.
   * Binds: blk, lock (unless {@code keyLock} is false), name, vs and those of the write.
   */
  public String firstWrite(boolean keyLock, Write w) {
    Write g = w.asGuarded();
    int key = g.bits() | (keyLock ? 512 : 0);
    String built = firstWrites.get(key);
    return built != null ? built : firstWrites.computeIfAbsent(key,
        x -> writeLocks(keyLock) + "; " + buildWriteKey(g, true));
  }

  private final java.util.Map<Integer, String> firstWrites =
      new java.util.concurrent.ConcurrentHashMap<>();

  private String buildWriteKey(Write w, boolean commit) {
    String when = w.guarded() ? " WHERE EXISTS (SELECT 1 FROM ok)" : "";
    String and = w.guarded() ? " AND EXISTS (SELECT 1 FROM ok)" : "";
    StringBuilder q = new StringBuilder("WITH ");
    if (w.guarded()) {
      q.append("ok AS (SELECT 1 FROM ").append(s).append(".bucket WHERE name = :name AND id = :b")
          .append(" AND versioning = :vs AND NOT EXISTS (SELECT 1 FROM ").append(s)
          .append(".object_version WHERE bucket_id = :b AND key = :k) AND NOT EXISTS (SELECT 1")
          .append(" FROM ").append(s).append(".object_live WHERE bucket_id = :b AND key = :k)), ");
    }
    if (w.deleteVersions()) {
      q.append("del AS (DELETE FROM ").append(s).append(".object_version WHERE bucket_id = :b")
          .append(" AND key = :k AND version_id = ANY(CAST(:del AS text[]))").append(and)
          .append("), ");
    }
    String versionColumns = ".object_version (bucket_id, key, version_id, is_null, delete_marker,"
        + " size, meta)";
    if (w.insertOne()) {
      q.append("ins AS (INSERT INTO ").append(s).append(versionColumns)
          .append(w.guarded() ? " SELECT" : " VALUES (")
          .append(" :b, :k, :iv, :in, :idm, :isz, CAST(:im AS jsonb)")
          .append(w.guarded() ? when : ")").append("), ");
    } else if (w.insertVersions()) {
      q.append("ins AS (INSERT INTO ").append(s).append(versionColumns)
          .append(" SELECT :b, :k, x.v, x.n, x.dm, x.sz, x.m")
          .append(" FROM unnest(CAST(:iv AS text[]), CAST(:in AS boolean[]), CAST(:idm AS boolean[]),")
          .append(" CAST(:isz AS bigint[]), CAST(:im AS jsonb[])) AS x(v, n, dm, sz, m)").append(when)
          .append("), ");
    }
    if (w.updateVersions()) {
      q.append("upd AS (UPDATE ").append(s).append(".object_version o SET meta = x.m FROM")
          .append(" unnest(CAST(:uv AS text[]), CAST(:um AS jsonb[])) AS x(v, m)")
          .append(" WHERE o.bucket_id = :b AND o.key = :k AND o.version_id = x.v").append(and)
          .append("), ");
    }
    if (w.upsertLive() != null) {
      if (w.upsertLive()) {
        q.append("live AS (INSERT INTO ").append(s).append(".object_live (bucket_id, key, version_id,")
            .append(" is_null, size, meta)").append(w.guarded() ? " SELECT" : " VALUES (")
            .append(" :b, :k, :lv, :ln, :lsz, CAST(:lm AS jsonb)").append(w.guarded() ? when : ")")
            .append(" ON CONFLICT (bucket_id, key) DO UPDATE SET version_id = excluded.version_id,")
            .append(" is_null = excluded.is_null, size = excluded.size, meta = excluded.meta), ");
      } else {
        q.append("live AS (DELETE FROM ").append(s).append(".object_live WHERE bucket_id = :b")
            .append(" AND key = :k").append(and).append("), ");
      }
    }
    if (w.queueGarbage()) {
      q.append("gc AS (INSERT INTO ").append(s).append(".deleted_object (bucket_id, kind, bucket,")
          .append(" key, version_id, size, locations) SELECT :b, 0, :bn, :k, x.v, x.sz, x.loc FROM")
          .append(" unnest(CAST(:gv AS text[]), CAST(:gsz AS bigint[]), CAST(:gloc AS jsonb[]))")
          .append(" WITH ORDINALITY AS x(v, sz, loc, i)").append(when).append(" ORDER BY x.i), ");
    }
    if (w.usage()) {
      q.append("usage AS (UPDATE ").append(s).append(".bucket_usage SET")
          .append(" current_objects = current_objects + :u1, current_bytes = current_bytes + :u2,")
          .append(" noncurrent_versions = noncurrent_versions + :u3,")
          .append(" noncurrent_bytes = noncurrent_bytes + :u4, delete_markers = delete_markers + :u5,")
          .append(" uploads = uploads + :u6, part_bytes = part_bytes + :u7")
          .append(" WHERE bucket_id = :b AND shard = :shard").append(and).append("), ");
    }
    String last = w.guarded() ? " SELECT count(*) AS applied FROM ok" : " SELECT 1";
    if (q.length() == 5) {
      q.setLength(0);
      q.append(last.substring(1));
    } else {
      q.setLength(q.length() - 2);
      q.append(last);
    }
    return q.append(commit ? "; COMMIT" : "").toString();
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
   * A get of one version in one statement, no transaction, with whether it is the newest: by its
   * id (the primary key), or the null version ({@code isNull}: its partial index; in an
   * unversioned bucket, the live row). One statement per case, so that each is planned on its own
   * index (an {@code OR} of the two made a generic plan filter every version of the key).
   * Binds: name, k, and v (the newest-first revision encoding) unless {@code isNull}.
   */
  public String getVersion(boolean isNull) {
    return "SELECT b.id AS bucket_id, x.* FROM " + s + ".bucket b LEFT JOIN LATERAL ("
        + "(SELECT " + VERSION_COLUMNS + ", v.version_id = (SELECT min(version_id) FROM " + s
        + ".object_version m WHERE m.bucket_id = b.id AND m.key = :k) AS latest FROM " + s
        + ".object_version v WHERE b.versioning <> 0 AND v.bucket_id = b.id AND v.key = :k"
        + (isNull ? " AND v.is_null" : " AND v.version_id = :v") + " LIMIT 1)"
        + (isNull ? " UNION ALL (SELECT " + LIVE_COLUMNS + ", true FROM " + s + ".object_live l"
            + " WHERE b.versioning = 0 AND l.bucket_id = b.id AND l.key = :k)" : "")
        + ") x ON true WHERE b.name = :name";
  }

  // ----------------------------------------------------------------------------------- restores

  /**
   * A key's whole history, as a restore needs it (to replace all of it and to count its usage):
   * every row of object_version, or the live row of an unversioned bucket. Binds: b, k.
   */
  public String readWholeHistory(boolean versioned) {
    return versioned
        ? "SELECT " + VERSION_COLUMNS + " FROM " + s + ".object_version WHERE bucket_id = :b AND key = :k"
        : "SELECT " + LIVE_COLUMNS + " FROM " + s + ".object_live WHERE bucket_id = :b AND key = :k";
  }

  /**
   * A restore's first step when the key has a history: all of it goes (no GC record), so that
   * {@link #writeKey} then inserts the restored versions. Binds: b, k.
   */
  public String deleteKeyHistory() {
    return "DELETE FROM " + s + ".object_version WHERE bucket_id = :b AND key = :k";
  }

  /**
   * Adds restored GC records, skipping those whose origin is already queued: object and part
   * records (parallel arrays ob, okind, obn, ok (hex of the key's UTF-8), ov, opn, osz, oloc, oat
   * (timestamps as text), oorigin) in the given order, and deleted-bucket records (bid, bn, bat,
   * borigin). One row: how many were added.
   */
  public String restoreGarbage() {
    return "WITH o AS (INSERT INTO " + s + ".deleted_object (bucket_id, kind, bucket, key, version_id,"
        + " part_number, size, locations, deleted_at, origin)"
        + " SELECT x.b, x.kind, x.bn, decode(x.k, 'hex'), x.v, x.pn, x.sz, x.loc, x.at, x.origin FROM"
        + " unnest(CAST(:ob AS uuid[]), CAST(:okind AS smallint[]), CAST(:obn AS text[]),"
        + " CAST(:ok AS text[]), CAST(:ov AS text[]), CAST(:opn AS integer[]), CAST(:osz AS bigint[]),"
        + " CAST(:oloc AS jsonb[]), CAST(:oat AS timestamptz[]), CAST(:oorigin AS text[]))"
        + " WITH ORDINALITY AS x(b, kind, bn, k, v, pn, sz, loc, at, origin, i) ORDER BY x.i"
        + " ON CONFLICT DO NOTHING RETURNING 1)"
        + ", b AS (INSERT INTO " + s + ".deleted_bucket (id, name, deleted_at, origin)"
        + " SELECT x.id, x.bn, x.at, x.origin FROM unnest(CAST(:bid AS uuid[]), CAST(:bn AS text[]),"
        + " CAST(:bat AS timestamptz[]), CAST(:borigin AS text[])) AS x(id, bn, at, origin)"
        + " ON CONFLICT DO NOTHING RETURNING 1)"
        + " SELECT (SELECT count(*) FROM o) + (SELECT count(*) FROM b) AS n";
  }

  /**
   * A page of object and part records in queue order (deleted_at, id) after a position, by the
   * (deleted_at, id) index; {@code inclusive} (a position among the bucket records, which sort
   * after the object records of the same time): every record of that time too. Binds: at, id,
   * limit; none at the start.
   */
  public String listObjectGarbage(boolean start, boolean inclusive) {
    return "SELECT * FROM " + s + ".deleted_object"
        + (start ? "" : inclusive ? " WHERE deleted_at >= :at" : " WHERE (deleted_at, id) > (:at, :id)")
        + " ORDER BY deleted_at, id LIMIT :limit";
  }

  /** The same for deleted-bucket records; {@code inclusive}: a position among object records. */
  public String listBucketGarbage(boolean start, boolean inclusive) {
    return "SELECT id, name, deleted_at FROM " + s + ".deleted_bucket"
        + (start ? "" : inclusive ? " WHERE deleted_at >= :at" : " WHERE (deleted_at, id) > (:at, :id)")
        + " ORDER BY deleted_at, id LIMIT :limit";
  }

  // ---------------------------------------------------------------------------------- GC queue
  // A record stays in its queue table (deleted_object, deleted_bucket) until acknowledged; a
  // claim writes one gc_lease row holding the ids it took, so a claim costs a read and one small
  // write, and an acknowledgement one DELETE per record, as a bare DELETE … RETURNING loop does.
  // Claims exclude ids held by live leases. Claimers take turns (a transaction-scoped advisory
  // lock, taken in its own statement so the claim's snapshot sees every lease committed before).

  /** Step 1 of a claim: this schema's claim lock, held to commit. Binds: lock. */
  public String lockClaims() {
    return "SELECT pg_advisory_xact_lock(:lock)";
  }

  /**
   * Step 2: drops expired leases (their records are claimable again). A lease being acknowledged
   * right now is row-locked by the acknowledgement: this waits for it, and then sees its records
   * gone.
   */
  public String dropExpiredLeases() {
    return "DELETE FROM " + s + ".gc_lease WHERE lease_until <= now()";
  }

  /**
   * Step 3: the oldest object records past the grace period that no live lease holds, recorded
   * in a new lease row. Each result row is a claimed record with the lease's end.
   * Binds: claim, grace, lease (seconds), max.
   */
  public String claimObjects() {
    return "WITH c AS (SELECT * FROM " + s + ".deleted_object"
        + " WHERE deleted_at <= now() - make_interval(secs => :grace)"
        + " AND id NOT IN (SELECT unnest(object_ids) FROM " + s + ".gc_lease)"
        + " ORDER BY deleted_at, id LIMIT :max)"
        + ", l AS (INSERT INTO " + s + ".gc_lease (claim_id, lease_until, object_ids)"
        + " SELECT :claim, now() + make_interval(secs => :lease), array_agg(id ORDER BY id) FROM c"
        + " HAVING count(*) > 0 RETURNING lease_until)"
        + " SELECT c.*, (SELECT lease_until FROM l) AS lease_until FROM c";
  }

  /**
   * Step 3b, when the objects did not fill the batch: deleted-bucket records, added to the
   * claim's lease row (created if the objects gave none). Binds: claim, grace, lease, max.
   */
  public String claimBuckets() {
    return "WITH c AS (SELECT * FROM " + s + ".deleted_bucket"
        + " WHERE deleted_at <= now() - make_interval(secs => :grace)"
        + " AND id NOT IN (SELECT unnest(bucket_ids) FROM " + s + ".gc_lease)"
        + " ORDER BY deleted_at, id LIMIT :max)"
        + ", l AS (INSERT INTO " + s + ".gc_lease AS g (claim_id, lease_until, bucket_ids)"
        + " SELECT :claim, now() + make_interval(secs => :lease), array_agg(id ORDER BY id) FROM c"
        + " HAVING count(*) > 0 ON CONFLICT (claim_id) DO UPDATE SET bucket_ids = EXCLUDED.bucket_ids"
        + " RETURNING lease_until)"
        + " SELECT c.*, (SELECT lease_until FROM l) AS lease_until FROM c";
  }

  /**
   * Settles a whole claim: the lease row whose ids are exactly the given ones (ascending) is
   * deleted, with its records when acknowledging (which needs a live lease). One row: whether the
   * lease matched, and the records settled. Binds: claim, oids, bids.
   */
  public String settleWholeClaim(boolean release) {
    String l = "l AS (DELETE FROM " + s + ".gc_lease WHERE claim_id = :claim"
        + " AND object_ids = CAST(:oids AS bigint[]) AND bucket_ids = CAST(:bids AS uuid[])"
        + (release ? "" : " AND lease_until > now()") + " RETURNING object_ids, bucket_ids)";
    if (release) {
      return "WITH " + l + " SELECT count(*) AS matched, coalesce(sum(cardinality(object_ids)"
          + " + cardinality(bucket_ids)), 0) AS n FROM l";
    }
    return "WITH " + l + deleteRecords("coalesce((SELECT object_ids FROM l), '{}')",
            "coalesce((SELECT bucket_ids FROM l), '{}')")
        + " SELECT (SELECT count(*) FROM l) AS matched,"
        + " (SELECT count(*) FROM o) + (SELECT count(*) FROM b) AS n";
  }

  private String deleteRecords(String objectIds, String bucketIds) {
    return ", o AS (DELETE FROM " + s + ".deleted_object WHERE id = ANY(" + objectIds + ") RETURNING 1)"
        + ", b AS (DELETE FROM " + s + ".deleted_bucket WHERE id = ANY(" + bucketIds + ") RETURNING 1)";
  }

  /**
   * Settles part of a claim: the named ids its lease holds leave the lease (deleted, when
   * acknowledging, which needs a live lease); a lease left empty is removed by
   * {@link #dropEmptyLease}. One row: the number settled. Binds: claim, oids, bids.
   */
  public String settlePartOfClaim(boolean release) {
    return "WITH l AS (SELECT claim_id, object_ids, bucket_ids FROM " + s + ".gc_lease"
        + " WHERE claim_id = :claim" + (release ? "" : " AND lease_until > now()") + " FOR UPDATE)"
        + ", ho AS (SELECT unnest(object_ids) FROM l INTERSECT SELECT unnest(CAST(:oids AS bigint[])))"
        + ", hb AS (SELECT unnest(bucket_ids) FROM l INTERSECT SELECT unnest(CAST(:bids AS uuid[])))"
        + ", u AS (UPDATE " + s + ".gc_lease g SET"
        + " object_ids = ARRAY(SELECT unnest(l.object_ids) EXCEPT SELECT * FROM ho ORDER BY 1),"
        + " bucket_ids = ARRAY(SELECT unnest(l.bucket_ids) EXCEPT SELECT * FROM hb ORDER BY 1)"
        + " FROM l WHERE g.claim_id = l.claim_id)"
        + (release ? "" : deleteRecords("ARRAY(SELECT * FROM ho)", "ARRAY(SELECT * FROM hb)"))
        + " SELECT (SELECT count(*) FROM ho) + (SELECT count(*) FROM hb) AS n";
  }

  /**
   * Renews a claim while its lease is live: the lease row (one per claim) gets a new end. One
   * row: how many of the named ids it holds (0 when the lease ended: lost). Binds: claim, lease
   * (seconds), oids, bids.
   */
  public String renewClaim() {
    return "WITH l AS (UPDATE " + s + ".gc_lease SET lease_until = now() + make_interval(secs => :lease)"
        + " WHERE claim_id = :claim AND lease_until > now() RETURNING object_ids, bucket_ids)"
        + " SELECT coalesce((SELECT cardinality(ARRAY(SELECT unnest(object_ids) FROM l"
        + " INTERSECT SELECT unnest(CAST(:oids AS bigint[]))))"
        + " + cardinality(ARRAY(SELECT unnest(bucket_ids) FROM l"
        + " INTERSECT SELECT unnest(CAST(:bids AS uuid[])))) FROM l), 0) AS n";
  }

  /** Removes a claim's lease row once it holds nothing. Binds: claim. */
  public String dropEmptyLease() {
    return "DELETE FROM " + s + ".gc_lease WHERE claim_id = :claim"
        + " AND cardinality(object_ids) + cardinality(bucket_ids) = 0";
  }

  /**
   * Queue length (leased records included: they stay queued until acknowledged), records under
   * a live lease, the oldest queue time and the bytes the records hold.
   */
  public String gcQueueStats() {
    return "SELECT sum(n) n, sum(leased) leased, min(oldest) oldest, sum(bytes) bytes FROM ("
        + "SELECT count(*) n, 0 leased, min(deleted_at) oldest, coalesce(sum(size), 0) bytes FROM "
        + s + ".deleted_object UNION ALL SELECT count(*), 0, min(deleted_at), 0 FROM " + s
        + ".deleted_bucket UNION ALL SELECT 0, coalesce(sum(cardinality(object_ids)"
        + " + cardinality(bucket_ids)), 0), null, 0 FROM " + s + ".gc_lease"
        + " WHERE lease_until > now()) q";
  }

  // ---------------------------------------------------------------------- buckets and usage

  /** A row's lock clause for {@code lock} (an upload's row). */
  static String rowLock(Lock lock) {
    return switch (lock) {
      case NONE -> "";
      case SHARE -> " FOR SHARE";
      case UPDATE -> " FOR UPDATE";
    };
  }

  /** A bucket's (or an upload row's) lock: none, shared (writers), exclusive (changes, delete). */
  public enum Lock {
    NONE, SHARE, UPDATE
  }

  /**
   * A bucket by name, locked as asked: shared, the bucket's lock ({@link #lockBucket}) and a
   * plain read after it; exclusive, its lock and the row's. Binds: name, blk (locked only).
   */
  public String findBucket(Lock lock) {
    String read = "SELECT * FROM " + s + ".bucket WHERE name = :name";
    return switch (lock) {
      case NONE -> read;
      case SHARE -> "SELECT " + lockBucket(false) + "; " + read;
      case UPDATE -> "SELECT " + lockBucket(true) + "; " + read + " FOR UPDATE";
    };
  }

  /** A new bucket row, unless the name or the id is taken. Binds: id, name, owner, created, v, attrs. */
  public String insertBucket() {
    return "INSERT INTO " + s + ".bucket (id, name, owner, created, versioning, attributes)"
        + " VALUES (:id, :name, :owner, :created, :v, CAST(:attrs AS jsonb)) ON CONFLICT DO NOTHING";
  }

  /** A new bucket's usage shards, all zero. Binds: id. */
  public String insertUsageShards(int shards) {
    return "INSERT INTO " + s + ".bucket_usage (bucket_id, shard)"
        + " SELECT :id, g FROM generate_series(0, " + (shards - 1) + ") g";
  }

  /** Versioning turned on: the history table starts with the null versions. Binds: id. */
  public String startHistory() {
    return "INSERT INTO " + s + ".object_version (bucket_id, key, version_id, is_null,"
        + " delete_marker, size, meta) SELECT bucket_id, key, version_id, is_null, false, size,"
        + " meta FROM " + s + ".object_live WHERE bucket_id = :id";
  }

  /** A bucket's owner, versioning and attributes. Binds: owner, v, attrs, id. */
  public String updateBucket() {
    return "UPDATE " + s + ".bucket SET owner = :owner, versioning = :v,"
        + " attributes = CAST(:attrs AS jsonb) WHERE id = :id";
  }

  /** Whether a bucket holds no version and no delete marker. Binds: id. */
  public String bucketIsEmpty() {
    return "SELECT NOT EXISTS (SELECT 1 FROM " + s + ".object_version WHERE bucket_id = :id)"
        + " AND NOT EXISTS (SELECT 1 FROM " + s + ".object_live WHERE bucket_id = :id)";
  }

  /** A deleted bucket's uploads' parts, queued for GC. Binds: id, name, kind (of a part). */
  public String queueBucketParts() {
    return "INSERT INTO " + s + ".deleted_object (bucket_id, kind, bucket, key, version_id,"
        + " part_number, size, locations) SELECT p.bucket_id, :kind, :name, u.key, p.upload_id,"
        + " p.part_number, p.size, p.locations FROM " + s + ".part p JOIN " + s + ".upload u"
        + " ON u.bucket_id = p.bucket_id AND u.upload_id = p.upload_id WHERE p.bucket_id = :id"
        + " ORDER BY u.key, p.upload_id, p.part_number";
  }

  /** A deleted bucket's rows of one table (part, upload, bucket_usage). Binds: id. */
  public String deleteBucketRows(String table) {
    if (!List.of("part", "upload", "bucket_usage").contains(table)) {
      throw new IllegalArgumentException(table);
    }
    return "DELETE FROM " + s + "." + table + " WHERE bucket_id = :id";
  }

  /** The bucket row. Binds: id. */
  public String deleteBucket() {
    return "DELETE FROM " + s + ".bucket WHERE id = :id";
  }

  /** A deleted bucket's GC record. Binds: id, name, owner, created. */
  public String insertDeletedBucket() {
    return "INSERT INTO " + s + ".deleted_bucket (id, name, owner, created)"
        + " VALUES (:id, :name, :owner, :created)";
  }

  /** Live buckets after a name, all or one owner's. Binds: owner (null: all), after, limit. */
  public String listBuckets() {
    return "SELECT * FROM " + s + ".bucket WHERE (CAST(:owner AS text) IS NULL OR owner = :owner)"
        + " AND name > :after ORDER BY name LIMIT :limit";
  }

  /** Adds a usage delta to one shard. Binds: a..g (the counters in Usage's order), id, shard. */
  public String addUsage() {
    return "UPDATE " + s + ".bucket_usage SET current_objects = current_objects + :a,"
        + " current_bytes = current_bytes + :b, noncurrent_versions = noncurrent_versions + :c,"
        + " noncurrent_bytes = noncurrent_bytes + :d, delete_markers = delete_markers + :e,"
        + " uploads = uploads + :f, part_bytes = part_bytes + :g"
        + " WHERE bucket_id = :id AND shard = :shard";
  }

  static final String USAGE_SUM = "SELECT coalesce(sum(current_objects), 0) a,"
      + " coalesce(sum(current_bytes), 0) b, coalesce(sum(noncurrent_versions), 0) c,"
      + " coalesce(sum(noncurrent_bytes), 0) d, coalesce(sum(delete_markers), 0) e,"
      + " coalesce(sum(uploads), 0) f, coalesce(sum(part_bytes), 0) g";

  /** One bucket's usage, its shards summed. Binds: b. */
  public String bucketUsage() {
    return USAGE_SUM + " FROM " + s + ".bucket_usage WHERE bucket_id = :b";
  }

  /** The store's usage, every shard summed, and its bucket count (column n). */
  public String storeUsage() {
    return USAGE_SUM + ", (SELECT count(*) FROM " + s + ".bucket) n FROM " + s + ".bucket_usage";
  }

  /** The store's UUID, made on first use (one row of two statements' worth). Binds: u. */
  public String initUuid() {
    return "INSERT INTO " + s + ".store_info (id, uuid) VALUES (1, :u) ON CONFLICT (id) DO NOTHING";
  }

  /** The store's UUID. */
  public String readUuid() {
    return "SELECT uuid FROM " + s + ".store_info WHERE id = 1";
  }

  // -------------------------------------------------------------------------------- uploads

  /** The transaction-scoped advisory lock of one key (uploads, restores). Binds: lock. */
  public String lockKey() {
    return "SELECT pg_advisory_xact_lock(:lock)";
  }

  /** A new upload. Binds: b, k, u, at, meta. */
  public String insertUpload() {
    return "INSERT INTO " + s + ".upload (bucket_id, key, upload_id, initiated, meta)"
        + " VALUES (:b, :k, :u, :at, CAST(:meta AS jsonb))";
  }

  /** An upload, locked as asked. Binds: b, k, u. */
  public String findUpload(Lock lock) {
    return "SELECT key, upload_id, initiated, meta FROM " + s + ".upload"
        + " WHERE bucket_id = :b AND key = :k AND upload_id = :u" + rowLock(lock);
  }

  /** A part, stored over the one of its number. Binds: b, u, n, size, etag, at, loc. */
  public String upsertPart() {
    return insertPart() + " ON CONFLICT (bucket_id, upload_id, part_number) DO UPDATE SET"
        + " size = excluded.size, etag = excluded.etag, last_modified = excluded.last_modified,"
        + " locations = excluded.locations";
  }

  /** A part. Binds: b, u, n, size, etag, at, loc. */
  public String insertPart() {
    return "INSERT INTO " + s + ".part (bucket_id, upload_id, part_number, size, etag,"
        + " last_modified, locations) VALUES (:b, :u, :n, :size, :etag, :at, CAST(:loc AS jsonb))";
  }

  /** An upload's parts after a number, in order. Binds: b, u, after, limit. */
  public String listParts() {
    return "SELECT * FROM " + s + ".part WHERE bucket_id = :b AND upload_id = :u"
        + " AND part_number > :after ORDER BY part_number LIMIT :limit";
  }

  /** A part's GC record. Binds: b, kind, name, k, u, n, size, loc. */
  public String queuePart() {
    return "INSERT INTO " + s + ".deleted_object (bucket_id, kind, bucket, key, version_id,"
        + " part_number, size, locations) VALUES (:b, :kind, :name, :k, :u, :n, :size,"
        + " CAST(:loc AS jsonb))";
  }

  /** An upload's parts. Binds: b, u. */
  public String deleteParts() {
    return "DELETE FROM " + s + ".part WHERE bucket_id = :b AND upload_id = :u";
  }

  /** An upload. Binds: b, k, u. */
  public String deleteUpload() {
    return "DELETE FROM " + s + ".upload WHERE bucket_id = :b AND key = :k AND upload_id = :u";
  }

  // --------------------------------------------------------------------------- listing scans

  /**
   * A keyset page of one of the three scans: current objects (the live table), versions (the
   * history table of a versioned bucket, the live table of one never versioned) or uploads, from
   * a key ({@code first}) or after an entry ((key, version or upload id) > (:k, :v)). Binds: b,
   * k, limit, and v unless {@code first} (never for current objects, one per key).
   */
  public String scanPage(Scan scan, boolean first) {
    String after = scan == Scan.CURRENT ? "key > :k" : "(key, " + scan.id + ") > (:k, :v)";
    // (the upload scan binds its id as :v too)
    return "SELECT " + scan.columns + " FROM " + s + "." + scan.table + " WHERE bucket_id = :b AND "
        + (first ? "key >= :k" : after) + " ORDER BY key"
        + (scan == Scan.CURRENT ? "" : ", " + scan.id) + " LIMIT :limit";
  }

  /** The three scans: their table, columns and the id that orders a key's entries. */
  public enum Scan {
    CURRENT("object_live", LIVE_COLUMNS, "version_id"),
    LIVE_VERSIONS("object_live", LIVE_COLUMNS, "version_id"),
    VERSIONS("object_version", VERSION_COLUMNS, "version_id"),
    UPLOADS("upload", "key, upload_id, initiated, meta", "upload_id");

    final String table;
    final String columns;
    final String id;

    Scan(String table, String columns, String id) {
      this.table = table;
      this.columns = columns;
      this.id = id;
    }
  }

  // ---------------------------------------------------------------------- schema and scratch

  /** Whether a table exists. Binds: t (schema.table). */
  static String tableExists() {
    return "SELECT to_regclass(:t) IS NOT NULL";
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
