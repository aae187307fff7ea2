package io.objectmeta.mongo;

import static io.objectmeta.mongo.MongoMetadataStore.LIVE;
import static io.objectmeta.mongo.MongoMetadataStore.newTag;
import static io.objectmeta.mongo.MongoMetadataStore.range;
import static io.objectmeta.mongo.MongoMetadataStore.shardOf;

import io.objectmeta.api.spi.IntentProtocol;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.versioning.KeyHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.conversions.Bson;

/**
 * What finishes the work of writers that died, and moves buckets between key formats: the repair
 * (every intent older than the lease rolled forward, GC records held by finished intents
 * released), and the online v0 to v1 key-format migration, each key moved under its lock as an
 * ordinary intent.
 */
final class MongoRepair {
  private final MongoMetadataStore s;

  MongoRepair(MongoMetadataStore s) {
    this.s = s;
  }

  // ------------------------------------------------------------------------ key format migration

  /**
   * Converts a bucket from the v0 key format to v1, online: reads and writes go on while it runs.
   * The bucket first switches new keys to v1 (its documents record both formats); then each
   * existing key moves under its lock, as an ordinary intent (copy the versions and the master to
   * v1 ids, remove the v0 documents, and mark the lock v1 when cleared), so a writer of that key
   * waits for the move and a crash in the middle is rolled forward like any write; readers read
   * both formats until the bucket is done, one copy of each version. Running it again resumes,
   * and on a v1 bucket it does nothing.
   *
   * @return how many keys and versions moved
   */
  public KeyFormatMigration migrateKeyFormat(String bucket) {
    io.objectmeta.api.validation.Validation.bucketName(bucket);
    long t0 = System.nanoTime();
    long keys = 0;
    long versions = 0;
    long start = System.nanoTime();
    for (int attempt = 0; ; attempt++) {
      MongoMetadataStore.Row r = s.row(bucket);
      if (r.format() == KeyFormat.V1 && r.legacy() == KeyFormat.V1) {
        break;
      }
      if (r.format() == KeyFormat.V0) {
        // new keys go to v1 from now on; the keys there are stay v0 until moved
        if (s.meta.replaceOne(Filters.and(Filters.eq("_id", bucket), Filters.eq("r", r.rev()), LIVE),
            Docs.bucket(r.bucket(), KeyFormat.V1, KeyFormat.V0, r.rev() + 1)).getMatchedCount() != 1) {
          s.retry.backoff(attempt, start, "the bucket kept changing");
        }
        continue;
      }
      Namespace any = s.ns(r);
      boolean left = false;
      String after = null;
      while (true) {
        List<BsonDocument> batch = new ArrayList<>();
        Bson from = after == null ? Filters.gte("_id", any.ids().locksStart()) : Filters.gt("_id", after);
        any.coll().find(Filters.and(from, Filters.lt("_id", any.ids().locksEnd()), Filters.eq("t", "k"),
            Filters.ne("f", "v1"))).sort(Sorts.ascending("_id")).limit(500).into(batch);
        if (batch.isEmpty()) {
          break;
        }
        for (BsonDocument lock : batch) {
          after = lock.getString("_id").getValue();
          long[] moved = moveKey(r, any.ids().keyOfLock(after));
          keys += moved[0];
          versions += moved[1];
          left = true;
        }
      }
      if (!left) {
        MongoMetadataStore.Row now = s.row(bucket);
        if (s.meta.updateOne(Filters.and(Filters.eq("_id", bucket), Filters.eq("r", now.rev()), LIVE),
            Updates.combine(Updates.set("lf", "v1"), Updates.set("r", now.rev() + 1)))
            .getMatchedCount() == 1) {
          break;
        }
        s.retry.backoff(attempt, start, "the bucket kept changing");
      }
    }
    return new KeyFormatMigration(bucket, keys, versions,
        Duration.ofNanos(System.nanoTime() - t0));
  }

  /** Moves one key to v1 ids under its lock; returns {keys, versions} moved (0 if it had moved). */
  private long[] moveKey(MongoMetadataStore.Row r, String key) {
    Namespace any = s.ns(r);
    String lockId = any.ids().lock(key);
    return s.protocol.write("the key", () -> new IntentProtocol.Attempt<long[]>() {
      final BsonDocument lock = any.coll().find(Filters.eq("_id", lockId)).first();
      long[] moved = {0, 0};
      Intent intent;
      long seq;

      @Override
      public long pendingSince() {
        return MongoMetadataStore.pendingSince(lock);
      }

      @Override
      public void rollForward() {
        s.rollForward(any, lock);
      }

      @Override
      public IntentProtocol.Commit commit() {
        if (lock == null || "v1".equals(lock.getString("f", new BsonString("v0")).getValue())) {
          return IntentProtocol.Commit.NOTHING;
        }
        Namespace v0 = any.withFormat(KeyFormat.V0);
        Namespace v1 = any.withFormat(KeyFormat.V1);
        KeyHistory h = s.keys.readKeyIn(v0, lock, key, false, null, true).history(key);
        List<BsonDocument> ops = new ArrayList<>();
        for (ObjectVersion v : h.versions()) {
          ops.add(Intent.put(Docs.version(v1.ids().version(key, v.revision()), v)));
        }
        ObjectVersion latest = h.latest();
        if (latest != null && !latest.deleteMarker()) {
          ops.add(Intent.put(Docs.master(v1.ids().master(key), latest)));
        }
        for (ObjectVersion v : h.versions()) {
          ops.add(Intent.delete(v0.ids().version(key, v.revision())));
        }
        ops.add(Intent.delete(v0.ids().master(key)));
        intent = new Intent(newTag(), s.now().toEpochMilli(), null, shardOf(key), ops, List.of(),
            false, new BsonDocument("f", new BsonString("v1")));
        seq = s.commit(any, lockId, "k", lock, intent, KeyFormat.V1);
        moved = new long[] {1, h.versions().size()};
        return seq < 0 ? IntentProtocol.Commit.CONFLICT : IntentProtocol.Commit.COMMITTED;
      }

      @Override
      public IntentProtocol.Applied apply(IntentProtocol.Waits waits) {
        // a move counts no usage, so no bucket close stops it
        intent.apply(any, lockId, seq, s.gc, s.hook, false, s.markers);
        return IntentProtocol.Applied.DONE;
      }

      @Override
      public long[] result() {
        return moved;
      }
    });
  }

  // ------------------------------------------------------------------------------------- repair

  /**
   * Drains the repair queue now: rolls forward every intent older than the lease (left by a
   * process that died between steps), resolves placeholders met on the way, and releases GC
   * records still held by intents that finished. Returns how many intents it rolled forward.
   * Runs on open and every {@code repairIntervalMs} in the background.
   */
  public int repair() {
    return repair(s.config.intentLease());
  }

  /** As {@link #repair()}, for intents older than {@code age} (tests: zero). */
  int repair(Duration age) {
    long cutoff = s.lease.cutoffMillis(age);
    int n = 0;
    if (s.config.layout() == MongoConfig.Layout.SHARED) {
      // one query on the shared collection's sparse index of pending intents
      for (BsonDocument lock : s.shared.find(Filters.lte("p", cutoff))) {
        String id = lock.getString("_id").getValue();
        Namespace ns = new Namespace("", id.substring(0, 36), s.shared,
            new Ids(id.substring(0, 36), KeyFormat.V1));
        if (lock.containsKey("i") && s.rollForward(ns, lock)) {
          n++;
        }
      }
      return n + releaseStaleHolds(cutoff);
    }
    for (BsonDocument b : s.meta.find(LIVE)) {
      Namespace ns = s.ns(Docs.bucket(b), KeyFormat.of(b.getString("fmt").getValue()));
      for (BsonDocument lock : ns.coll().find(Filters.and(range(ns.ids().start(), ns.ids().end()),
          Filters.lte("p", cutoff)))) {
        if (lock.containsKey("i") && s.rollForward(ns, lock)) {
          n++;
        }
      }
    }
    return n + releaseStaleHolds(cutoff);
  }

  /** Releases GC records still held by intents that are no longer pending; returns 0. */
  private int releaseStaleHolds(long cutoff) {
    for (BsonDocument g : s.gc.find(Filters.and(Filters.exists("h", true),
        Filters.lte("at", Docs.nanos(Instant.ofEpochMilli(cutoff)))))) {
      MongoCollection<BsonDocument> c = s.db.getCollection(g.getString("hc").getValue(), BsonDocument.class);
      BsonDocument lock = c.find(Filters.eq("_id", g.getString("hi").getValue())).first();
      String tag = g.getString("h").getValue();
      boolean pending = lock != null && lock.containsKey("i")
          && tag.equals(lock.getDocument("i").getString("op").getValue());
      if (!pending) {
        s.gc.updateOne(Filters.and(Filters.eq("_id", g.get("_id")), Filters.eq("h", tag)),
            Updates.combine(Updates.unset("h"), Updates.unset("hc"), Updates.unset("hi")));
      }
    }
    return 0;
  }
}
