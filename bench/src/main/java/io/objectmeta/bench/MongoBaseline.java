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
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;
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
  private static final ReplaceOptions UPSERT = new ReplaceOptions().upsert(true);
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
  public Phase phase(Workload w, String bucket, IntFunction<List<Op>> ops) {
    return switch (w) {
      case PUT_UNVERSIONED, PUT_VERSIONED, DELETE_MARKER, DELETE_VERSION -> writes(w, bucket, ops);
      case GET_LATEST, GET_VERSION -> gets(w, bucket, ops);
      case GC_DRAIN -> gcDrain();
      default -> null;
    };
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
    return render(Filters.and(Filters.gt("_id", ns.lock(key)), Filters.lt("_id",
        ns.versionsEnd(key)), LIVE));
  }

  // ----------------------------------------------------------------------------------- writes

  /**
   * One write, prepared. {@code replaced}: for an unversioned overwrite, the intent's delete step
   * of the version it replaces, whose id the loop takes from the versions it reads, as the
   * backend does (the models at {@code replacedAt} and the next one delete that id).
   */
  private record Write(MongoCollection<BsonDocument> coll, BsonDocument row, String lockId,
      BsonDocument lockFilter, BsonDocument versionsFilter, BsonDocument intent, long pendingMs,
      List<WriteModel<BsonDocument>> models, BsonDocument replaced, int replacedAt,
      List<BsonDocument> held, BsonDocument releaseFilter, boolean drop) {}

  private Phase writes(Workload w, String bucket, IntFunction<List<Op>> plan) {
    return new Phase() {
      List<Write> writes;

      @Override
      public void prepare(int it) {
        MongoShapes.Ns ns = ns(bucket);
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

  private Write write(Workload w, MongoShapes.Ns ns, Op o) {
    String key = o.key();
    String tag = MongoShapes.newTag();
    Instant at = Instant.now();
    ObjectMetadata prev = o.previous();
    List<BsonDocument> steps = new ArrayList<>();
    List<WriteModel<BsonDocument>> models = new ArrayList<>();
    List<BsonDocument> garbage = new ArrayList<>();
    BsonDocument usage;
    BsonDocument replaced = null;
    int replacedAt = -1;
    boolean drop = false;
    String master = ns.master(key);
    switch (w) {
      case PUT_UNVERSIONED -> {
        // new null version and master, then the replaced version goes (marked, deleted); its
        // data is queued
        String rev = ids.next().encode();
        usage = MongoShapes.usageDelta(0, o.metadata().size() - prev.size());
        models.add(usageModel(ns, key, tag, usage));
        put(steps, models, MongoShapes.version(ns.version(key, rev), true, false, o.metadata()));
        put(steps, models, MongoShapes.master(master, rev, true, o.metadata()));
        replaced = MongoShapes.delStep("");
        steps.add(replaced);
        replacedAt = models.size();
        models.add(null);
        models.add(null);
        garbage.add(MongoShapes.garbage(tag + ".0", ns.bucket(), ns.bucketId(), key, "null",
            prev.size(), prev.dataLocations(), at));
      }
      case PUT_VERSIONED -> {
        // a new version on top, the master follows it
        String rev = ids.next().encode();
        usage = MongoShapes.usageDelta(0, o.metadata().size() - prev.size(), 1, prev.size());
        models.add(usageModel(ns, key, tag, usage));
        put(steps, models, MongoShapes.version(ns.version(key, rev), false, false, o.metadata()));
        put(steps, models, MongoShapes.master(master, rev, false, o.metadata()));
      }
      case DELETE_MARKER -> {
        // a marker on top of the key's object: v1 drops the master, v0 keeps a marker master
        String rev = ids.next().encode();
        usage = MongoShapes.usageDelta(-1, -prev.size(), 1, prev.size(), 1);
        models.add(usageModel(ns, key, tag, usage));
        put(steps, models, MongoShapes.version(ns.version(key, rev), false, true, null));
        if (ns.v1()) {
          steps.add(MongoShapes.delStep(master));
          delete(models, Filters.eq("_id", master));
        } else {
          put(steps, models, MongoShapes.master(master, rev, false, null));
        }
      }
      case DELETE_VERSION -> {
        // the only version goes: a placeholder master first, the version, then the placeholder
        // (fenced on its id); the lock goes at the end, the data is queued
        String fence = ids.next().encode();
        String version = ns.version(key, o.versionId());
        usage = MongoShapes.usageDelta(-1, -prev.size());
        models.add(usageModel(ns, key, tag, usage));
        steps.add(MongoShapes.phdStep(master, fence));
        models.add(new ReplaceOneModel<>(render(Filters.eq("_id", master)),
            MongoShapes.placeholder(master, fence), UPSERT));
        steps.add(MongoShapes.delStep(version));
        delete(models, Filters.eq("_id", version));
        steps.add(MongoShapes.fixStep(master, fence));
        delete(models, Filters.and(Filters.eq("_id", master), Filters.eq("phd", fence)));
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
    return new Write(db.getCollection(ns.collection(), BsonDocument.class),
        rowFilter(ns.bucket()), lockId, render(Filters.eq("_id", lockId)),
        versionsFilter(ns, key), intent, at.toEpochMilli(), models, replaced, replacedAt,
        held.isEmpty() ? null : held,
        held.isEmpty() ? null : render(Filters.in("_id", gcIds)), drop);
  }

  private static UpdateOneModel<BsonDocument> usageModel(MongoShapes.Ns ns, String key,
      String tag, BsonDocument delta) {
    List<Bson> incs = new ArrayList<>();
    for (String f : delta.keySet()) {
      incs.add(Updates.inc(f, delta.getInt64(f).getValue()));
    }
    Bson filter = Filters.and(Filters.eq("_id", ns.usage(MongoShapes.shardOf(key))),
        Filters.exists("del", false));
    Bson update = Updates.combine(Updates.combine(incs), Updates.set("t", "c"),
        Updates.set("a." + tag, 1));
    return new UpdateOneModel<>(render(filter), render(update), new UpdateOptions().upsert(true));
  }

  private static void put(List<BsonDocument> steps, List<WriteModel<BsonDocument>> models,
      BsonDocument doc) {
    steps.add(MongoShapes.putStep(doc));
    models.add(new ReplaceOneModel<>(render(Filters.eq("_id", doc.get("_id"))), doc, UPSERT));
  }

  /** The backend's delete of one document: marked first (oplog-friendly), then deleted. */
  private static void delete(List<WriteModel<BsonDocument>> models, Bson filter) {
    BsonDocument f = render(filter);
    models.add(new UpdateOneModel<>(f, render(MARK)));
    models.add(new DeleteOneModel<>(f));
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
      x.models().set(x.replacedAt(), new UpdateOneModel<>(f, MARK));
      x.models().set(x.replacedAt() + 1, new DeleteOneModel<>(f));
    }
    long seq;
    if (lock == null) {
      seq = 1;
      coll.insertOne(new BsonDocument("_id", new BsonString(x.lockId()))
          .append("t", new BsonString("k")).append("s", new BsonInt64(1))
          .append("p", new BsonInt64(x.pendingMs())).append("i", x.intent()));
    } else {
      long s = lock.getInt64("s").getValue();
      seq = s + 1;
      if (coll.updateOne(Filters.and(Filters.eq("_id", x.lockId()), Filters.eq("s", s),
          Filters.exists("i", false)), Updates.combine(Updates.set("s", seq),
          Updates.set("p", x.pendingMs()), Updates.set("i", x.intent()))).getMatchedCount() != 1) {
        throw new IllegalStateException("baseline: the lock of " + x.lockId() + " moved");
      }
    }
    coll.bulkWrite(x.models(), ORDERED);
    if (x.held() != null) {
      gc.insertMany(x.held(), UNORDERED);
    }
    Bson mine = Filters.and(Filters.eq("_id", x.lockId()), Filters.eq("s", seq));
    if (x.drop()) {
      coll.deleteOne(mine);
    } else {
      coll.updateOne(mine, CLEAR);
    }
    if (x.held() != null) {
      gc.updateMany(x.releaseFilter(), RELEASE);
    }
  }

  // ------------------------------------------------------------------------------------- gets

  private record Get(MongoCollection<BsonDocument> coll, BsonDocument row, BsonDocument first,
      BsonDocument versions, BsonValue versionId, BsonDocument version) {}

  private Phase gets(Workload w, String bucket, IntFunction<List<Op>> plan) {
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
            gets.add(new Get(coll, row, render(Filters.eq("_id", ns.lock(o.key()))),
                versionsFilter(ns, o.key()), new BsonString(v),
                render(Filters.and(Filters.eq("_id", v), LIVE))));
          }
        }
      }

      @Override
      public long run(int it) {
        for (Get g : gets) {
          meta.find(g.row()).first();
          BsonDocument first = g.coll().find(g.first()).first();
          if (g.versions() == null) {
            if (first == null) {
              throw new IllegalStateException("baseline: no master");
            }
            continue;
          }
          // by version id: the lock, then the two newest versions; the named one if not among them
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
  private Phase gcDrain() {
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
