package io.objectmeta.bigtable;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.bigtable.data.v2.models.BulkMutation;
import com.google.cloud.bigtable.data.v2.models.Mutation;
import com.google.cloud.bigtable.data.v2.models.Query;
import com.google.cloud.bigtable.data.v2.models.Row;
import com.google.protobuf.ByteString;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbagePage;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.gc.GcQueueStats;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import static com.google.cloud.bigtable.data.v2.models.Filters.FILTERS;
import static io.objectmeta.bigtable.Cells.*;

/**
 * The GC queue on Bigtable: the {@code gc} table, row keys spread over 16 shards and merged so that
 * claims and listings stay oldest-first; records are inserted held by the write that queued them
 * and claimed under a lease by a check-and-mutate per row.
 */
final class BigtableGcQueue implements io.objectmeta.api.spi.ComposedMetadataStore.GcQueue {
  private final BigtableMetadataStore s;

  BigtableGcQueue(BigtableMetadataStore s) {
    this.s = s;
  }

  /** Writes GC records held by {@code tag}: a claim skips them until they are released. */
  void insertGarbage(List<ObjectNode> records, String tag, String holder) {
    BulkMutation b = BulkMutation.create(s.gc);
    for (ObjectNode r : records) {
      Mutation m = Mutation.create();
      Bt.set(m, Bt.META, Bt.VERSION, Codec.version(1));
      Bt.set(m, Bt.DATA, RECORD, Codec.bytes(r));
      Bt.set(m, Bt.META, HELD, ByteString.copyFromUtf8(tag));
      Bt.set(m, Bt.META, HOLDER, ByteString.copyFromUtf8(holder));
      b.add(gcRow(r.get("id").asText()), m);
    }
    s.bt.bulk(b);
  }

  void releaseGarbage(List<ObjectNode> records) {
    BulkMutation b = BulkMutation.create(s.gc);
    for (ObjectNode r : records) {
      b.add(gcRow(r.get("id").asText()), Bt.clear(Bt.clear(Mutation.create(), Bt.META, HELD),
          Bt.META, HOLDER));
    }
    s.bt.bulk(b);
  }

  void removeGarbage(List<ObjectNode> records) {
    BulkMutation b = BulkMutation.create(s.gc);
    for (ObjectNode r : records) {
      b.add(gcRow(r.get("id").asText()), Mutation.create().deleteRow());
    }
    s.bt.bulk(b);
  }

  /** A record row as read. */
  record GcRow(ByteString row, long version, GarbageRecord record, String claim,
      long until, String held, String holder) {}

  /** A record row, or null for a row going away (a read overlapping its removal). */
  static GcRow gcRecord(Row r) {
    Long version = Bt.version(r);
    ByteString record = Bt.cell(r, Bt.DATA, RECORD);
    if (version == null || record == null) {
      return null;
    }
    ByteString c = Bt.cell(r, Bt.META, CLAIM);
    ByteString u = Bt.cell(r, Bt.META, UNTIL);
    ByteString h = Bt.cell(r, Bt.META, HELD);
    ByteString hk = Bt.cell(r, Bt.META, HOLDER);
    return new GcRow(r.getKey(), version, Codec.garbage(Codec.json(record)),
        c == null ? null : c.toStringUtf8(), u == null ? 0 : Codec.version(u),
        h == null ? null : h.toStringUtf8(), hk == null ? null : hk.toStringUtf8());
  }

  /**
   * The queue in order, one batch: every shard's rows with ids after {@code afterId} (null: from
   * the start) and before {@code beforeId} (null: to the end), read at once, merged by id (the
   * id starts with the record's time). A shard that filled its page bounds what is known to be
   * complete: the batch ends there, and {@code next} says where the following one starts (null:
   * nothing after it).
   */
  record GcBatch(List<GcRow> rows, String next) {}

  GcBatch gcBatch(String afterId, String beforeId, int perShard) {
    List<Query> queries = new ArrayList<>();
    for (int shardNo = 0; shardNo < GC_SHARDS; shardNo++) {
      ByteString shard = gcShard(shardNo);
      com.google.cloud.bigtable.data.v2.models.Range.ByteStringRange r =
          com.google.cloud.bigtable.data.v2.models.Range.ByteStringRange.unbounded();
      r = afterId == null ? r.startClosed(shard)
          : r.startOpen(shard.concat(ByteString.copyFromUtf8(afterId)));
      r = beforeId == null ? r.endOpen(Rows.after(shard))
          : r.endOpen(shard.concat(ByteString.copyFromUtf8(beforeId)));
      queries.add(Query.create(s.gc).range(r).limit(perShard));
    }
    String bound = null;
    List<GcRow> rows = new ArrayList<>();
    for (List<Row> got : s.bt.scanAll(queries)) {
      for (Row r : got) {
        GcRow g = gcRecord(r);
        if (g != null) {
          rows.add(g);
        }
      }
      if (got.size() == perShard) {
        String last = idOf(got.get(got.size() - 1).getKey());
        bound = bound == null || last.compareTo(bound) < 0 ? last : bound;
      }
    }
    rows.sort(Comparator.comparing(g -> idOf(g.row())));
    if (bound != null) {
      String b = bound;
      rows.removeIf(g -> idOf(g.row()).compareTo(b) > 0);
    }
    return new GcBatch(rows, bound);
  }

  @Override
  public GarbageClaim doClaimGarbage(int max, Duration gracePeriod, Duration lease) {
    Instant now = s.now();
    long nowMs = now.toEpochMilli();
    Instant until = GarbageClaim.leaseEndInMillis(now, lease);
    String cutoff = String.format("%019d", nanos(now.minus(gracePeriod)) + 1);
    String claim = UUID.randomUUID().toString();
    List<GarbageRecord> out = new ArrayList<>();
    String after = null;
    while (out.size() < max) {
      GcBatch batch = gcBatch(after, cutoff, Math.max(16, Math.min(max, 1000)));
      for (GcRow g : batch.rows()) {
        if (out.size() >= max) {
          break;
        }
        if (g.held() != null || (g.claim() != null && g.until() > nowMs)) {
          continue;
        }
        Mutation m = Mutation.create();
        Bt.set(m, Bt.META, Bt.VERSION, Codec.version(g.version() + 1));
        Bt.set(m, Bt.META, CLAIM, ByteString.copyFromUtf8(claim));
        Bt.set(m, Bt.META, UNTIL, Codec.version(until.toEpochMilli()));
        if (s.bt.cas(s.gc, g.row(), g.version(), m)) {
          out.add(g.record());
        }
      }
      if (batch.next() == null) {
        break;
      }
      after = batch.next();
    }
    return new GarbageClaim(claim, until, out);
  }

  List<GcRow> claimed(String claimId, Collection<String> recordIds) {
    Query q = Query.create(s.gc);
    boolean any = false;
    for (String id : recordIds) {
      ByteString row = id == null ? null : gcRow(id);
      if (row != null) {
        q.rowKey(row);
        any = true;
      }
    }
    List<GcRow> out = new ArrayList<>();
    if (!any) {
      return out;
    }
    for (Row r : s.bt.scan(q)) {
      GcRow g = gcRecord(r);
      if (g != null && claimId.equals(g.claim())) {
        out.add(g);
      }
    }
    return out;
  }

  @Override
  public int doAcknowledgeGarbage(String claimId, Collection<String> recordIds) {
    long nowMs = s.now().toEpochMilli();
    int n = 0;
    for (GcRow g : claimed(claimId, recordIds)) {
      if (g.until() > nowMs && s.bt.cas(s.gc, g.row(), g.version(), Mutation.create().deleteRow())) {
        n++;
        if (g.record().kind() == GarbageRecord.Kind.BUCKET) {
          dropBucketRows(g.record().bucketId());
        }
      }
    }
    return n;
  }

  /** A deleted bucket's rows (its closed counters, rows of writes that lost to the delete). */
  void dropBucketRows(String bucketId) {
    Rows rows = new Rows(bucketId);
    while (true) {
      List<Row> got = s.bt.scan(Query.create(s.objects).range(rows.start(), rows.end()).limit(1000),
          FILTERS.limit().cellsPerRow(1));
      if (got.isEmpty()) {
        return;
      }
      BulkMutation b = BulkMutation.create(s.objects);
      for (Row r : got) {
        b.add(r.getKey(), Mutation.create().deleteRow());
      }
      s.bt.bulk(b);
    }
  }

  @Override
  public int doRenewGarbage(String claimId, Collection<String> recordIds, Duration lease) {
    Instant now = s.now();
    long until = GarbageClaim.leaseEndInMillis(now, lease).toEpochMilli();
    int n = 0;
    for (GcRow g : claimed(claimId, recordIds)) {
      if (g.until() <= now.toEpochMilli()) {
        continue; // ended: another claim may hold it already
      }
      Mutation m = Mutation.create();
      Bt.set(m, Bt.META, UNTIL, Codec.version(until));
      Bt.set(m, Bt.META, Bt.VERSION, Codec.version(g.version() + 1));
      if (s.bt.cas(s.gc, g.row(), g.version(), m)) {
        n++;
      }
    }
    return n;
  }

  @Override
  public int doReleaseGarbage(String claimId, Collection<String> recordIds) {
    int n = 0;
    for (GcRow g : claimed(claimId, recordIds)) {
      Mutation m = Bt.clear(Bt.clear(Mutation.create(), Bt.META, CLAIM), Bt.META, UNTIL);
      Bt.set(m, Bt.META, Bt.VERSION, Codec.version(g.version() + 1));
      if (s.bt.cas(s.gc, g.row(), g.version(), m)) {
        n++;
      }
    }
    return n;
  }

  @Override
  public GcQueueStats gcQueueStats() {
    long total = 0;
    long leased = 0;
    long bytes = 0;
    Instant oldest = null;
    long nowMs = s.now().toEpochMilli();
    ByteString start = ByteString.EMPTY;
    while (true) {
      List<Row> got = s.bt.scan(Query.create(s.gc).range(Bt.from(start)).limit(1000));
      for (Row r : got) {
        GcRow g = gcRecord(r);
        if (g == null) {
          continue;
        }
        total++;
        bytes += g.record().size();
        if (g.claim() != null && g.until() > nowMs) {
          leased++;
        }
        if (oldest == null || g.record().deletedAt().isBefore(oldest)) {
          oldest = g.record().deletedAt();
        }
      }
      if (got.size() < 1000) {
        return new GcQueueStats(total, leased, oldest, bytes);
      }
      start = Rows.successor(got.get(got.size() - 1).getKey());
    }
  }

  @Override
  public GarbagePage doListGarbage(String after, int limit) {
    if (after != null && gcRow(after) == null) {
      throw new InvalidArgumentException("after", "not a cursor this store returned: \"" + after
          + "\"");
    }
    List<GcRow> got = new ArrayList<>();
    String from = after;
    while (got.size() <= limit) {
      GcBatch batch = gcBatch(from, null, Math.min(limit + 1, 1000));
      got.addAll(batch.rows());
      if (batch.next() == null) {
        break;
      }
      from = batch.next();
    }
    boolean more = got.size() > limit;
    List<GcRow> page = more ? got.subList(0, limit) : got;
    List<GarbageRecord> out = new ArrayList<>(page.size());
    for (GcRow g : page) {
      out.add(g.record());
    }
    return new GarbagePage(out, more, more ? idOf(page.get(page.size() - 1).row()) : null);
  }

  @Override
  public int doRestoreGarbage(List<GarbageRecord> records) {
    int added = 0;
    for (GarbageRecord r : records) {
      String id = String.format("%019d", nanos(r.deletedAt())) + "-o:" + r.id();
      GarbageRecord mine = new GarbageRecord(id, r.kind(), r.bucket(), r.bucketId(), r.key(),
          r.versionId(), r.partNumber(), r.size(), r.dataLocations(), r.deletedAt());
      Mutation m = Mutation.create();
      Bt.set(m, Bt.META, Bt.VERSION, Codec.version(1));
      Bt.set(m, Bt.DATA, RECORD, Codec.bytes(Codec.garbage(mine)));
      if (s.bt.cas(s.gc, gcRow(id), null, m)) {
        added++;
      }
    }
    return added;
  }
}
