package io.objectmeta.mongo;

import io.objectmeta.api.spi.StepHook;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.DeleteManyModel;
import com.mongodb.client.model.DeleteOneModel;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.UpdateManyModel;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import com.mongodb.client.model.WriteModel;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.conversions.Bson;

/**
 * A multi-document write, recorded in its lock document before any of it is applied, then
 * applied in order, then cleared. MongoDB without transactions can change one document
 * atomically; so each key (and each multipart upload) has a lock document with a sequence
 * number, and a write is: read the lock and the documents it needs; compute the change with the
 * shared rules; record it as this intent in the lock with a compare-and-set on the sequence (the
 * commit point: a concurrent writer fails the compare and starts over); apply its steps, which
 * are all idempotent; clear it. A process that dies after the commit leaves the intent in the
 * lock, where any writer of that key, the background drain, or {@code repair()} rolls it forward.
 *
 * <p>Steps, in order: the usage counters (with the intent's tag as an applied marker, so a
 * replay never counts twice; and refused while the bucket is being deleted, which is how a
 * racing bucket delete and a write see each other); the data (ordered: versions written before
 * the master, the placeholder before the latest version is removed); the GC records, inserted
 * held (a claim skips them) with ids derived from the tag; the lock cleared; the GC records
 * released. Records are released only after the clear, so a replay can never queue again a
 * record that a GC job already acknowledged.
 *
 * <p>Public as a part of the document format (what a lock records), for tools that write the same
 * documents.
 */
public final class Intent {
  final String tag;
  final long at;
  final BsonDocument usage;
  final int shard;
  final List<BsonDocument> ops;
  final List<BsonDocument> garbage;
  /** Delete the lock at the end instead of clearing it (the key or upload is gone). */
  final boolean dropLock;
  /** Fields the lock gets when the intent is cleared (a moved key's new format), or null. */
  final BsonDocument onClear;

  public Intent(String tag, long at, BsonDocument usage, int shard, List<BsonDocument> ops,
      List<BsonDocument> garbage, boolean dropLock) {
    this(tag, at, usage, shard, ops, garbage, dropLock, null);
  }

  Intent(String tag, long at, BsonDocument usage, int shard, List<BsonDocument> ops,
      List<BsonDocument> garbage, boolean dropLock, BsonDocument onClear) {
    this.tag = tag;
    this.at = at;
    this.usage = usage;
    this.shard = shard;
    this.ops = ops;
    this.garbage = garbage;
    this.dropLock = dropLock;
    this.onClear = onClear;
  }

  boolean isEmpty() {
    return (usage == null || usage.isEmpty()) && ops.isEmpty() && garbage.isEmpty();
  }

  /** A fresh intent tag: a random UUID's two halves in hex. */
  public static String newTag() {
    java.util.UUID u = java.util.UUID.randomUUID();
    return Long.toHexString(u.getMostSignificantBits()) + Long.toHexString(u.getLeastSignificantBits());
  }

  // ------------------------------------------------------------------------------- data steps

  public static BsonDocument put(BsonDocument doc) {
    return new BsonDocument("t", new BsonString("put")).append("d", doc);
  }

  public static BsonDocument delete(String id) {
    return new BsonDocument("t", new BsonString("del")).append("id", new BsonString(id));
  }

  static BsonDocument deleteRange(String from, String to) {
    return new BsonDocument("t", new BsonString("delr")).append("lo", new BsonString(from))
        .append("hi", new BsonString(to));
  }

  public static BsonDocument placeholder(String id, String fence) {
    return new BsonDocument("t", new BsonString("phd")).append("id", new BsonString(id))
        .append("p", new BsonString(fence));
  }

  /** Replaces (or, with a null doc, deletes) the master only while it is the given placeholder. */
  public static BsonDocument repair(String id, String fence, BsonDocument doc) {
    BsonDocument d = new BsonDocument("t", new BsonString("fix")).append("id", new BsonString(id))
        .append("p", new BsonString(fence));
    if (doc != null) {
      d.append("d", doc);
    }
    return d;
  }

  // ---------------------------------------------------------------------------- serialization

  /** The intent as its lock records it. */
  public BsonDocument toBson() {
    BsonDocument d = new BsonDocument("op", new BsonString(tag)).append("at", new BsonInt64(at))
        .append("sh", new BsonInt32(shard)).append("ops", new BsonArray(ops))
        .append("gc", new BsonArray(garbage)).append("drop", BsonBoolean.valueOf(dropLock));
    if (usage != null) {
      d.append("use", usage);
    }
    if (onClear != null) {
      d.append("fin", onClear);
    }
    return d;
  }

  static Intent fromBson(BsonDocument d) {
    List<BsonDocument> ops = new ArrayList<>();
    for (BsonValue v : d.getArray("ops")) {
      ops.add(v.asDocument());
    }
    List<BsonDocument> gc = new ArrayList<>();
    for (BsonValue v : d.getArray("gc")) {
      gc.add(v.asDocument());
    }
    return new Intent(d.getString("op").getValue(), d.getInt64("at").getValue(),
        d.containsKey("use") ? d.getDocument("use") : null, d.getInt32("sh").getValue(), ops, gc,
        d.getBoolean("drop").getValue(), d.containsKey("fin") ? d.getDocument("fin") : null);
  }

  // -------------------------------------------------------------------------------- execution

  /** What applying found. */
  enum Outcome {
    DONE,
    /** The bucket is being deleted: nothing was applied. */
    BUCKET_CLOSING
  }

  /**
   * Applies the steps. {@code replay}: a roll-forward of an intent that may have been partly
   * applied (the usage step then checks its marker instead of the bucket's state).
   */
  Outcome apply(Namespace ns, String lockId, long seq, MongoCollection<BsonDocument> gcColl,
      StepHook hook, boolean replay, UsageMarkers markers) {
    List<Step> steps = new ArrayList<>();
    String counterId = ns.ids().usage(shard);
    List<String> prune = List.of();
    boolean counts = usage != null && !usage.isEmpty();
    if (counts) {
      prune = replay || markers == null ? List.of() : markers.take(ns, counterId);
      steps.add(usageStep(ns, replay, prune));
    }
    // every update first, then every delete: the driver sends a run of one kind as one command,
    // and nothing is lost by the order, because a removed document is marked deleted (invisible
    // to every reader) in the update run, before the master is repaired
    List<Step> deletes = new ArrayList<>();
    for (BsonDocument op : ops) {
      for (Step st : dataSteps(ns, op)) {
        (st.model() instanceof DeleteOneModel || st.model() instanceof DeleteManyModel
            ? deletes : steps).add(st);
      }
    }
    steps.addAll(deletes);
    boolean applied;
    try {
      applied = runData(ns.coll(), steps, hook, replay, ns);
    } catch (RuntimeException e) {
      if (markers != null) {
        markers.putBack(ns, counterId, prune);
      }
      throw e;
    }
    if (!applied) {
      markers.putBack(ns, counterId, prune);
      return Outcome.BUCKET_CLOSING;
    }
    List<BsonValue> gcIds = new ArrayList<>();
    if (!garbage.isEmpty()) {
      List<BsonDocument> held = new ArrayList<>(garbage.size());
      for (BsonDocument g : garbage) {
        gcIds.add(g.get("_id"));
        held.add(g.clone().append("h", new BsonString(tag))
            .append("hc", new BsonString(ns.collectionName())).append("hi", new BsonString(lockId)));
      }
      try {
        gcColl.insertMany(held, new InsertManyOptions().ordered(false));
      } catch (MongoBulkWriteException e) {
        if (e.getWriteErrors().stream().anyMatch(w -> w.getCode() != 11000)) {
          throw e;
        }
      }
      step(hook, "gc records");
    }
    finish(ns.coll(), lockId, seq, dropLock, onClear);
    if (counts && markers != null) {
      markers.done(ns, counterId, tag);
    }
    step(hook, "clear");
    if (!gcIds.isEmpty()) {
      gcColl.updateMany(Filters.in("_id", gcIds),
          Updates.combine(Updates.unset("h"), Updates.unset("hc"), Updates.unset("hi")));
      step(hook, "release gc records");
    }
    return Outcome.DONE;
  }

  static void finish(MongoCollection<BsonDocument> coll, String lockId, long seq, boolean drop,
      BsonDocument onClear) {
    Bson mine = Filters.and(Filters.eq("_id", lockId), Filters.eq("s", seq));
    if (drop) {
      coll.deleteOne(mine);
    } else if (onClear != null) {
      coll.updateOne(mine, Updates.combine(Updates.unset("i"), Updates.unset("p"),
          new BsonDocument("$set", onClear)));
    } else {
      coll.updateOne(mine, Updates.combine(Updates.unset("i"), Updates.unset("p")));
    }
  }

  private static void step(StepHook hook, String name) {
    if (hook != null) {
      hook.after(name);
    }
  }

  private record Step(String name, WriteModel<BsonDocument> model) {}

  private Step usageStep(Namespace ns, boolean replay, List<String> prune) {
    String id = ns.ids().usage(shard);
    Bson inc = inc(usage);
    Bson update = Updates.combine(inc, Updates.set("t", "c"), Updates.set("a." + tag, 1),
        UsageMarkers.unset(prune));
    Bson filter = replay
        ? Filters.and(Filters.eq("_id", id), Filters.exists("a." + tag, false))
        : Filters.and(Filters.eq("_id", id), Filters.exists("del", false));
    return new Step("usage", new UpdateOneModel<>(filter, update, new UpdateOptions().upsert(true)));
  }

  private static Bson inc(BsonDocument delta) {
    List<Bson> incs = new ArrayList<>();
    for (String f : delta.keySet()) {
      incs.add(Updates.inc(f, delta.getInt64(f).getValue()));
    }
    return Updates.combine(incs);
  }

  /** Every field a master, version or part document may have, but its id and kind. */
  private static final List<String> FIELDS = List.of("v", "n", "dm", "md", "phd", Docs.DELETED,
      "pn", "sz", "e", "at", "dl");

  /**
   * A whole-document replacement written as an update ({@code $set} of its fields, {@code $unset}
   * of the others), so that it travels in the same command as the other updates of a write.
   */
  public static Bson replacement(BsonDocument doc) {
    List<Bson> u = new ArrayList<>();
    for (var e : doc.entrySet()) {
      if (!e.getKey().equals("_id")) {
        u.add(Updates.set(e.getKey(), e.getValue()));
      }
    }
    for (String f : FIELDS) {
      if (!doc.containsKey(f)) {
        u.add(Updates.unset(f));
      }
    }
    return Updates.combine(u);
  }

  private static List<Step> dataSteps(Namespace ns, BsonDocument op) {
    String t = op.getString("t").getValue();
    UpdateOptions upsert = new UpdateOptions().upsert(true);
    switch (t) {
      case "put": {
        BsonDocument doc = op.getDocument("d");
        String kind = doc.getString("t").getValue();
        return List.of(new Step("put " + (kind.equals("m") ? "master" : kind.equals("v")
            ? "version" : kind.equals("p") ? "part" : "document"),
            new UpdateOneModel<>(Filters.eq("_id", doc.get("_id")), replacement(doc), upsert)));
      }
      case "del": {
        BsonValue id = op.get("id");
        return List.of(
            new Step("mark deleted", new UpdateOneModel<>(Filters.eq("_id", id),
                Updates.set(Docs.DELETED, true))),
            new Step("delete", new DeleteOneModel<>(Filters.eq("_id", id))));
      }
      case "delr": {
        Bson range = Filters.and(Filters.gte("_id", op.get("lo")), Filters.lt("_id", op.get("hi")));
        return List.of(
            new Step("mark range deleted", new UpdateManyModel<>(range, Updates.set(Docs.DELETED, true))),
            new Step("delete range", new DeleteManyModel<>(range)));
      }
      case "phd":
        return List.of(new Step("placeholder", new UpdateOneModel<>(Filters.eq("_id", op.get("id")),
            replacement(Docs.placeholder(op.getString("id").getValue(), op.getString("p").getValue())),
            upsert)));
      case "fix": {
        Bson fenced = Filters.and(Filters.eq("_id", op.get("id")), Filters.eq("phd", op.get("p")));
        if (op.containsKey("d")) {
          return List.of(new Step("repair master", new UpdateOneModel<>(fenced,
              replacement(op.getDocument("d")))));
        }
        return List.of(
            new Step("mark placeholder deleted", new UpdateOneModel<>(fenced, Updates.set(Docs.DELETED, true))),
            new Step("delete placeholder", new DeleteOneModel<>(fenced)));
      }
      default:
        throw new IllegalStateException("unknown step " + t);
    }
  }

  /** Runs the data steps in one ordered bulk write (one per step under a hook). */
  private boolean runData(MongoCollection<BsonDocument> coll, List<Step> steps, StepHook hook,
      boolean replay, Namespace ns) {
    if (steps.isEmpty()) {
      return true;
    }
    if (hook == null) {
      // the usage step alone first: it is the one that may be refused (a bucket being deleted),
      // and nothing after it may run then, whether or not a server stops an ordered command at
      // its first error (mongo-java-server does not)
      int from = 0;
      if (steps.get(0).name().equals("usage")) {
        try {
          coll.bulkWrite(List.of(steps.get(0).model()));
        } catch (MongoBulkWriteException e) {
          if (e.getWriteErrors().get(0).getCode() == 11000) {
            return usageRefused(coll, steps, ns, null, replay);
          }
          throw e;
        }
        from = 1;
      }
      List<WriteModel<BsonDocument>> models = new ArrayList<>(steps.size());
      for (Step s : steps.subList(from, steps.size())) {
        models.add(s.model());
      }
      if (!models.isEmpty()) {
        coll.bulkWrite(models, new BulkWriteOptions().ordered(true));
      }
      return true;
    }
    for (int i = 0; i < steps.size(); i++) {
      Step s = steps.get(i);
      try {
        coll.bulkWrite(List.of(s.model()));
      } catch (MongoBulkWriteException e) {
        if (i == 0 && s.name().equals("usage") && e.getWriteErrors().get(0).getCode() == 11000) {
          return usageRefused(coll, steps, ns, hook, replay);
        }
        throw e;
      }
      step(hook, s.name());
    }
    return true;
  }

  /**
   * The usage step met a duplicate key: its filter did not match an existing counter document.
   * Either a repairer applied this intent already (its marker is there: go on without the usage
   * step), or the bucket is being deleted (nothing was applied: report it).
   */
  private boolean usageRefused(MongoCollection<BsonDocument> coll, List<Step> steps, Namespace ns,
      StepHook hook, boolean replay) {
    if (replay) {
      // the marker is there: this intent's usage is counted
      runRest(coll, steps, hook);
      return true;
    }
    BsonDocument counters = coll.find(Filters.eq("_id", ns.ids().usage(shard))).first();
    BsonDocument applied = counters == null ? null : counters.getDocument("a", null);
    if (applied != null && applied.containsKey(tag)) {
      runRest(coll, steps, hook);
      return true;
    }
    return false;
  }

  private void runRest(MongoCollection<BsonDocument> coll, List<Step> steps, StepHook hook) {
    List<WriteModel<BsonDocument>> rest = new ArrayList<>();
    for (Step s : steps.subList(1, steps.size())) {
      if (hook != null) {
        coll.bulkWrite(List.of(s.model()));
        step(hook, s.name());
      } else {
        rest.add(s.model());
      }
    }
    if (!rest.isEmpty()) {
      coll.bulkWrite(rest, new BulkWriteOptions().ordered(true));
    }
  }

}
