package io.objectmeta.bigtable;

import static io.objectmeta.bigtable.BigtableMetadataStore.bucketRow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.bigtable.data.v2.models.Filters;
import com.google.cloud.bigtable.data.v2.models.Query;
import com.google.cloud.bigtable.data.v2.models.ReadModifyWriteRow;
import com.google.cloud.bigtable.data.v2.models.Row;
import com.google.protobuf.ByteString;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.ObjectVersion;
import java.time.Duration;
import java.util.List;
import static com.google.cloud.bigtable.data.v2.models.Filters.FILTERS;
import static io.objectmeta.bigtable.Cells.*;

/**
 * What finishes the work of writers that died: every intent older than the lease rolled forward,
 * a bucket close left by a dead delete lifted, GC records held by finished writes settled.
 */
final class BigtableRepair {
  private final BigtableMetadataStore s;

  BigtableRepair(BigtableMetadataStore s) {
    this.s = s;
  }

  // ------------------------------------------------------------------------------------- repair

  /**
   * Rolls forward every intent older than the lease (left by a process that died between the
   * steps of a write) in every bucket's key and upload rows, and settles GC records still held
   * by finished writes. Runs every {@code repairIntervalMs} in the background; a reader or writer
   * that meets a stale intent rolls it forward itself; it also runs once when a store opens (a
   * process that restarts after a crash finishes what it left). Returns how many intents it
   * rolled forward.
   * It scans the key and upload rows of every bucket (the server filters them down to rows with
   * an intent): run it rarely on large deployments.
   */
  public int repair() {
    return repair(s.config.intentLease());
  }

  /** As {@link #repair()}, for intents older than {@code age} (tests: zero). */
  int repair(Duration age) {
    long cutoff = s.lease.cutoffMillis(age);
    int n = 0;
    Filters.Filter withIntent = FILTERS.chain().filter(FILTERS.family().exactMatch(Bt.META))
        .filter(FILTERS.qualifier().exactMatch(INTENT)).filter(Bt.NOT_EMPTY);
    for (Bucket b : s.bucketOps.allBuckets()) {
      Rows rows = new Rows(b.id());
      liftStaleClose(rows, cutoff);
      for (ByteString[] range : List.of(new ByteString[] {rows.keysStart(), rows.keysEnd()},
          new ByteString[] {rows.uploadsStart(), rows.uploadsEnd()})) {
        for (Row hit : s.bt.scan(Query.create(s.objects).range(range[0], range[1]), withIntent)) {
          boolean isKey = range[0].equals(rows.keysStart());
          Row r = s.bt.read(s.objects, hit.getKey());
          ByteString i = Bt.cell(r, Bt.META, INTENT);
          if (i == null) {
            continue;
          }
          Intent intent = Intent.decode(i);
          if (intent.since() > cutoff) {
            continue;
          }
          String key = isKey ? rows.keyOf(r.getKey()) : null;
          ObjectVersion current = isKey ? s.keys.keyRow(rows, key).history(key).current() : null;
          if (s.intents.rollForward(null, rows, key, r.getKey(), Bt.version(r), intent, current)) {
            n++;
          }
        }
      }
    }
    settleHolds(cutoff);
    return n;
  }

  /**
   * A close of the bucket's counters older than the cutoff was left by a delete that died: each
   * shard takes back exactly the close it holds (a close added meanwhile stays).
   */
  void liftStaleClose(Rows rows, long cutoffMs) {
    for (Row r : s.bt.scan(Query.create(s.objects).range(rows.countersStart(), rows.countersEnd()),
        FILTERS.chain().filter(FILTERS.family().exactMatch(Bt.COUNT))
            .filter(FILTERS.qualifier().exactMatch(CLOSED)))) {
      ByteString c = Bt.cell(r, Bt.COUNT, CLOSED);
      long v = c == null ? 0 : Codec.version(c);
      if (v > 0 && v <= cutoffMs) {
        s.bt.rmw(ReadModifyWriteRow.create(s.objects, r.getKey()).increment(Bt.COUNT, CLOSED, -v));
      }
    }
  }

  /**
   * GC records still held although their write is over: released when the write finished (its
   * intent is gone), removed when a bucket delete did not happen (the bucket is still there).
   */
  void settleHolds(long cutoffMs) {
    Filters.Filter held = FILTERS.chain().filter(FILTERS.family().exactMatch(Bt.META))
        .filter(FILTERS.qualifier().exactMatch(HELD)).filter(Bt.NOT_EMPTY);
    for (Row hit : s.bt.scan(Query.create(s.gc), held)) {
      BigtableGcQueue.GcRow g = s.queue.gcRecord(s.bt.read(s.gc, hit.getKey()));
      if (g == null || g.held() == null || g.record().deletedAt().toEpochMilli() > cutoffMs) {
        continue;
      }
      List<ObjectNode> one = List.of(Codec.garbage(g.record()));
      if (g.holder().startsWith("k:")) {
        ByteString row = ByteString.copyFrom(java.util.Base64.getDecoder()
            .decode(g.holder().substring(2)));
        ByteString i = Bt.cell(s.bt.read(s.objects, row), Bt.META, INTENT);
        if (i == null || !Intent.decode(i).tag().equals(g.held())) {
          s.queue.releaseGarbage(one);
        }
      } else if (g.holder().startsWith("b:")) {
        String[] parts = g.holder().split(":", 3);
        Row b = s.bt.read(s.buckets, bucketRow(parts[2]));
        ByteString json = Bt.cell(b, Bt.META, BUCKET);
        if (json != null && Codec.json(json).get("id").asText().equals(parts[1])) {
          s.queue.removeGarbage(one);
        } else {
          s.queue.releaseGarbage(one);
        }
      }
    }
  }
}
