package io.objectmeta.bigtable;

import com.google.cloud.bigtable.data.v2.models.BulkMutation;
import com.google.cloud.bigtable.data.v2.models.Mutation;
import com.google.cloud.bigtable.data.v2.models.ReadModifyWriteRow;
import com.google.cloud.bigtable.data.v2.models.Row;
import com.google.protobuf.ByteString;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.spi.IntentProtocol;
import static io.objectmeta.bigtable.Cells.*;

/**
 * The steps that follow a committed key or upload row on Bigtable, recorded as an {@link Intent} in
 * that row and applied in order, each idempotent: the usage counters (one read-modify-write that
 * also reads the bucket's close), the GC records (held), rows to remove, the master (fenced on the
 * key row's version), the clear, the release. A writer that died leaves the intent; whoever meets
 * it after its lease takes it over and applies it again.
 */
final class BigtableIntents {
  private final BigtableMetadataStore s;

  BigtableIntents(BigtableMetadataStore s) {
    this.s = s;
  }

  /**
   * Applies a committed intent; when the bucket is being deleted, waits for the delete to decide
   * (gone: NoSuchBucket, the write stays in the dead bucket's rows) and applies the rest. Unlike
   * MongoDB's, a Bigtable intent is not withdrawn: its usage step already ran (the close is read
   * by the counters' read-modify-write itself), so it is finished in place.
   */
  void finish(BigtableMetadataStore.BucketRow b, Rows rows, String key, ByteString row, long v, Intent intent,
      ObjectVersion current, boolean replay, IntentProtocol.Waits waits) {
    while (true) {
      Long closed = apply(rows, key, row, v, intent, current, replay);
      if (closed == null) {
        return;
      }
      s.bucketOps.awaitBucket(b, waits, closed);
      replay = true;
    }
  }

  /**
   * The steps after a commit, each idempotent: the usage counters (one read-modify-write that
   * also marks the intent applied and reads the bucket's close), the GC records (held), the rows
   * to remove, the master (fenced on the key row's version {@code v}), the clear of the intent
   * (or the row's removal), the release of the GC records. Returns null when done, or the
   * bucket's close time when the bucket is being deleted (nothing after the usage step ran).
   */
  Long apply(Rows rows, String key, ByteString row, long v, Intent in,
      ObjectVersion current, boolean replay) {
    if (in.countsUsage() || !replay) {
      ByteString counter = rows.counter(in.shard());
      ByteString tag = ByteString.copyFromUtf8(in.tag());
      boolean applied = false;
      if (replay) {
        // a replay may follow a wait for a bucket delete: the close is read again either way
        Row shard = s.bt.read(s.objects, counter);
        applied = Bt.cell(shard, Bt.APPLIED, tag) != null;
        ByteString closed = Bt.cell(shard, Bt.COUNT, CLOSED);
        if (applied && closed != null && Codec.version(closed) != 0) {
          return Codec.version(closed);
        }
      }
      if (!applied) {
        ReadModifyWriteRow rmw = ReadModifyWriteRow.create(s.objects, counter)
            .increment(Bt.COUNT, CLOSED, 0);
        if (in.countsUsage()) {
          long[] u = in.usage();
          for (int i = 0; i < u.length; i++) {
            if (u[i] != 0) {
              rmw.increment(Bt.COUNT, ByteString.copyFromUtf8(Codec.COUNTERS[i]), u[i]);
            }
          }
          rmw.append(Bt.APPLIED, tag, PLUS);
        }
        // the close is read in the same atomic step; a close found here means the write is
        // counted in a bucket whose delete is deciding: the caller waits for the outcome
        ByteString closed = Bt.cell(s.bt.rmw(rmw), Bt.COUNT, CLOSED);
        if (closed != null && Codec.version(closed) != 0) {
          return Codec.version(closed);
        }
      }
    }
    s.step("usage");
    if (!in.garbage().isEmpty()) {
      s.queue.insertGarbage(in.garbage(), in.tag(), Cells.keyHolder(row));
      s.step("garbage");
    }
    if (!in.deletes().isEmpty()) {
      BulkMutation b = BulkMutation.create(s.objects);
      for (ByteString d : in.deletes()) {
        b.add(d, Mutation.create().deleteRow());
      }
      s.bt.bulk(b);
      s.step("deletes");
    }
    if (in.master() && key != null) {
      Mutation m = Mutation.create();
      if (current != null) {
        Bt.set(m, Bt.META, Bt.VERSION, Codec.version(v));
        Bt.set(m, Bt.DATA, MASTER, Codec.bytes(Codec.master(current)));
      } else {
        m.deleteRow();
      }
      s.bt.fenced(s.objects, rows.master(key), v, m);
      s.step("master");
    }
    Mutation clear = in.drop() ? Mutation.create().deleteRow()
        : Bt.set(Bt.clear(Mutation.create(), Bt.META, INTENT), Bt.META, Bt.VERSION,
            Codec.version(v + 1));
    if (!s.bt.cas(s.objects, row, v, clear)) {
      return null; // taken over by a repairer, who finishes it
    }
    s.step("clear");
    if (!in.garbage().isEmpty()) {
      s.queue.releaseGarbage(in.garbage());
      s.step("release");
    }
    if (in.countsUsage()) {
      // the applied marker is only read while the intent is pending: drop it, in the background
      s.bt.mutateAsync(s.objects, rows.counter(in.shard()), Mutation.create()
          .deleteCells(Bt.APPLIED, ByteString.copyFromUtf8(in.tag())));
    }
    return null;
  }

  /**
   * Takes over a stale intent (a check-and-mutate that moves the row's version, so one repairer
   * at a time and the original writer's clear fails) and applies it again.
   */
  boolean rollForward(BigtableMetadataStore.BucketRow b, Rows rows, String key, ByteString row, long v,
      Intent intent, ObjectVersion current) {
    Intent mine = intent.since(s.now().toEpochMilli());
    Mutation m = Mutation.create();
    Bt.set(m, Bt.META, Bt.VERSION, Codec.version(v + 1));
    Bt.set(m, Bt.META, INTENT, mine.encode());
    if (!s.bt.cas(s.objects, row, v, m)) {
      return false;
    }
    if (b == null) {
      return apply(rows, key, row, v + 1, mine, current, true) == null;
    }
    finish(b, rows, key, row, v + 1, mine, current, true, s.protocol.waits());
    return true;
  }
}
