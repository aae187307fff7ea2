package io.objectmeta.bench;

import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.DeleteOneModel;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import com.mongodb.client.model.WriteModel;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.version.VersionIdGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.UUID;
import java.util.function.IntFunction;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.conversions.Bson;

/**
 * The MongoDB backend's raw-driver baseline: for each operation, the very driver calls
 * {@code MongoMetadataStore} makes (same collections, filters, sorts, limits, documents, bulk
 * writes, in the same order, so the same round trips), on a client of its own, with every
 * document and filter built before the timed loop. What the loop does not do is the backend's
 * own work: argument validation, the versioning rules ({@code KeyWrites}), planning the intent,
 * mapping metadata to and from BSON, building model objects from what it reads.
 *
 * <p>A write is: the bucket document ({@code __metastore}); the key's lock; its two newest
 * versions; the intent recorded in the lock by a compare-and-set on its sequence (read from
 * the lock just fetched); one ordered bulk write of the usage counter upsert and the data steps;
 * the GC records inserted held (when the write frees data); the lock cleared (or deleted when
 * the key is gone); the GC records released. The intent document carries the same steps and
 * records the backend's would, and the usage upsert records the intent's tag under {@code a},
 * as the backend's does. A get is the bucket document plus the master (latest), or plus the
 * lock and the two newest versions (by version id). The GC baseline is the backend's claim
 * (candidates, stamp, read back) and acknowledgement (bucket records, delete) per batch.
 */
final class MongoBaseline implements Baseline {
  private static final Bson LIVE = Filters.ne("deleted", true);
  private static final Bson BY_ID = Sorts.ascending("_id");
  private static final Bson GC_ORDER = Sorts.ascending("at", "_id");
  private static final BulkWriteOptions ORDERED = new BulkWriteOptions().ordered(true);
  private static final InsertManyOptions UNORDERED = new InsertManyOptions().ordered(false);
  private static final Bson MARK = Updates.set("deleted", true);
  private static final Bson CLEAR = Updates.combine(Updates.unset("i"), Updates.unset("p"));
  private static final Bson RELEASE = Updates.combine(Updates.unset("h"), Updates.unset("hc"),
      Updates.unset("hi"));

  private final MongoClient client;
  private final MongoDatabase db;
  private final MongoCollection<BsonDocument> meta;
  private final MongoCollection<BsonDocument> gc;
  private final boolean shared;
  private final int gcBatch;
  private final VersionIdGenerator ids = new VersionIdGenerator();

  MongoBaseline(MongoClient client, String database, boolean shared, int gcBatch) {
    this.client = client;
    this.db = client.getDatabase(database);
    this.meta = db.getCollection(MongoShapes.METASTORE, BsonDocument.class);
    this.gc = db.getCollection(MongoShapes.GC, BsonDocument.class);
    this.shared = shared;
    this.gcBatch = gcBatch;
  }

  @Override
  public String note(Workload w) {
    return w == Workload.GC_DRAIN ? "the backend's claim and acknowledge commands, raw" : null;
  }

  private static BsonDocument render(Bson b) {
    return b.toBsonDocument(BsonDocument.class, MongoClientSettings.getDefaultCodecRegistry());
  }

  /** The bucket's namespace, from its document (untimed). */
  private MongoShapes.Ns ns(String bucket) {
    BsonDocument d = meta.find(Filters.eq("_id", bucket)).first();
    if (d == null) {
      throw new IllegalStateException("no bucket " + bucket);
    }
    return MongoShapes.Ns.of(bucket, d.getString("id").getValue(), shared,
        "v1".equals(d.getString("fmt").getValue()));
  }

  private static BsonDocument rowFilter(String bucket) {
    return render(Filters.and(Filters.eq("_id", bucket), LIVE));
  }

  private static BsonDocument versionsFilter(MongoShapes.Ns ns, String key) {
    return render(Filters.and(Filters.and(Filters.gte("_id", ns.versionsOf(key)),
        Filters.lt("_id", ns.versionsEnd(key))), LIVE));
  }

  // ----------------------------------------------------------------------------------- writes

  /**
   * One write, prepared: its usage step (sent alone, with the applied markers of earlier writes
   * to remove, as the backend does), then its updates in one command and its deletes in another.
   * {@code replaced}: for an unversioned overwrite, the intent's delete step of the version it
   * replaces, whose id the loop takes from the versions it reads, as the backend does (the update
   * at {@code markAt} and the delete at {@code deleteAt} remove that id).
   */
  private record Write(MongoCollection<BsonDocument> coll, BsonDocument row, String lockId,
      BsonDocument lockFilter, BsonDocument versionsFilter, BsonDocument intent, long pendingMs,
      String usageId, String tag, BsonDocument usageFilter, BsonDocument usageUpdate,
      List<WriteModel<BsonDocument>> updates, List<WriteModel<BsonDocument>> deletes,
      BsonDocument replaced, int markAt, int deleteAt, List<BsonDocument> held,
      BsonDocument releaseFilter, boolean drop, boolean v1) {}

  /** Applied markers to remove, per counter document, as the backend keeps them. */
  private final Map<String, java.util.ArrayDeque<String>> done = new java.util.HashMap<>();

  @Override
  public Phase writes(Workload w, String bucket, IntFunction<List<Op>> plan) {
    return new Phase() {
      List<Write> writes;

      @Override
      public void prepare(int it) {
        MongoShapes.Ns ns = ns(bucket);
        seedMarkers(ns);
        writes = new ArrayList<>();
        for (Op o : plan.apply(it)) {
          writes.add(write(w, ns, o));
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
   * The markers the bucket's counters hold now (left by its preparation, which wrote through the
   * SPI) are the baseline's to remove, as the backend's own earlier writes are the backend's.
   */
  private void seedMarkers(MongoShapes.Ns ns) {
    MongoCollection<BsonDocument> coll = db.getCollection(ns.collection(), BsonDocument.class);
    for (int i = 0; i < MongoShapes.SHARDS; i++) {
      String id = ns.usage(i);
      BsonDocument d = coll.find(Filters.eq("_id", id)).first();
      java.util.ArrayDeque<String> q = new java.util.ArrayDeque<>();
      if (d != null && d.containsKey("a")) {
        q.addAll(d.getDocument("a").keySet());
      }
      done.put(ns.collection() + "\n" + id, q);
    }
  }

  private Write write(Workload w, MongoShapes.Ns ns, Op o) {
    String key = o.key();
    String tag = MongoShapes.newTag();
    Instant at = Instant.now();
    ObjectMetadata prev = o.previous();
    List<BsonDocument> steps = new ArrayList<>();
    List<WriteModel<BsonDocument>> updates = new ArrayList<>();
    List<WriteModel<BsonDocument>> deletes = new ArrayList<>();
    List<BsonDocument> garbage = new ArrayList<>();
    BsonDocument usage;
    BsonDocument replaced = null;
    int markAt = -1;
    int deleteAt = -1;
    boolean drop = false;
    String master = ns.master(key);
    switch (w) {
      case PUT_UNVERSIONED -> {
        // new null version and master, then the replaced version goes (marked, deleted); its
        // data is queued
        String rev = ids.next().encode();
        usage = MongoShapes.usageDelta(0, o.metadata().size() - prev.size());
        put(steps, updates, MongoShapes.version(ns.version(key, rev), true, false, o.metadata()));
        put(steps, updates, MongoShapes.master(master, rev, true, o.metadata()));
        replaced = MongoShapes.delStep("");
        steps.add(replaced);
        markAt = updates.size();
        updates.add(null);
        deleteAt = deletes.size();
        deletes.add(null);
        garbage.add(MongoShapes.garbage(tag + ".0", ns.bucket(), ns.bucketId(), key, "null",
            prev.size(), prev.dataLocations(), at));
      }
      case PUT_VERSIONED -> {
        // a new version on top, the master follows it
        String rev = ids.next().encode();
        usage = MongoShapes.usageDelta(0, o.metadata().size() - prev.size(), 1, prev.size());
        put(steps, updates, MongoShapes.version(ns.version(key, rev), false, false, o.metadata()));
        put(steps, updates, MongoShapes.master(master, rev, false, o.metadata()));
      }
      case DELETE_MARKER -> {
        // a marker on top of the key's object: v1 drops the master, v0 keeps a marker master
        String rev = ids.next().encode();
        usage = MongoShapes.usageDelta(-1, -prev.size(), 1, prev.size(), 1);
        put(steps, updates, MongoShapes.version(ns.version(key, rev), false, true, null));
        if (ns.v1()) {
          steps.add(MongoShapes.delStep(master));
          delete(updates, deletes, Filters.eq("_id", master));
        } else {
          put(steps, updates, MongoShapes.master(master, rev, false, null));
        }
      }
      case DELETE_VERSION -> {
        // the only version goes: a placeholder master first, the version, then the placeholder
        // (fenced on its id); the lock goes at the end, the data is queued
        String fence = ids.next().encode();
        String version = ns.version(key, o.versionId());
        usage = MongoShapes.usageDelta(-1, -prev.size());
        steps.add(MongoShapes.phdStep(master, fence));
        updates.add(new UpdateOneModel<>(render(Filters.eq("_id", master)),
            render(MongoShapes.replacement(MongoShapes.placeholder(master, fence))),
            new UpdateOptions().upsert(true)));
        steps.add(MongoShapes.delStep(version));
        delete(updates, deletes, Filters.eq("_id", version));
        steps.add(MongoShapes.fixStep(master, fence));
        delete(updates, deletes, Filters.and(Filters.eq("_id", master), Filters.eq("phd", fence)));
        garbage.add(MongoShapes.garbage(tag + ".0", ns.bucket(), ns.bucketId(), key,
            o.versionId(), prev.size(), prev.dataLocations(), at));
        drop = true;
      }
      default -> throw new IllegalArgumentException(w.toString());
    }
    String lockId = ns.lock(key);
    BsonDocument intent = MongoShapes.intent(tag, at.toEpochMilli(), MongoShapes.shardOf(key),
        steps, garbage, drop, usage);
    List<BsonDocument> held = new ArrayList<>();
    List<BsonValue> gcIds = new ArrayList<>();
    for (BsonDocument g : garbage) {
      gcIds.add(g.get("_id"));
      held.add(g.clone().append("h", new BsonString(tag))
          .append("hc", new BsonString(ns.collection())).append("hi", new BsonString(lockId)));
    }
    String usageId = ns.usage(MongoShapes.shardOf(key));
    List<Bson> incs = new ArrayList<>();
    for (String f : usage.keySet()) {
      incs.add(Updates.inc(f, usage.getInt64(f).getValue()));
    }
    return new Write(db.getCollection(ns.collection(), BsonDocument.class),
        rowFilter(ns.bucket()), lockId, render(Filters.eq("_id", lockId)),
        versionsFilter(ns, key), intent, at.toEpochMilli(), ns.collection() + "\n" + usageId, tag,
        render(Filters.and(Filters.eq("_id", usageId), Filters.exists("del", false))),
        render(Updates.combine(Updates.combine(incs), Updates.set("t", "c"),
            Updates.set("a." + tag, 1))),
        updates, deletes, replaced, markAt, deleteAt, held.isEmpty() ? null : held,
        held.isEmpty() ? null : render(Filters.in("_id", gcIds)), drop, ns.v1());
  }

  private static void put(List<BsonDocument> steps, List<WriteModel<BsonDocument>> updates,
      BsonDocument doc) {
    steps.add(MongoShapes.putStep(doc));
    updates.add(new UpdateOneModel<>(render(Filters.eq("_id", doc.get("_id"))),
        render(MongoShapes.replacement(doc)), new UpdateOptions().upsert(true)));
  }

  /** The backend's delete of one document: marked with the updates, deleted after them. */
  private static void delete(List<WriteModel<BsonDocument>> updates,
      List<WriteModel<BsonDocument>> deletes, Bson filter) {
    BsonDocument f = render(filter);
    updates.add(new UpdateOneModel<>(f, render(MARK)));
    deletes.add(new DeleteOneModel<>(f));
  }

  private void execute(Write x) {
    MongoCollection<BsonDocument> coll = x.coll();
    meta.find(x.row()).first();
    BsonDocument lock = coll.find(x.lockFilter()).first();
    BsonValue newest = null;
    for (BsonDocument d : coll.find(x.versionsFilter()).sort(BY_ID).limit(2)) {
      if (newest == null) {
        newest = d.get("_id");
      }
    }
    if (x.replaced() != null) {
      x.replaced().put("id", newest);
      BsonDocument f = new BsonDocument("_id", newest);
      x.updates().set(x.markAt(), new UpdateOneModel<>(f, MARK));
      x.deletes().set(x.deleteAt(), new DeleteOneModel<>(f));
    }
    long seq;
    if (lock == null) {
      seq = ThreadLocalRandom.current().nextLong(1, 1L << 62);
      coll.insertOne(new BsonDocument("_id", new BsonString(x.lockId()))
          .append("t", new BsonString("k")).append("s", new BsonInt64(seq))
          .append("p", new BsonInt64(x.pendingMs())).append("i", x.intent())
          .append("f", new BsonString(x.v1() ? "v1" : "v0")));
    } else {
      long s = lock.getInt64("s").getValue();
      seq = s + 1;
      if (coll.updateOne(Filters.and(Filters.eq("_id", x.lockId()), Filters.eq("s", s),
          Filters.exists("i", false)), Updates.combine(Updates.set("s", seq),
          Updates.set("p", x.pendingMs()), Updates.set("i", x.intent()))).getMatchedCount() != 1) {
        throw new IllegalStateException("baseline: the lock of " + x.lockId() + " moved");
      }
    }
    java.util.ArrayDeque<String> mine = done.computeIfAbsent(x.usageId(),
        k -> new java.util.ArrayDeque<>());
    List<Bson> unset = new ArrayList<>();
    while (unset.size() < 16 && !mine.isEmpty()) {
      unset.add(Updates.unset("a." + mine.poll()));
    }
    coll.bulkWrite(List.of(new UpdateOneModel<>(x.usageFilter(),
        Updates.combine(x.usageUpdate(), Updates.combine(unset)), new UpdateOptions().upsert(true))));
    List<WriteModel<BsonDocument>> rest = new ArrayList<>(x.updates());
    rest.addAll(x.deletes());
    coll.bulkWrite(rest, ORDERED);
    if (x.held() != null) {
      gc.insertMany(x.held(), UNORDERED);
    }
    Bson lockMine = Filters.and(Filters.eq("_id", x.lockId()), Filters.eq("s", seq));
    if (x.drop()) {
      coll.deleteOne(lockMine);
    } else {
      coll.updateOne(lockMine, CLEAR);
    }
    mine.add(x.tag());
    if (x.held() != null) {
      gc.updateMany(x.releaseFilter(), RELEASE);
    }
  }

  // ------------------------------------------------------------------------------------- gets

  private record Get(MongoCollection<BsonDocument> coll, BsonDocument row, BsonDocument first,
      BsonDocument versions, BsonValue versionId, BsonDocument version) {}

  @Override
  public Phase gets(Workload w, String bucket, IntFunction<List<Op>> plan) {
    return new Phase() {
      List<Get> gets;

      @Override
      public void prepare(int it) {
        MongoShapes.Ns ns = ns(bucket);
        MongoCollection<BsonDocument> coll = db.getCollection(ns.collection(), BsonDocument.class);
        BsonDocument row = rowFilter(bucket);
        gets = new ArrayList<>();
        for (Op o : plan.apply(it)) {
          if (w == Workload.GET_LATEST) {
            gets.add(new Get(coll, row, render(Filters.and(Filters.eq("_id",
                ns.master(o.key())), LIVE)), null, null, null));
          } else {
            String v = ns.version(o.key(), o.versionId());
            gets.add(new Get(coll, row, null, versionsFilter(ns, o.key()), new BsonString(v),
                render(Filters.and(Filters.eq("_id", v), LIVE))));
          }
        }
      }

      @Override
      public long run(int it) {
        for (Get g : gets) {
          meta.find(g.row()).first();
          if (g.versions() == null) {
            if (g.coll().find(g.first()).first() == null) {
              throw new IllegalStateException("baseline: no master");
            }
            continue;
          }
          // by version id: the two newest versions; the named one if not among them
          boolean found = false;
          int n = 0;
          for (BsonDocument d : g.coll().find(g.versions()).sort(BY_ID).limit(2)) {
            found |= d.get("_id").equals(g.versionId());
            n++;
          }
          if (!found && n == 2 && g.coll().find(g.version()).first() == null) {
            throw new IllegalStateException("baseline: no version " + g.versionId());
          }
        }
        return gets.size();
      }
    };
  }

  // --------------------------------------------------------------------------------- GC drain

  /**
   * The backend's claim and acknowledgement, per batch: the oldest released, unclaimed
   * candidates' ids; the claim stamped on them; the claimed records read back in order (every
   * field read, no model built); the bucket records among them looked up; the records deleted.
   * Until a claim finds nothing.
   */
  @Override
  public Phase gcDrain() {
    Duration lease = Duration.ofMinutes(10);
    return it -> {
      long total = 0;
      while (true) {
        Instant now = Instant.now();
        long nowMs = now.toEpochMilli();
        String claim = UUID.randomUUID().toString();
        Bson released = Filters.exists("h", false);
        Bson free = Filters.or(Filters.exists("c", false), Filters.lte("u", nowMs));
        List<BsonValue> candidates = new ArrayList<>();
        for (BsonDocument d : gc.find(Filters.and(Filters.lte("at", MongoShapes.nanos(now)),
            released, free)).sort(GC_ORDER).limit(gcBatch).projection(Projections.include("_id"))) {
          candidates.add(d.get("_id"));
        }
        if (candidates.isEmpty()) {
          return total;
        }
        gc.updateMany(Filters.and(Filters.in("_id", candidates), released, free),
            Updates.combine(Updates.set("c", claim), Updates.set("u", now.plus(lease).toEpochMilli())));
        List<BsonValue> got = new ArrayList<>(candidates.size());
        for (BsonDocument d : gc.find(Filters.and(Filters.in("_id", candidates),
            Filters.eq("c", claim))).sort(GC_ORDER)) {
          for (BsonValue v : d.values()) {
            v.getBsonType();
          }
          got.add(d.get("_id"));
        }
        Bson mine = Filters.and(Filters.in("_id", got), Filters.eq("c", claim),
            Filters.gt("u", Instant.now().toEpochMilli()));
        for (BsonDocument d : gc.find(Filters.and(mine, Filters.eq("k", "BUCKET")))) {
          d.size();
        }
        total += gc.deleteMany(mine).getDeletedCount();
      }
    };
  }

  @Override
  public void close() {
    client.close();
  }
}
