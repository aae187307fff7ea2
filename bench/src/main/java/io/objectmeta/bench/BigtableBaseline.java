package io.objectmeta.bench;

import io.objectmeta.bigtable.Cells;

import static com.google.cloud.bigtable.data.v2.models.Filters.FILTERS;

import com.google.api.core.ApiFuture;
import com.google.cloud.bigtable.data.v2.BigtableDataClient;
import com.google.cloud.bigtable.data.v2.models.BulkMutation;
import com.google.cloud.bigtable.data.v2.models.ConditionalRowMutation;
import com.google.cloud.bigtable.data.v2.models.Filters;
import com.google.cloud.bigtable.data.v2.models.Mutation;
import com.google.cloud.bigtable.data.v2.models.Query;
import com.google.cloud.bigtable.data.v2.models.Range.ByteStringRange;
import com.google.cloud.bigtable.data.v2.models.ReadModifyWriteRow;
import com.google.cloud.bigtable.data.v2.models.Row;
import com.google.cloud.bigtable.data.v2.models.RowCell;
import com.google.cloud.bigtable.data.v2.models.RowMutation;
import com.google.cloud.bigtable.data.v2.models.TableId;
import com.google.protobuf.ByteString;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.model.WriteCondition;
import io.objectmeta.api.version.VersionId;
import io.objectmeta.api.version.VersionIdGenerator;
import io.objectmeta.api.versioning.KeyChange;
import io.objectmeta.api.versioning.KeyHistory;
import io.objectmeta.api.versioning.KeyWrites;
import io.objectmeta.bigtable.Bt;
import io.objectmeta.bigtable.Codec;
import io.objectmeta.bigtable.Intent;
import io.objectmeta.bigtable.Rows;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.function.IntFunction;

/**
 * The Bigtable backend's raw-client baseline: for each operation, the very RPCs
 * {@code BigtableMetadataStore} sends (same tables, rows, filters, conditions, mutations, in the
 * same order, so the same round trips), on a {@link BigtableDataClient} of its own, with the
 * cells built before the timed loop by the backend's own codec ({@code Rows}, {@code Codec},
 * {@code Intent}). The bucket row is not read: the backend serves it from its cache. What the
 * loop does not do is the backend's own work: validation, the versioning rules, planning the
 * intent, decoding the key row's history into versions.
 *
 * <p>A write: the key row read (newest cell per column); a check-and-mutate of the key row on
 * its version cell (the new version's column set, removed ones deleted, the count of version
 * columns, the version moved on, the intent recorded); one read-modify-write of the key's usage counter shard (reads the
 * shard's close, adds the deltas, appends the intent's applied marker); the GC records written
 * held (bulk), when the write frees data; the master row set or removed, fenced on the key row's
 * version; a check-and-mutate that clears (empties) the intent, or removes the row when nothing
 * is left; the GC records released (their hold cells emptied, bulk); the applied marker deleted
 * (asynchronously). Get latest reads the key row's own cells and its newest version column; get
 * by version id the whole row. The GC drain is the backend's claim (the 16 shards of the queue read at once, a
 * check-and-mutate per record claimed) and acknowledgement (the claimed rows read back, a
 * check-and-mutate that deletes each), per batch.
 */
final class BigtableBaseline implements Baseline {
  private static final Duration LEASE = Duration.ofMinutes(10);
  private static final Filters.Filter HAS_VERSION = FILTERS.chain()
      .filter(FILTERS.family().exactMatch(Bt.META)).filter(FILTERS.qualifier().exactMatch(Bt.VERSION));

  private final BigtableDataClient client;
  private final TableId buckets;
  private final TableId objects;
  private final TableId gc;
  private final int gcBatch;
  private final VersionIdGenerator ids = new VersionIdGenerator();

  BigtableBaseline(BigtableDataClient client, String tablePrefix, int gcBatch) {
    this.client = client;
    this.buckets = TableId.of(tablePrefix + "buckets");
    this.objects = TableId.of(tablePrefix + "objects");
    this.gc = TableId.of(tablePrefix + "gc");
    this.gcBatch = gcBatch;
  }

  @Override
  public String note(Workload w) {
    return w == Workload.GC_DRAIN ? "the backend's claim and acknowledge RPCs, raw" : null;
  }

  /** The bucket's id, from its row (untimed). */
  private String bucketId(String bucket) {
    Row r = client.readRow(buckets, ByteString.copyFromUtf8(Cells.BUCKET_ROWS + bucket),
        Bt.LATEST);
    ByteString json = Bt.cell(r, Bt.META, Cells.BUCKET);
    if (json == null) {
      throw new IllegalStateException("no bucket " + bucket);
    }
    return Codec.json(json).get("id").asText();
  }

  // ------------------------------------------------------------------------------ the RPCs

  /** The backend's check-and-mutate on a row's version cell ({@code Bt.cas}). */
  private boolean cas(ByteString row, long expected, Mutation m) {
    Filters.Filter is = FILTERS.chain().filter(FILTERS.family().exactMatch(Bt.META))
        .filter(FILTERS.qualifier().exactMatch(Bt.VERSION)).filter(FILTERS.limit().cellsPerColumn(1))
        .filter(FILTERS.value().exactMatch(Codec.version(expected)));
    return client.checkAndMutateRow(ConditionalRowMutation.create(objects, row).condition(is)
        .then(m));
  }

  private boolean casGc(ByteString row, long expected, Mutation m) {
    Filters.Filter is = FILTERS.chain().filter(FILTERS.family().exactMatch(Bt.META))
        .filter(FILTERS.qualifier().exactMatch(Bt.VERSION)).filter(FILTERS.limit().cellsPerColumn(1))
        .filter(FILTERS.value().exactMatch(Codec.version(expected)));
    return client.checkAndMutateRow(ConditionalRowMutation.create(gc, row).condition(is).then(m));
  }

  /** The backend's fenced write of a master ({@code Bt.fenced}): unless the row is newer. */
  private void fenced(ByteString row, long fence, Mutation m) {
    Filters.Filter newer = FILTERS.chain().filter(FILTERS.family().exactMatch(Bt.META))
        .filter(FILTERS.qualifier().exactMatch(Bt.VERSION)).filter(FILTERS.limit().cellsPerColumn(1))
        .filter(FILTERS.value().range().startOpen(Codec.version(fence)));
    client.checkAndMutateRow(ConditionalRowMutation.create(objects, row).condition(newer)
        .otherwise(m));
  }

  // ----------------------------------------------------------------------------------- writes

  /**
   * One write, prepared. {@code column}/{@code value}: the version column it sets (none for a
   * delete by version id); {@code removed}: the column it deletes when known in advance;
   * {@code replaces}: an unversioned overwrite, which deletes the column of the null version it
   * reads (its revision is only known then, as in the backend). {@code added}: how many version
   * columns the write adds (the row's count {@code m:n} is what it reads plus that).
   * {@code master}: the master row's new cell, null to remove the row.
   */
  private record Write(ByteString row, ByteString column, ByteString value, ByteString removed,
      boolean replaces, int added, ByteString intent, ReadModifyWriteRow usage, BulkMutation held,
      ByteString masterRow, ByteString master, boolean drop, BulkMutation release,
      RowMutation marker) {}

  @Override
  public Phase writes(Workload w, String bucket, IntFunction<List<Op>> plan) {
    return new Phase() {
      List<Write> writes;

      @Override
      public void prepare(int it) {
        String bucketId = bucketId(bucket);
        Rows rows = new Rows(bucketId);
        writes = new ArrayList<>();
        for (Op o : plan.apply(it)) {
          writes.add(write(w, bucket, bucketId, rows, o));
        }
      }

      @Override
      public long run(int it) {
        for (Write x : writes) {
          execute(x);
        }
        return writes.size();
      }
    };
  }

  /**
   * Plans a write with the shared versioning rules over the history the key has when the
   * operation runs (its one relevant version: {@code previous}), and encodes what the backend
   * would commit: the version column, the intent (usage delta, GC records, master, drop).
   */
  private Write write(Workload w, String bucket, String bucketId, Rows rows, Op o) {
    String key = o.key();
    // the revision of the version the key holds, older than the one written: only its id
    // matters to the rules (a delete by version id names it; an overwrite queues the null
    // version, whose id is "null")
    VersionId had = o.versionId() != null ? VersionId.decode(o.versionId(), "versionId")
        : ids.next();
    VersionId rev = ids.next();
    ObjectVersion before = new ObjectVersion(key, had, w == Workload.PUT_UNVERSIONED, false, true,
        o.previous());
    KeyHistory h = new KeyHistory(key, List.of(before));
    KeyChange c = switch (w) {
      case PUT_UNVERSIONED -> KeyWrites.put(h, VersioningState.UNVERSIONED, o.metadata(),
          WriteCondition.none(), rev);
      case PUT_VERSIONED -> KeyWrites.put(h, VersioningState.ENABLED, o.metadata(),
          WriteCondition.none(), rev);
      case DELETE_MARKER -> KeyWrites.delete(h, VersioningState.ENABLED, rev);
      case DELETE_VERSION -> KeyWrites.deleteVersion(h, o.versionId());
      default -> throw new IllegalArgumentException(w.toString());
    };
    ByteString column = null;
    ByteString value = null;
    for (ObjectVersion v : c.after().versions()) {
      if (v.revision().equals(rev)) {
        column = Rows.versionColumn(rev);
        value = Codec.bytes(Codec.version(v));
      }
    }
    ByteString removed = w == Workload.DELETE_VERSION ? Rows.versionColumn(had) : null;
    Instant at = Instant.now();
    String tag = Intent.newTag();
    List<ObjectNode> garbage = new ArrayList<>();
    for (ObjectVersion v : c.garbage()) {
      garbage.add(Codec.garbage(new GarbageRecord(Cells.gcId(at, tag, garbage.size()),
          GarbageRecord.Kind.OBJECT_VERSION, bucket, bucketId, key, v.versionId(), 0, v.size(),
          v.metadata().dataLocations(), at)));
    }
    int shard = Cells.shardOf(key);
    ObjectVersion current = c.after().current();
    boolean drop = c.after().isEmpty();
    Intent intent = new Intent(tag, at.toEpochMilli(), shard, Codec.counters(c.usageDelta()),
        garbage, List.of(), true, drop);
    ByteString counter = rows.counter(shard);
    ByteString tagColumn = ByteString.copyFromUtf8(tag);
    ReadModifyWriteRow usage = ReadModifyWriteRow.create(objects, counter)
        .increment(Bt.COUNT, Cells.CLOSED, 0);
    long[] u = intent.usage();
    for (int i = 0; i < u.length; i++) {
      if (u[i] != 0) {
        usage.increment(Bt.COUNT, ByteString.copyFromUtf8(Codec.COUNTERS[i]), u[i]);
      }
    }
    usage.append(Bt.APPLIED, tagColumn, Cells.PLUS);
    BulkMutation held = null;
    BulkMutation release = null;
    if (!garbage.isEmpty()) {
      held = BulkMutation.create(gc);
      release = BulkMutation.create(gc);
      String holder = Cells.keyHolder(rows.key(key));
      for (ObjectNode g : garbage) {
        ByteString gcRow = Cells.gcRow(g.get("id").asText());
        Mutation m = Mutation.create();
        Bt.set(m, Bt.META, Bt.VERSION, Codec.version(1));
        Bt.set(m, Bt.DATA, Cells.RECORD, Codec.bytes(g));
        Bt.set(m, Bt.META, Cells.HELD, tagColumn);
        Bt.set(m, Bt.META, Cells.HOLDER, ByteString.copyFromUtf8(holder));
        held.add(gcRow, m);
        release.add(gcRow, Bt.clear(Bt.clear(Mutation.create(), Bt.META, Cells.HELD),
            Bt.META, Cells.HOLDER));
      }
    }
    return new Write(rows.key(key), column, value, removed, w == Workload.PUT_UNVERSIONED,
        c.after().versions().size() - c.before().versions().size(), intent.encode(), usage, held, rows.master(key),
        current == null ? null : Codec.bytes(Codec.master(current)), drop, release,
        intent.countsUsage() ? RowMutation.create(objects, counter,
            Mutation.create().deleteCells(Bt.APPLIED, tagColumn)) : null);
  }

  private void execute(Write x) {
    Row r = client.readRow(objects, x.row(), Bt.LATEST);
    Long v = Bt.version(r);
    if (v == null) {
      throw new IllegalStateException("baseline: no key row");
    }
    Mutation m = Mutation.create();
    if (x.column() != null) {
      Bt.set(m, Bt.DATA, x.column(), x.value());
    }
    if (x.replaces()) {
      for (RowCell c : r.getCells(Bt.DATA)) {
        m.deleteCells(Bt.DATA, c.getQualifier());
      }
    }
    if (x.removed() != null) {
      m.deleteCells(Bt.DATA, x.removed());
    }
    Bt.set(m, Bt.META, Cells.COUNT, Codec.version(r.getCells(Bt.DATA).size()
        + x.added()));
    Bt.set(m, Bt.META, Bt.VERSION, Codec.version(v + 1));
    Bt.set(m, Bt.META, Cells.INTENT, x.intent());
    if (!cas(x.row(), v, m)) {
      throw new IllegalStateException("baseline: the key row moved");
    }
    long committed = v + 1;
    ByteString closed = Bt.cell(client.readModifyWriteRow(x.usage()), Bt.COUNT,
        Cells.CLOSED);
    if (closed != null && Codec.version(closed) != 0) {
      throw new IllegalStateException("baseline: the bucket is being deleted");
    }
    if (x.held() != null) {
      client.bulkMutateRows(x.held());
    }
    Mutation master;
    if (x.master() != null) {
      master = Mutation.create();
      Bt.set(master, Bt.META, Bt.VERSION, Codec.version(committed));
      Bt.set(master, Bt.DATA, Cells.MASTER, x.master());
    } else {
      master = Mutation.create().deleteRow();
    }
    fenced(x.masterRow(), committed, master);
    Mutation clear = x.drop() ? Mutation.create().deleteRow()
        : Bt.set(Bt.clear(Mutation.create(), Bt.META, Cells.INTENT), Bt.META,
            Bt.VERSION, Codec.version(committed + 1));
    if (!cas(x.row(), committed, clear)) {
      throw new IllegalStateException("baseline: the key row moved");
    }
    if (x.release() != null) {
      client.bulkMutateRows(x.release());
    }
    if (x.marker() != null) {
      client.mutateRowAsync(x.marker());
    }
  }

  // ------------------------------------------------------------------------------------- gets

  @Override
  public Phase gets(Workload w, String bucket, IntFunction<List<Op>> plan) {
    return new Phase() {
      List<ByteString> rows;

      @Override
      public void prepare(int it) {
        Rows r = new Rows(bucketId(bucket));
        rows = new ArrayList<>();
        for (Op o : plan.apply(it)) {
          rows.add(r.key(o.key()));
        }
      }

      @Override
      public long run(int it) {
        // latest: the row's own cells and its newest version column; by version id: the whole
        // history
        Filters.Filter f = w == Workload.GET_LATEST ? FILTERS.chain().filter(Bt.LATEST).filter(Cells.LATEST_VERSION) : Bt.LATEST;
        for (ByteString row : rows) {
          if (client.readRow(objects, row, f) == null) {
            throw new IllegalStateException("baseline: no key row");
          }
        }
        return rows.size();
      }
    };
  }

  // --------------------------------------------------------------------------------- GC drain

  /** A GC row as the claim reads it (the record's cell is read, not decoded). */
  private record GcRow(ByteString row, long version, ByteString record, String claim, long until,
      boolean held) {
    /** The row, or null for a row going away (a read overlapping its removal). */
    static GcRow of(Row r) {
      Long version = Bt.version(r);
      ByteString record = Bt.cell(r, Bt.DATA, Cells.RECORD);
      if (version == null || record == null) {
        return null;
      }
      ByteString c = Bt.cell(r, Bt.META, Cells.CLAIM);
      ByteString u = Bt.cell(r, Bt.META, Cells.UNTIL);
      return new GcRow(r.getKey(), version, record,
          c == null ? null : c.toStringUtf8(), u == null ? 0 : Codec.version(u),
          Bt.cell(r, Bt.META, Cells.HELD) != null);
    }
  }

  private record GcBatch(List<GcRow> rows, String next) {}

  /** The backend's merged read of the 16 shards (its {@code gcBatch}), every field read. */
  private GcBatch gcBatch(String afterId, String beforeId, int perShard) {
    List<ApiFuture<List<Row>>> futures = new ArrayList<>();
    for (int s = 0; s < Cells.GC_SHARDS; s++) {
      ByteString shard = Cells.gcShard(s);
      ByteStringRange r = ByteStringRange.unbounded();
      r = afterId == null ? r.startClosed(shard)
          : r.startOpen(shard.concat(ByteString.copyFromUtf8(afterId)));
      r = beforeId == null ? r.endOpen(Rows.after(shard))
          : r.endOpen(shard.concat(ByteString.copyFromUtf8(beforeId)));
      futures.add(client.readRowsCallable().all().futureCall(Query.create(gc).range(r)
          .limit(perShard).filter(Bt.LATEST)));
    }
    String bound = null;
    List<GcRow> rows = new ArrayList<>();
    for (ApiFuture<List<Row>> f : futures) {
      List<Row> got = com.google.api.gax.rpc.ApiExceptions.callAndTranslateApiException(f);
      for (Row r : got) {
        GcRow g = GcRow.of(r);
        if (g != null) {
          rows.add(g);
        }
      }
      if (got.size() == perShard) {
        String last = Cells.idOf(got.get(got.size() - 1).getKey());
        bound = bound == null || last.compareTo(bound) < 0 ? last : bound;
      }
    }
    rows.sort(Comparator.comparing(g -> Cells.idOf(g.row())));
    if (bound != null) {
      String b = bound;
      rows.removeIf(g -> Cells.idOf(g.row()).compareTo(b) > 0);
    }
    return new GcBatch(rows, bound);
  }

  /**
   * Per batch, the backend's claim (the shards read at once up to the grace cutoff, a
   * check-and-mutate per free record stamping the claim and lease) and acknowledgement (the
   * claimed rows read back by key, a check-and-mutate per row deleting it). Until a claim finds
   * nothing.
   */
  @Override
  public Phase gcDrain() {
    return it -> {
      long total = 0;
      while (true) {
        Instant now = Instant.now();
        long nowMs = now.toEpochMilli();
        Instant until = io.objectmeta.api.gc.GarbageClaim.leaseEndInMillis(now, LEASE);
        String cutoff = String.format("%019d", Cells.nanos(now) + 1);
        ByteString claim = ByteString.copyFromUtf8(UUID.randomUUID().toString());
        ByteString untilCell = Codec.version(until.toEpochMilli());
        List<ByteString> claimed = new ArrayList<>();
        String after = null;
        while (claimed.size() < gcBatch) {
          GcBatch batch = gcBatch(after, cutoff, Math.max(16, Math.min(gcBatch, 1000)));
          for (GcRow g : batch.rows()) {
            if (claimed.size() >= gcBatch) {
              break;
            }
            if (g.held() || (g.claim() != null && g.until() > nowMs)) {
              continue;
            }
            Mutation m = Mutation.create();
            Bt.set(m, Bt.META, Bt.VERSION, Codec.version(g.version() + 1));
            Bt.set(m, Bt.META, Cells.CLAIM, claim);
            Bt.set(m, Bt.META, Cells.UNTIL, untilCell);
            if (casGc(g.row(), g.version(), m)) {
              claimed.add(g.row());
            }
          }
          if (batch.next() == null) {
            break;
          }
          after = batch.next();
        }
        if (claimed.isEmpty()) {
          return total;
        }
        Query q = Query.create(gc).filter(Bt.LATEST);
        for (ByteString row : claimed) {
          q.rowKey(row);
        }
        long ackMs = Instant.now().toEpochMilli();
        String mine = claim.toStringUtf8();
        for (Row r : client.readRows(q)) {
          GcRow g = GcRow.of(r);
          if (g != null && mine.equals(g.claim()) && g.until() > ackMs
              && casGc(g.row(), g.version(), Mutation.create().deleteRow())) {
            total++;
          }
        }
      }
    };
  }

  @Override
  public void close() {
    client.close();
  }
}
