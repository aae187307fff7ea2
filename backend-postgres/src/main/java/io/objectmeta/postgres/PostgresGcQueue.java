package io.objectmeta.postgres;

import static io.objectmeta.postgres.PostgresMetadataStore.seconds;
import static io.objectmeta.postgres.PostgresMetadataStore.utf8;

import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbagePage;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.gc.GcQueueStats;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * The GC queue on PostgreSQL: {@code deleted_object} and {@code deleted_bucket} rows in (deletion
 * time, id) order, claimed a batch at a time under one lease row per claim.
 */
final class PostgresGcQueue implements io.objectmeta.api.spi.ComposedMetadataStore.GcQueue {
  private final PostgresMetadataStore store;

  PostgresGcQueue(PostgresMetadataStore store) {
    this.store = store;
  }

  /**
   * Two index scans in queue order, merged: object and part records by (deleted_at, id), then
   * deleted-bucket records of the same time by id. The cursor is the last record's place:
   * {@code o:<deleted_at µs>:<id>} or {@code b:<deleted_at µs>:<bucket id>}.
   */
  @Override
  public GarbagePage doListGarbage(String after, int limit) {
    GarbageCursor from = after == null ? null : GarbageCursor.parse(after);
    return store.jdbc(true, c -> {
      List<GarbageRecord> objects = new ArrayList<>();
      try (NamedSql.Bound q = store.prepare(c, store.sql.listObjectGarbage(from == null,
          from != null && from.bucket()))) {
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
      try (NamedSql.Bound q = store.prepare(c, store.sql.listBucketGarbage(from == null,
          from != null && !from.bucket()))) {
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

  static void bindGarbageCursor(NamedSql.Bound q, GarbageCursor from, Object id)
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
  record GarbageCursor(boolean bucket, Instant deletedAt, String id) {
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
  public int doRestoreGarbage(List<GarbageRecord> records) {
    List<GarbageRecord> objects = new ArrayList<>();
    List<GarbageRecord> buckets = new ArrayList<>();
    for (GarbageRecord r : records) {
      (r.kind() == GarbageRecord.Kind.BUCKET ? buckets : objects).add(r);
    }
    return store.jdbc(true, c -> {
      try (NamedSql.Bound q = store.prepare(c, store.sql.restoreGarbage())) {
        q.set("ob", objects.stream().map(r -> UUID.fromString(r.bucketId())).toArray(UUID[]::new))
            .set("okind", objects.stream().map(r -> (long) r.kind().ordinal()).toArray(Long[]::new))
            .set("obn", objects.stream().map(GarbageRecord::bucket).toArray(String[]::new))
            .set("ok", objects.stream().map(r -> java.util.HexFormat.of().formatHex(utf8(r.key())))
                .toArray(String[]::new))
            .set("ov", objects.stream().map(GarbageRecord::versionId).toArray(String[]::new))
            .set("opn", objects.stream().map(r -> (long) r.partNumber()).toArray(Long[]::new))
            .set("osz", objects.stream().map(GarbageRecord::size).toArray(Long[]::new))
            .set("oloc", objects.stream().map(r -> PostgresRows.json(r.dataLocations())).toArray(String[]::new))
            .set("oat", objects.stream().map(r -> PostgresMetadataStore.micros(r.deletedAt()).toString())
                .toArray(String[]::new))
            .set("oorigin", objects.stream().map(GarbageRecord::id).toArray(String[]::new))
            .set("bid", buckets.stream().map(r -> UUID.fromString(r.bucketId())).toArray(UUID[]::new))
            .set("bn", buckets.stream().map(GarbageRecord::bucket).toArray(String[]::new))
            .set("bat", buckets.stream().map(r -> PostgresMetadataStore.micros(r.deletedAt()).toString())
                .toArray(String[]::new))
            .set("borigin", buckets.stream().map(GarbageRecord::id).toArray(String[]::new));
        try (ResultSet rs = q.statement().executeQuery()) {
          rs.next();
          return rs.getInt("n");
        }
      }
    });
  }

  // ----------------------------------------------------------------------------------- GC queue

  @Override
  public GarbageClaim doClaimGarbage(int max, Duration gracePeriod, Duration lease) {
    UUID claim = UUID.randomUUID();
    double grace = seconds(gracePeriod);
    double hold = seconds(lease);
    // One transaction, claimers taking turns: drop expired leases, claim objects, and let
    // deleted-bucket records fill what is left of the batch.
    return store.jdbc(false, c -> {
      try (NamedSql.Bound q = store.prepare(c, store.sql.lockClaims())) {
        q.set("lock", store.claimLock).statement().execute();
      }
      try (java.sql.Statement st = c.createStatement()) {
        st.executeUpdate(store.sql.dropExpiredLeases());
      }
      List<GarbageRecord> out = new ArrayList<>(max);
      Instant until = null;
      try (NamedSql.Bound q = store.prepare(c, store.sql.claimObjects())) {
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
        try (NamedSql.Bound q = store.prepare(c, store.sql.claimBuckets())) {
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
  static GarbageRecord bucketGarbage(ResultSet rs) throws SQLException {
    return new GarbageRecord("b:" + rs.getString("id"), GarbageRecord.Kind.BUCKET,
        rs.getString("name"), rs.getString("id"), null, null, 0, 0, List.of(),
        rs.getTimestamp("deleted_at").toInstant());
  }

  /** Reads deleted_object rows (claimed or listed), its columns found once per result. */
  static final class ObjectGarbageColumns {
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
          rs.getInt(partNumber), rs.getLong(size), PostgresRows.locations(rs.getString(locations)),
          rs.getTimestamp(deletedAt).toInstant());
    }
  }

  @Override
  public int doAcknowledgeGarbage(String claimId, Collection<String> recordIds) {
    return settle(claimId, recordIds, false);
  }

  @Override
  public int doReleaseGarbage(String claimId, Collection<String> recordIds) {
    return settle(claimId, recordIds, true);
  }

  @Override
  public int doRenewGarbage(String claimId, Collection<String> recordIds, Duration lease) {
    UUID claim = claimUuid(claimId);
    ClaimedIds ids = ClaimedIds.of(recordIds);
    if (claim == null || ids == null) {
      return 0;
    }
    return store.jdbc(true, c -> {
      try (NamedSql.Bound q = store.prepare(c, store.sql.renewClaim())) {
        q.set("claim", claim).set("lease", seconds(lease)).set("oids", ids.objects())
            .set("bids", ids.buckets());
        try (ResultSet rs = q.statement().executeQuery()) {
          return rs.next() ? rs.getInt("n") : 0;
        }
      }
    });
  }

  static UUID claimUuid(String claimId) {
    try {
      return UUID.fromString(claimId);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Record ids of this store, parsed: object sequence numbers and deleted-bucket ids, sorted. */
  record ClaimedIds(long[] objects, UUID[] buckets) {
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
  int settle(String claimId, Collection<String> recordIds, boolean release) {
    UUID claim = claimUuid(claimId);
    ClaimedIds ids = ClaimedIds.of(recordIds);
    if (claim == null || ids == null) {
      return 0;
    }
    long[] oids = ids.objects();
    UUID[] bids = ids.buckets();
    Integer whole = store.jdbc(true, c -> {
      try (NamedSql.Bound q = store.prepare(c, store.sql.settleWholeClaim(release))) {
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
    return store.jdbc(false, c -> {
      int n;
      try (NamedSql.Bound q = store.prepare(c, store.sql.settlePartOfClaim(release))) {
        q.set("claim", claim).set("oids", oids).set("bids", bids);
        try (ResultSet rs = q.statement().executeQuery()) {
          rs.next();
          n = rs.getInt("n");
        }
      }
      try (NamedSql.Bound q = store.prepare(c, store.sql.dropEmptyLease())) {
        q.set("claim", claim).statement().executeUpdate();
      }
      return n;
    });
  }

  @Override
  public GcQueueStats gcQueueStats() {
    return store.jdbc(true, c -> {
      try (java.sql.Statement st = c.createStatement();
          ResultSet rs = st.executeQuery(store.sql.gcQueueStats())) {
        rs.next();
        return new GcQueueStats(rs.getLong("n"), rs.getLong("leased"),
            rs.getTimestamp("oldest") == null ? null : rs.getTimestamp("oldest").toInstant(),
            rs.getLong("bytes"));
      }
    });
  }
}
