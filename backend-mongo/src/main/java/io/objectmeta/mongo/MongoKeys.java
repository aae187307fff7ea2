package io.objectmeta.mongo;

import static io.objectmeta.mongo.MongoMetadataStore.LIVE;
import static io.objectmeta.mongo.MongoMetadataStore.newTag;
import static io.objectmeta.mongo.MongoMetadataStore.range;
import static io.objectmeta.mongo.MongoMetadataStore.shardOf;
import static io.objectmeta.mongo.MongoMetadataStore.unavailable;

import io.objectmeta.api.spi.IntentProtocol;
import com.mongodb.MongoException;
import com.mongodb.client.FindIterable;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.DeleteResult;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectMetadataUpdate;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.model.WriteCondition;
import io.objectmeta.api.version.VersionId;
import io.objectmeta.api.versioning.KeyChange;
import io.objectmeta.api.versioning.KeyHistory;
import io.objectmeta.api.versioning.KeyWrites;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.conversions.Bson;

/**
 * Object versions on MongoDB: a key's lock, master and version documents, read (the lock first,
 * then the versions it serialises) and written through the shared {@link
 * io.objectmeta.api.spi.IntentProtocol}: the change planned by {@link
 * io.objectmeta.api.versioning.KeyWrites}, committed as an intent in the lock, applied step by
 * step ({@link #intentFor} says which steps, in which order: this is where a delete marker, a
 * placeholder or a null version gets written).
 */
final class MongoKeys implements io.objectmeta.api.spi.ComposedMetadataStore.Keys {
  private final MongoMetadataStore s;

  MongoKeys(MongoMetadataStore s) {
    this.s = s;
  }

  // -------------------------------------------------------------------------------- key reads

  /** What a write reads of a key: its lock, the key's format, and (part of) its history. */
  record KeyRead(BsonDocument lock, Namespace ns, List<ObjectVersion> versions,
      boolean sawAll) {
    long seq() {
      return lock == null ? 0 : lock.getInt64("s").getValue();
    }

    KeyHistory history(String key) {
      return new KeyHistory(key, versions);
    }
  }

  /**
   * What a reader (not a writer) reads of a key in a bucket that a migration is moving: the
   * versions in either format, one copy of each. A key is in the old format until it moves, in
   * the new one after, and in both while it moves (copied, then removed): the union is right at
   * every instant, without waiting for the move.
   */
  KeyRead bothFormats(MongoMetadataStore.Row r, String key, boolean needNull, VersionId named) {
    KeyRead a = readKeyIn(s.ns(r).withFormat(r.format()), null, key, needNull, named, false);
    KeyRead b = readKeyIn(s.ns(r).withFormat(r.legacy()), null, key, needNull, named, false);
    Map<VersionId, ObjectVersion> all = new java.util.LinkedHashMap<>();
    for (ObjectVersion v : a.versions()) {
      all.put(v.revision(), v);
    }
    for (ObjectVersion v : b.versions()) {
      all.putIfAbsent(v.revision(), v);
    }
    return new KeyRead(null, a.ns(), new ArrayList<>(all.values()), a.sawAll() && b.sawAll());
  }

  /** The key format of a key: its lock's, or the bucket's (new keys, or locks that name none). */
  private static KeyFormat formatOf(MongoMetadataStore.Row r, BsonDocument lock) {
    if (lock == null) {
      return r.format();
    }
    return lock.containsKey("f") ? KeyFormat.of(lock.getString("f").getValue()) : r.legacy();
  }

  /**
   * The key's lock, then its two newest versions; then, if asked and not among them, the null
   * version and a named version. {@code all}: the whole history.
   */
  KeyRead readKey(MongoMetadataStore.Row r, String key, boolean needNull, VersionId named, boolean all) {
    Namespace any = s.ns(r);
    String lockId = any.ids().lock(key);
    // the lock first, in its own query: the versions must be read after it, so that a write
    // committed in between moves the sequence and fails this reader's compare-and-set
    BsonDocument lock = any.coll().find(Filters.eq("_id", lockId)).first();
    return readKeyIn(any.withFormat(formatOf(r, lock)), lock, key, needNull, named, all);
  }

  KeyRead readKeyIn(Namespace ns, BsonDocument lock, String key, boolean needNull,
      VersionId named, boolean all) {
    String from = ns.ids().versionsOf(key);
    String to = ns.ids().versionsEnd(key);
    FindIterable<BsonDocument> q = ns.coll().find(Filters.and(range(from, to), LIVE))
        .sort(Sorts.ascending("_id"));
    if (!all) {
      q = q.limit(2);
    }
    List<ObjectVersion> versions = new ArrayList<>();
    for (BsonDocument d : q) {
      String id = d.getString("_id").getValue();
      versions.add(Docs.fromVersion(key, ns.ids().revisionOf(id), d));
    }
    boolean sawAll = all || versions.size() < 2;
    if (!sawAll && named != null && versions.stream().noneMatch(v -> v.revision().equals(named))) {
      BsonDocument d = ns.coll().find(Filters.and(Filters.eq("_id", ns.ids().version(key, named)),
          LIVE)).first();
      if (d != null) {
        versions.add(Docs.fromVersion(key, named, d));
      }
    }
    if (!sawAll && needNull && versions.stream().noneMatch(ObjectVersion::nullVersion)) {
      BsonDocument d = ns.coll().find(Filters.and(range(from, to), Filters.eq("t", "v"),
          Filters.eq("n", true), LIVE)).first();
      if (d != null) {
        versions.add(Docs.fromVersion(key, ns.ids().revisionOf(d.getString("_id").getValue()), d));
      }
    }
    return new KeyRead(lock, ns, versions, sawAll);
  }

  private static VersionId revisionOf(String versionId) {
    if (versionId == null || VersionId.NULL.equals(versionId)) {
      return null;
    }
    try {
      return VersionId.decode(versionId, "versionId");
    } catch (InvalidArgumentException e) {
      return null;
    }
  }

  // ------------------------------------------------------------------------------- key writes

  /** Extra work a key write carries (a multipart completion's upload and parts). */
  record Extra(List<BsonDocument> ops, List<BsonDocument> garbage, Usage usage) {
    static final Extra NONE = new Extra(List.of(), List.of(), Usage.ZERO);
  }

  /**
   * One write to a key, through the shared {@link IntentProtocol}: read the key's lock, then its
   * versions; plan with the shared rules; commit the intent in the lock (a compare-and-set on its
   * sequence); apply it. Versions read without their lock (the lock was dropped, the key emptied,
   * after it was read) are another incarnation's: a torn read, read again.
   */
  KeyChange writeKey(String bucket, String key, boolean needNull, String versionId,
      boolean all, BiFunction<MongoMetadataStore.Row, KeyHistory, KeyChange> plan,
      java.util.function.Function<MongoMetadataStore.Row, Extra> extra) {
    return s.protocol.write("the key", () -> {
      MongoMetadataStore.Row r = s.row(bucket);
      boolean wantNull = needNull || r.bucket().versioning() == VersioningState.SUSPENDED
          || VersionId.NULL.equals(versionId);
      KeyRead read;
      try {
        read = readKey(r, key, wantNull, revisionOf(versionId), all);
      } catch (MongoException e) {
        throw unavailable(e);
      }
      return new KeyAttempt(r, key, read, plan, extra);
    });
  }

  /** A key write's attempt over one read of the key. */
  private final class KeyAttempt implements IntentProtocol.Attempt<KeyChange> {
    private final MongoMetadataStore.Row r;
    private final String key;
    private final KeyRead read;
    private final BiFunction<MongoMetadataStore.Row, KeyHistory, KeyChange> plan;
    private final java.util.function.Function<MongoMetadataStore.Row, Extra> extra;
    private KeyChange change;
    private Intent intent;
    private long seq;

    KeyAttempt(MongoMetadataStore.Row r, String key, KeyRead read, BiFunction<MongoMetadataStore.Row, KeyHistory, KeyChange> plan,
        java.util.function.Function<MongoMetadataStore.Row, Extra> extra) {
      this.r = r;
      this.key = key;
      this.read = read;
      this.plan = plan;
      this.extra = extra;
    }

    @Override
    public long pendingSince() {
      return MongoMetadataStore.pendingSince(read.lock());
    }

    @Override
    public void rollForward() {
      s.rollForward(read.ns(), read.lock());
    }

    @Override
    public IntentProtocol.Commit commit() {
      if (read.lock() == null && !read.versions().isEmpty()) {
        return IntentProtocol.Commit.CONFLICT;
      }
      change = plan.apply(r, read.history(key));
      Extra x = extra == null ? Extra.NONE : extra.apply(r);
      intent = intentFor(read.ns(), r, key, change, read.sawAll(), x);
      if (intent.isEmpty()) {
        return IntentProtocol.Commit.NOTHING;
      }
      seq = s.commit(read.ns(), read.ns().ids().lock(key), "k", read.lock(),
          intent, r.format());
      return seq < 0 ? IntentProtocol.Commit.CONFLICT : IntentProtocol.Commit.COMMITTED;
    }

    @Override
    public IntentProtocol.Applied apply(IntentProtocol.Waits waits) {
      return s.applyIntent(read.ns(), read.ns().ids().lock(key), read.lock() == null, seq, intent, r,
          waits);
    }

    @Override
    public KeyChange result() {
      return change;
    }
  }

  /**
   * The steps of a key change. Versions are written before the master and removed after it,
   * so a reader between steps sees the old state or the new. When the latest version is removed
   * and nothing newer replaces it, the master first becomes a placeholder with a fresh id, the
   * versions change, and the placeholder is resolved fenced on that id (the reference's PHD
   * protocol); a reader that meets it resolves it from the versions.
   */
  private Intent intentFor(Namespace ns, MongoMetadataStore.Row r, String key, KeyChange c, boolean sawAll, Extra x) {
    Ids id = ns.ids();
    KeyFormat fmt = id.format;
    Map<VersionId, ObjectVersion> before = new HashMap<>();
    for (ObjectVersion v : c.before().versions()) {
      before.put(v.revision(), v);
    }
    List<BsonDocument> puts = new ArrayList<>();
    for (ObjectVersion v : c.after().versions()) {
      ObjectVersion old = before.get(v.revision());
      if (old == null || !Docs.sameStored(old, v)) {
        puts.add(Intent.put(Docs.version(id.version(key, v.revision()), v)));
      }
    }
    Set<VersionId> kept = new HashSet<>();
    for (ObjectVersion v : c.after().versions()) {
      kept.add(v.revision());
    }
    List<BsonDocument> dels = new ArrayList<>();
    for (ObjectVersion v : c.before().versions()) {
      if (!kept.contains(v.revision())) {
        dels.add(Intent.delete(id.version(key, v.revision())));
      }
    }
    ObjectVersion bl = c.before().latest();
    ObjectVersion al = c.after().latest();
    boolean hadMaster = bl != null && (fmt == KeyFormat.V0 || !bl.deleteMarker());
    boolean wantMaster = al != null && (fmt == KeyFormat.V0 || !al.deleteMarker());
    String masterId = id.master(key);
    BsonDocument master = wantMaster ? Docs.master(masterId, al) : null;
    boolean masterSame = hadMaster && wantMaster && Docs.sameStored(bl, al);
    boolean latestRemoved = bl != null && !kept.contains(bl.revision());
    boolean older = al == null || (bl != null && al.revision().compareTo(bl.revision()) > 0);
    List<BsonDocument> ops = new ArrayList<>();
    if (latestRemoved && older) {
      String fence = s.ids.next().encode();
      ops.add(Intent.placeholder(masterId, fence));
      ops.addAll(dels);
      ops.addAll(puts);
      ops.add(Intent.repair(masterId, fence, master));
    } else {
      ops.addAll(puts);
      if (!masterSame) {
        if (wantMaster) {
          ops.add(Intent.put(master));
        } else if (hadMaster) {
          ops.add(Intent.delete(masterId));
        }
      }
      ops.addAll(dels);
    }
    ops.addAll(x.ops());
    String tag = newTag();
    Instant at = s.now();
    List<BsonDocument> garbage = new ArrayList<>();
    for (ObjectVersion v : c.garbage()) {
      garbage.add(Docs.garbage(GarbageRecord.ofVersion(tag + "." + garbage.size(), r.bucket(), v,
          at)));
    }
    for (BsonDocument g : x.garbage()) {
      garbage.add(g.clone().append("_id", new BsonString(tag + "." + garbage.size())));
    }
    Usage delta = c.usageDelta().plus(x.usage());
    boolean drop = c.after().isEmpty() && sawAll;
    return new Intent(tag, at.toEpochMilli(), Docs.usageDelta(delta), shardOf(key), ops, garbage,
        drop);
  }

  // ------------------------------------------------------------------------------------ objects

  @Override
  public ObjectVersion doPutObject(String bucket, String key, ObjectMetadata metadata,
      WriteCondition condition) {
    return writeKey(bucket, key, false, null, false, (r, h) ->
        KeyWrites.put(h, r.bucket().versioning(), metadata, condition, s.ids.next()), null).subject();
  }

  @Override
  public ObjectVersion doGetObject(String bucket, String key) {
    MongoMetadataStore.Row r = s.row(bucket);
    if (r.migrating()) {
      return KeyWrites.current(new KeyHistory(key, bothFormats(r, key, false, null).versions()));
    }
    Namespace ns = s.ns(r);
    BsonDocument m = ns.coll().find(Filters.and(Filters.eq("_id", ns.ids().master(key)), LIVE))
        .first();
    if (m != null && !Docs.isPlaceholder(m)) {
      return KeyWrites.current(new KeyHistory(key, List.of(Docs.fromMaster(key, m))));
    }
    ObjectVersion latest = newest(ns, key);
    if (m != null) {
      repairPlaceholder(ns, key, m, latest);
    }
    return KeyWrites.current(new KeyHistory(key, latest == null ? List.of() : List.of(latest)));
  }

  /** The newest version of a key, from its version range. */
  ObjectVersion newest(Namespace ns, String key) {
    BsonDocument d = ns.coll().find(Filters.and(range(ns.ids().versionsOf(key), ns.ids().versionsEnd(key)),
        Filters.eq("t", "v"), LIVE)).sort(Sorts.ascending("_id")).first();
    return d == null ? null
        : Docs.fromVersion(key, ns.ids().revisionOf(d.getString("_id").getValue()), d).withLatest(true);
  }

  /** Resolves a placeholder master to the newest version, fenced on the placeholder's id. */
  void repairPlaceholder(Namespace ns, String key, BsonDocument phd, ObjectVersion latest) {
    Bson fenced = Filters.and(Filters.eq("_id", phd.get("_id")), Filters.eq("phd", phd.get("phd")));
    boolean keep = latest != null && (ns.ids().format == KeyFormat.V0 || !latest.deleteMarker());
    if (keep) {
      ns.coll().replaceOne(fenced, Docs.master(ns.ids().master(key), latest));
    } else {
      ns.coll().updateOne(fenced, Updates.set(Docs.DELETED, true));
      ns.coll().deleteOne(fenced);
    }
  }

  @Override
  public ObjectVersion doGetObjectVersion(String bucket, String key, String versionId) {
    MongoMetadataStore.Row r = s.row(bucket);
    // a reader needs no lock: the two newest versions (for the latest flag), and the one named
    KeyRead read = r.migrating()
        ? bothFormats(r, key, VersionId.NULL.equals(versionId), revisionOf(versionId))
        : readKeyIn(s.ns(r), null, key, VersionId.NULL.equals(versionId), revisionOf(versionId),
            false);
    return KeyWrites.version(read.history(key), versionId);
  }

  @Override
  public ObjectVersion doUpdateObjectMetadata(String bucket, String key, String versionId,
      ObjectMetadataUpdate update) {
    return writeKey(bucket, key, false, versionId, false,
        (r, h) -> KeyWrites.update(h, versionId, update), null).subject();
  }

  @Override
  public DeleteResult doDeleteObject(String bucket, String key) {
    return writeKey(bucket, key, false, null, false,
        (r, h) -> KeyWrites.delete(h, r.bucket().versioning(), s.ids.next()), null).deleteResult();
  }

  @Override
  public DeleteResult doDeleteObjectVersion(String bucket, String key, String versionId) {
    return writeKey(bucket, key, false, versionId, false,
        (r, h) -> KeyWrites.deleteVersion(h, versionId), null).versionDeleteResult();
  }

  @Override
  public void doRestoreKey(String bucket, String key, List<ObjectVersion> versions) {
    writeKey(bucket, key, true, null, true,
        (r, h) -> KeyWrites.restore(h, r.bucket().versioning(), versions), null);
  }
}
