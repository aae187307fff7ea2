package io.objectmeta.mongo;

import io.objectmeta.api.spi.BackgroundRepair;
import io.objectmeta.api.spi.StepHook;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.MongoException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.FindIterable;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import com.mongodb.client.model.WriteModel;
import io.objectmeta.api.error.BucketAlreadyExistsException;
import io.objectmeta.api.error.BucketNotEmptyException;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.error.NoSuchKeyException;
import io.objectmeta.api.error.NoSuchUploadException;
import io.objectmeta.api.error.ServiceUnavailableException;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbagePage;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.gc.GcQueueStats;
import io.objectmeta.api.listing.Cursor;
import io.objectmeta.api.listing.Cursors;
import io.objectmeta.api.listing.PagedCursor;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.CompletedPart;
import io.objectmeta.api.model.DeleteResult;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectMetadataUpdate;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.model.StoreUsage;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.model.WriteCondition;
import io.objectmeta.api.spi.AbstractMetadataStore;
import io.objectmeta.api.version.VersionId;
import io.objectmeta.api.version.VersionIdGenerator;
import io.objectmeta.api.versioning.BucketRules;
import io.objectmeta.api.versioning.KeyChange;
import io.objectmeta.api.versioning.KeyHistory;
import io.objectmeta.api.versioning.KeyWrites;
import io.objectmeta.api.versioning.MultipartRules;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiFunction;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.conversions.Bson;

/**
 * The MongoDB backend, after the reference design ({@code mongodb-metadata-backend.md}): a
 * {@code __metastore} of bucket documents, an {@code __infostore} for the deployment's UUID,
 * master and version documents in v0 or v1 key format, placeholders (PHD) when the latest version
 * is removed, oplog-friendly deletes, no transactions and no partial indexes. What the reference
 * left to chance is made durable here: every multi-document write is recorded as an {@link Intent}
 * in its key's lock document before it is applied, so a crash between steps is rolled forward
 * by the next writer of the key, by the background drain, or by {@link #repair()}; readers that
 * meet a placeholder resolve and repair it, fenced on its id.
 *
 * <p>Layouts ({@link MongoConfig}): collection-per-bucket, where bucket {@code B} with id
 * {@code I} has collection {@code objects.I} (a missing collection is an empty bucket), or
 * shared, one {@code objects} collection whose ids all start with the bucket id. Either way a
 * bucket is one contiguous id range; the shard key is {@code {_id: 1}} (per bucket: the key
 * order inside the bucket's collection; shared: bucket id, then key).
 */
public final class MongoMetadataStore extends AbstractMetadataStore {
  static final String METASTORE = "__metastore";
  static final String INFOSTORE = "__infostore";
  static final String GC = "__gcqueue";
  static final String SHARED = "objects";
  static final int SHARDS = Ids.SHARDS;

  private final MongoClient client;
  private final boolean ownsClient;
  private final MongoConfig config;
  private final io.objectmeta.api.spi.RetryPolicy retry;
  private final MongoDatabase db;
  private final MongoCollection<BsonDocument> meta;
  private final MongoCollection<BsonDocument> info;
  private final MongoCollection<BsonDocument> gc;
  private final MongoCollection<BsonDocument> shared;
  private final Clock clock = Clock.systemUTC();
  private final VersionIdGenerator ids = new VersionIdGenerator();
  private final Set<String> indexed = ConcurrentHashMap.newKeySet();
  private final BackgroundRepair drain;
  private volatile StepHook hook;
  private final UsageMarkers markers = new UsageMarkers();

  MongoMetadataStore(MongoClient client, boolean ownsClient, MongoConfig config) {
    this.client = client;
    this.ownsClient = ownsClient;
    this.config = config;
    this.retry = new io.objectmeta.api.spi.RetryPolicy("mongodb", config.maxRetries(), 20);
    this.db = client.getDatabase(config.database());
    this.meta = db.getCollection(METASTORE, BsonDocument.class);
    this.info = db.getCollection(INFOSTORE, BsonDocument.class);
    this.gc = db.getCollection(GC, BsonDocument.class);
    this.shared = db.getCollection(SHARED, BsonDocument.class);
    try {
      checkLayout();
      meta.createIndex(Indexes.ascending("id"));
      gc.createIndex(Indexes.ascending("at", "_id"));
      if (config.layout() == MongoConfig.Layout.SHARED) {
        shared.createIndex(Indexes.ascending("p"), new IndexOptions().sparse(true));
      }
    } catch (MongoException e) {
      if (ownsClient) {
        client.close();
      }
      throw unavailable(e);
    }
    if (config.repair()) {
      drain = BackgroundRepair.start("objectmeta-mongo-repair", "mongodb database "
          + config.database(), config.repairInterval(), this::repair);
    } else {
      drain = null;
    }
  }

  /** The layout is the database's: recorded on first use, and a store that disagrees refuses. */
  private void checkLayout() {
    BsonDocument mine = new BsonDocument("_id", new BsonString("layout"))
        .append("v", new BsonString(config.layout().text));
    try {
      info.insertOne(mine);
    } catch (MongoWriteException e) {
      if (e.getError().getCode() != 11000) {
        throw e;
      }
      BsonDocument stored = info.find(Filters.eq("_id", "layout")).first();
      String have = stored == null ? config.layout().text : stored.getString("v").getValue();
      if (!have.equals(config.layout().text)) {
        throw new InvalidArgumentException("layout", "database \"" + config.database()
            + "\" uses layout " + have + ", not " + config.layout().text);
      }
    }
  }

  /** Stops each later multi-step write after the steps the hook chooses (tests only). */
  void setStepHook(StepHook h) {
    this.hook = h;
  }

  MongoDatabase database() {
    return db;
  }

  MongoConfig config() {
    return config;
  }

  @Override
  public void close() {
    if (drain != null) {
      drain.close();
    }
    markers.flush(db);
    if (ownsClient) {
      client.close();
    }
  }

  /** A driver failure from anywhere in a call (a timeout, a lost connection), typed. */
  @Override
  protected MetadataException fault(RuntimeException e) {
    return e instanceof MongoException m ? unavailable(m) : null;
  }

  /**
   * A driver failure, typed: credentials the server refuses (a MongoSecurityException, or code 13
   * Unauthorized / 18 AuthenticationFailed) are StoreConfigurationException, which no retry cures;
   * the rest (network, timeouts, elections) ServiceUnavailable.
   */
  static MetadataException unavailable(MongoException e) {
    if (e instanceof com.mongodb.MongoSecurityException || e.getCode() == 13 || e.getCode() == 18) {
      return new io.objectmeta.api.error.StoreConfigurationException("mongodb: " + e.getMessage(), e);
    }
    return new ServiceUnavailableException("mongodb: " + e.getMessage(), e);
  }

  private Instant now() {
    return clock.instant();
  }

  // ------------------------------------------------------------------------------------ buckets

  /**
   * A live bucket with its revision and key formats: {@code format} for keys written from now on,
   * {@code legacy} for keys whose lock names none (the same, unless a migration is moving the
   * bucket from v0 to v1).
   */
  private record Row(Bucket bucket, KeyFormat format, KeyFormat legacy, long rev) {
    boolean migrating() {
      return format != legacy;
    }
  }

  private static Row row(BsonDocument d) {
    KeyFormat f = KeyFormat.of(d.getString("fmt").getValue());
    KeyFormat lf = d.containsKey("lf") ? KeyFormat.of(d.getString("lf").getValue()) : f;
    return new Row(Docs.bucket(d), f, lf, d.getInt64("r").getValue());
  }

  private Row row(String name) {
    BsonDocument d = meta.find(Filters.and(Filters.eq("_id", name),
        Filters.ne(Docs.DELETED, true))).first();
    if (d == null) {
      throw new NoSuchBucketException("bucket: \"" + name + "\" does not exist");
    }
    return row(d);
  }

  Namespace ns(Bucket b, KeyFormat format) {
    if (config.layout() == MongoConfig.Layout.SHARED) {
      return new Namespace(b.name(), b.id(), shared, new Ids(b.id(), format));
    }
    String name = "objects." + b.id();
    MongoCollection<BsonDocument> c = db.getCollection(name, BsonDocument.class);
    return new Namespace(b.name(), b.id(), c, new Ids("", format));
  }

  private Namespace ns(Row r) {
    return ns(r.bucket(), r.format());
  }


  private void ensureIndexes(Namespace ns) {
    if (config.layout() == MongoConfig.Layout.COLLECTION_PER_BUCKET
        && indexed.add(ns.collectionName())) {
      ns.coll().createIndex(Indexes.ascending("p"), new IndexOptions().sparse(true));
    }
  }

  @Override
  protected Bucket doCreateBucket(String name, String owner, ObjectNode attributes) {
    Bucket b = new Bucket(name, UUID.randomUUID().toString(), owner, now(),
        VersioningState.UNVERSIONED, attributes);
    insertBucket(b, config.keyFormat());
    return b;
  }

  private void insertBucket(Bucket b, KeyFormat format) {
    try {
      meta.insertOne(Docs.bucket(b, format, format, 1));
    } catch (MongoWriteException e) {
      if (e.getError().getCode() == 11000) {
        throw new BucketAlreadyExistsException("bucket: \"" + b.name() + "\" exists");
      }
      throw unavailable(e);
    }
    Namespace ns = ns(b, format);
    ensureIndexes(ns);
    // every counter shard exists from the start, so a bucket delete can close them all
    List<WriteModel<BsonDocument>> shards = new ArrayList<>();
    for (int i = 0; i < SHARDS; i++) {
      shards.add(new UpdateOneModel<>(Filters.eq("_id", ns.ids().usage(i)),
          Updates.set("t", "c"), new UpdateOptions().upsert(true)));
    }
    ns.coll().bulkWrite(shards);
  }

  @Override
  protected Bucket doGetBucket(String name) {
    return row(name).bucket();
  }

  @Override
  protected Bucket doUpdateBucket(String name, BucketUpdate update) {
    long start = System.nanoTime();
    for (int attempt = 0; ; attempt++) {
      Row r = row(name);
      Bucket after = BucketRules.apply(r.bucket(), update);
      if (casBucket(r, after)) {
        return after;
      }
      retry.backoff(attempt, start, "the bucket kept changing");
    }
  }

  private boolean casBucket(Row r, Bucket after) {
    return meta.replaceOne(Filters.and(Filters.eq("_id", r.bucket().name()),
        Filters.eq("id", r.bucket().id()), Filters.eq("r", r.rev()), Filters.ne(Docs.DELETED, true)),
        Docs.bucket(after, r.format(), r.legacy(), r.rev() + 1)).getMatchedCount() == 1;
  }

  @Override
  protected void doDeleteBucket(String name) {
    Row r = row(name);
    Namespace ns = ns(r);
    long closing = now().toEpochMilli();
    setClosing(ns, closing);
    boolean done = false;
    try {
      BsonDocument any = ns.coll().find(Filters.and(range(ns.ids().start(), ns.ids().end()),
          Filters.in("t", "k", "m", "v"))).projection(Projections.include("_id")).first();
      if (any != null) {
        throw new BucketNotEmptyException("bucket: \"" + name + "\" holds versions or delete markers");
      }
      Instant at = now();
      List<BsonDocument> garbage = new ArrayList<>();
      String tag = "b" + UUID.randomUUID().toString().replace("-", "");
      for (BsonDocument u : ns.coll().find(Filters.and(range(ns.ids().uploadsStart(),
          ns.ids().uploadsEnd()), Filters.eq("t", "p")))) {
        String uploadDoc = u.getString("_id").getValue();
        uploadDoc = uploadDoc.substring(0, uploadDoc.length() - 7);
        Part p = Docs.part(u);
        garbage.add(Docs.garbage(tag + "." + garbage.size(), GarbageRecord.Kind.PART, name,
            r.bucket().id(), ns.ids().keyOfUpload(uploadDoc), ns.ids().uploadIdOf(uploadDoc),
            p.partNumber(), p.size(), p.dataLocations(), at));
      }
      // the bucket document leaves first (oplog-friendly), then its records join the queue
      Bson mine = Filters.and(Filters.eq("_id", name), Filters.eq("id", r.bucket().id()));
      meta.updateOne(mine, Updates.set(Docs.DELETED, true));
      meta.deleteOne(mine);
      garbage.add(Docs.garbage(tag + ".b", GarbageRecord.Kind.BUCKET, name, r.bucket().id(), null,
          null, 0, 0, List.of(), at));
      insertGarbage(garbage);
      done = true;
      // the counters stay closed for good: a write that read the bucket before it left fails
      // its usage step instead of writing into a deleted bucket; the namespace is dropped when
      // its GC record is acknowledged
    } finally {
      if (!done) {
        reopen(ns, closing);
      }
    }
  }

  private void setClosing(Namespace ns, long since) {
    List<WriteModel<BsonDocument>> shards = new ArrayList<>();
    for (int i = 0; i < SHARDS; i++) {
      shards.add(new UpdateOneModel<>(Filters.eq("_id", ns.ids().usage(i)),
          Updates.combine(Updates.set("t", "c"), Updates.set("del", since)),
          new UpdateOptions().upsert(true)));
    }
    ns.coll().bulkWrite(shards);
  }

  private void reopen(Namespace ns, long since) {
    ns.coll().updateMany(Filters.and(range(ns.ids().usage(0), ns.ids().usage(SHARDS)),
        Filters.eq("del", since)), Updates.unset("del"));
  }

  private void insertGarbage(List<BsonDocument> records) {
    if (records.isEmpty()) {
      return;
    }
    try {
      gc.insertMany(records, new InsertManyOptions().ordered(false));
    } catch (com.mongodb.MongoBulkWriteException e) {
      if (e.getWriteErrors().stream().anyMatch(w -> w.getCode() != 11000)) {
        throw e;
      }
    }
  }

  /**
   * A write found the bucket's counters closed: the bucket is being deleted, or is gone. Waits
   * for the delete to finish or give up; a close older than the intent lease was left by a dead
   * process and is lifted.
   */
  private void awaitBucket(Row r, int attempt, long deadline) {
    Namespace ns = ns(r);
    BsonDocument shard = ns.coll().find(Filters.and(range(ns.ids().usage(0), ns.ids().usage(SHARDS)),
        Filters.exists("del", true))).first();
    BsonDocument live = meta.find(Filters.and(Filters.eq("_id", r.bucket().name()),
        Filters.eq("id", r.bucket().id()), Filters.ne(Docs.DELETED, true))).first();
    if (live == null) {
      throw new NoSuchBucketException("bucket: \"" + r.bucket().name() + "\" does not exist");
    }
    if (shard != null && shard.containsKey("del") && shard.get("del").isInt64()
        && shard.getInt64("del").getValue() < now().toEpochMilli() - config.intentLease().toMillis()) {
      reopen(ns, shard.getInt64("del").getValue());
    }
    backoff(attempt, deadline);
  }

  @Override
  protected List<Bucket> doListBuckets(String owner, String after, int limit) {
    List<Bson> f = new ArrayList<>();
    f.add(Filters.ne(Docs.DELETED, true));
    if (owner != null) {
      f.add(Filters.eq("owner", owner));
    }
    if (after != null) {
      f.add(Filters.gt("_id", after));
    }
    List<Bucket> out = new ArrayList<>();
    for (BsonDocument d : meta.find(Filters.and(f)).sort(Sorts.ascending("_id")).limit(limit)) {
      out.add(Docs.bucket(d));
    }
    return out;
  }

  // -------------------------------------------------------------------------------- key reads

  private static Bson range(String from, String to) {
    return Filters.and(Filters.gte("_id", from), Filters.lt("_id", to));
  }

  private static final Bson LIVE = Filters.ne(Docs.DELETED, true);

  /** What a write reads of a key: its lock, the key's format, and (part of) its history. */
  private record KeyRead(BsonDocument lock, Namespace ns, List<ObjectVersion> versions,
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
  private KeyRead bothFormats(Row r, String key, boolean needNull, VersionId named) {
    KeyRead a = readKeyIn(ns(r).withFormat(r.format()), null, key, needNull, named, false);
    KeyRead b = readKeyIn(ns(r).withFormat(r.legacy()), null, key, needNull, named, false);
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
  private static KeyFormat formatOf(Row r, BsonDocument lock) {
    if (lock == null) {
      return r.format();
    }
    return lock.containsKey("f") ? KeyFormat.of(lock.getString("f").getValue()) : r.legacy();
  }

  /**
   * The key's lock, then its two newest versions; then, if asked and not among them, the null
   * version and a named version. {@code all}: the whole history.
   */
  private KeyRead readKey(Row r, String key, boolean needNull, VersionId named, boolean all) {
    Namespace any = ns(r);
    String lockId = any.ids().lock(key);
    // the lock first, in its own query: the versions must be read after it, so that a write
    // committed in between moves the sequence and fails this reader's compare-and-set
    BsonDocument lock = any.coll().find(Filters.eq("_id", lockId)).first();
    return readKeyIn(any.withFormat(formatOf(r, lock)), lock, key, needNull, named, all);
  }

  private KeyRead readKeyIn(Namespace ns, BsonDocument lock, String key, boolean needNull,
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
  private record Extra(List<BsonDocument> ops, List<BsonDocument> garbage, Usage usage) {
    static final Extra NONE = new Extra(List.of(), List.of(), Usage.ZERO);
  }

  /**
   * Reads, plans with the shared rules, commits the intent in the key's lock, applies it. A
   * concurrent writer makes the commit fail: start over. An intent found in the lock is another
   * writer's, in flight (wait) or left by a dead process (roll it forward).
   */
  private KeyChange writeKey(String bucket, String key, boolean needNull, String versionId,
      boolean all, BiFunction<Row, KeyHistory, KeyChange> plan,
      java.util.function.Function<Row, Extra> extra) {
    long deadline = System.nanoTime() + 2 * config.intentLease().toNanos();
    for (int attempt = 0; ; attempt++) {
      Row r = row(bucket);
      boolean wantNull = needNull || r.bucket().versioning() == VersioningState.SUSPENDED
          || VersionId.NULL.equals(versionId);
      KeyRead read;
      try {
        read = readKey(r, key, wantNull, revisionOf(versionId), all);
      } catch (MongoException e) {
        throw unavailable(e);
      }
      Namespace ns = read.ns();
      if (read.lock() != null && read.lock().containsKey("i")) {
        settle(ns, read.lock(), attempt, deadline);
        continue;
      }
      if (read.lock() == null && !read.versions().isEmpty()) {
        // versions without their lock: the lock was dropped (the key emptied) after it was read
        // and the versions read are another incarnation's; read again
        backoff(attempt, deadline);
        continue;
      }
      KeyChange change = plan.apply(r, read.history(key));
      Extra x = extra == null ? Extra.NONE : extra.apply(r);
      Intent intent = intentFor(ns, r, key, change, read.sawAll(), x);
      if (intent.isEmpty()) {
        return change;
      }
      String lockId = ns.ids().lock(key);
      long seq = commit(ns, lockId, "k", read.lock(), intent, r.format());
      if (seq < 0) {
        backoff(attempt, deadline);
        continue;
      }
      step("commit");
      if (intent.apply(ns, lockId, seq, gc, hook, false, markers) == Intent.Outcome.BUCKET_CLOSING) {
        cancel(ns, lockId, read.lock() == null, seq);
        awaitBucket(r, attempt, deadline);
        continue;
      }
      return change;
    }
  }

  private void step(String name) {
    StepHook h = hook;
    if (h != null) {
      h.after(name);
    }
  }

  /**
   * Records the intent: creates the lock (none yet) or advances its sequence by one. Returns the
   * lock's new sequence, or -1 if another writer got there first. A new lock starts at a random
   * sequence: a key emptied (its lock dropped) and written again must never bring back a
   * sequence that a slow writer read before, or that writer's compare-and-set would pass.
   */
  private long commit(Namespace ns, String lockId, String kind, BsonDocument lock, Intent intent,
      KeyFormat format) {
    long nowMs = now().toEpochMilli();
    try {
      if (lock == null) {
        long start = ThreadLocalRandom.current().nextLong(1, 1L << 62);
        ns.coll().insertOne(new BsonDocument("_id", new BsonString(lockId))
            .append("t", new BsonString(kind)).append("s", new BsonInt64(start))
            .append("p", new BsonInt64(nowMs)).append("i", intent.toBson())
            .append("f", new BsonString(format.text())));
        return start;
      }
      long seq = lock.getInt64("s").getValue();
      return ns.coll().updateOne(Filters.and(Filters.eq("_id", lockId), Filters.eq("s", seq),
          Filters.exists("i", false)), Updates.combine(Updates.set("s", seq + 1),
          Updates.set("p", nowMs), Updates.set("i", intent.toBson()))).getMatchedCount() == 1
          ? seq + 1 : -1;
    } catch (MongoWriteException e) {
      if (e.getError().getCode() == 11000) {
        return -1;
      }
      throw unavailable(e);
    }
  }

  /** Withdraws an intent none of whose steps ran. */
  private static void cancel(Namespace ns, String lockId, boolean created, long seq) {
    Bson mine = Filters.and(Filters.eq("_id", lockId), Filters.eq("s", seq));
    if (created) {
      ns.coll().deleteOne(mine);
    } else {
      ns.coll().updateOne(mine, Updates.combine(Updates.unset("i"), Updates.unset("p")));
    }
  }

  /** A lock holds an intent: wait for its writer, or roll it forward if its lease ran out. */
  private void settle(Namespace ns, BsonDocument lock, int attempt, long deadline) {
    long since = lock.getInt64("p").getValue();
    if (since < now().toEpochMilli() - config.intentLease().toMillis()) {
      rollForward(ns, lock);
    } else {
      backoff(attempt, deadline);
    }
  }

  /**
   * Takes over a stale intent (a compare-and-set on its pending time, so one repairer at a time)
   * and applies it again; every step is idempotent.
   */
  private boolean rollForward(Namespace ns, BsonDocument lock) {
    String id = lock.getString("_id").getValue();
    long seq = lock.getInt64("s").getValue();
    long since = lock.getInt64("p").getValue();
    long nowMs = now().toEpochMilli();
    if (ns.coll().updateOne(Filters.and(Filters.eq("_id", id), Filters.eq("s", seq),
        Filters.eq("p", since)), Updates.set("p", nowMs)).getMatchedCount() != 1) {
      return false;
    }
    Intent intent = Intent.fromBson(lock.getDocument("i"));
    intent.apply(ns, id, seq, gc, null, true, null);
    return true;
  }

  /** A pause in a wait bounded by {@code deadline} (System.nanoTime()), the retry policy's jitter. */
  private void backoff(int attempt, long deadline) {
    if (System.nanoTime() > deadline) {
      throw new ServiceUnavailableException("mongodb: the key stayed busy; try again");
    }
    retry.pause(attempt);
  }

  private static String newTag() {
    return Intent.newTag();
  }

  private static int shardOf(String key) {
    return Ids.shardOf(key);
  }

  /**
   * The steps of a key change. Versions are written before the master and removed after it,
   * so a reader between steps sees the old state or the new. When the latest version is removed
   * and nothing newer replaces it, the master first becomes a placeholder with a fresh id, the
   * versions change, and the placeholder is resolved fenced on that id (the reference's PHD
   * protocol); a reader that meets it resolves it from the versions.
   */
  private Intent intentFor(Namespace ns, Row r, String key, KeyChange c, boolean sawAll, Extra x) {
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
      String fence = ids.next().encode();
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
    Instant at = now();
    List<BsonDocument> garbage = new ArrayList<>();
    for (ObjectVersion v : c.garbage()) {
      garbage.add(Docs.garbage(tag + "." + garbage.size(), GarbageRecord.Kind.OBJECT_VERSION,
          r.bucket().name(), r.bucket().id(), key, v.versionId(), 0, v.size(),
          v.metadata().dataLocations(), at));
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
  protected ObjectVersion doPutObject(String bucket, String key, ObjectMetadata metadata,
      WriteCondition condition) {
    return writeKey(bucket, key, false, null, false, (r, h) ->
        KeyWrites.put(h, r.bucket().versioning(), metadata, condition, ids.next()), null).subject();
  }

  @Override
  protected ObjectVersion doGetObject(String bucket, String key) {
    Row r = row(bucket);
    if (r.migrating()) {
      return KeyWrites.current(new KeyHistory(key, bothFormats(r, key, false, null).versions()));
    }
    Namespace ns = ns(r);
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
  private ObjectVersion newest(Namespace ns, String key) {
    BsonDocument d = ns.coll().find(Filters.and(range(ns.ids().versionsOf(key), ns.ids().versionsEnd(key)),
        Filters.eq("t", "v"), LIVE)).sort(Sorts.ascending("_id")).first();
    return d == null ? null
        : Docs.fromVersion(key, ns.ids().revisionOf(d.getString("_id").getValue()), d).withLatest(true);
  }

  /** Resolves a placeholder master to the newest version, fenced on the placeholder's id. */
  private void repairPlaceholder(Namespace ns, String key, BsonDocument phd, ObjectVersion latest) {
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
  protected ObjectVersion doGetObjectVersion(String bucket, String key, String versionId) {
    Row r = row(bucket);
    // a reader needs no lock: the two newest versions (for the latest flag), and the one named
    KeyRead read = r.migrating()
        ? bothFormats(r, key, VersionId.NULL.equals(versionId), revisionOf(versionId))
        : readKeyIn(ns(r), null, key, VersionId.NULL.equals(versionId), revisionOf(versionId),
            false);
    return KeyWrites.version(read.history(key), versionId);
  }

  @Override
  protected ObjectVersion doUpdateObjectMetadata(String bucket, String key, String versionId,
      ObjectMetadataUpdate update) {
    return writeKey(bucket, key, false, versionId, false,
        (r, h) -> KeyWrites.update(h, versionId, update), null).subject();
  }

  @Override
  protected DeleteResult doDeleteObject(String bucket, String key) {
    VersioningState[] state = new VersioningState[1];
    KeyChange c = writeKey(bucket, key, false, null, false, (r, h) -> {
      state[0] = r.bucket().versioning();
      return KeyWrites.delete(h, state[0], ids.next());
    }, null);
    return state[0] == VersioningState.UNVERSIONED
        ? new DeleteResult(key, null, false)
        : new DeleteResult(key, c.subject().versionId(), true);
  }

  @Override
  protected DeleteResult doDeleteObjectVersion(String bucket, String key, String versionId) {
    KeyChange c = writeKey(bucket, key, false, versionId, false,
        (r, h) -> KeyWrites.deleteVersion(h, versionId), null);
    return new DeleteResult(key, c.subject().versionId(), c.subject().deleteMarker());
  }

  // ---------------------------------------------------------------------------------- multipart

  private static final Usage ONE_UPLOAD = new Usage(0, 0, 0, 0, 0, 1, 0);

  private static Usage partBytes(long bytes) {
    return new Usage(0, 0, 0, 0, 0, 0, bytes);
  }

  @Override
  protected MultipartUpload doInitiateMultipartUpload(String bucket, String key,
      ObjectMetadata metadata) {
    long deadline = System.nanoTime() + 2 * config.intentLease().toNanos();
    for (int attempt = 0; ; attempt++) {
      Row r = row(bucket);
      Namespace ns = ns(r);
      VersionId id = ids.next();
      MultipartUpload u = new MultipartUpload(key, id.encodeOldestFirst(), id.timestamp(), metadata);
      String uid = ns.ids().upload(key, u.uploadId());
      Intent intent = new Intent(newTag(), now().toEpochMilli(), Docs.usageDelta(ONE_UPLOAD),
          shardOf(key), List.of(), List.of(), false);
      BsonDocument doc = new BsonDocument("_id", new BsonString(uid)).append("t", new BsonString("u"))
          .append("s", new BsonInt64(1)).append("p", new BsonInt64(now().toEpochMilli()))
          .append("i", intent.toBson()).append("at", new BsonString(u.initiated().toString()))
          .append("md", Docs.metadata(metadata));
      ns.coll().insertOne(doc);
      step("commit");
      if (intent.apply(ns, uid, 1, gc, hook, false, markers) == Intent.Outcome.BUCKET_CLOSING) {
        ns.coll().deleteOne(Filters.and(Filters.eq("_id", uid), Filters.eq("s", 1L)));
        awaitBucket(r, attempt, deadline);
        continue;
      }
      return u;
    }
  }

  /** An upload's document with its parts (all, or from one part number). */
  private record UploadRead(Namespace ns, Row row, String id, BsonDocument doc,
      MultipartUpload upload, TreeMap<Integer, Part> parts) {}

  private UploadRead readUpload(String bucket, String key, String uploadId, Integer onlyPart,
      int attempt, long deadline) {
    while (true) {
      Row r = row(bucket);
      Namespace ns = ns(r);
      String uid = ns.ids().upload(key, uploadId);
      // the upload (the lock of its parts) first, then the parts, as for keys: parts read after
      // it can only be newer, and a write in between fails this writer's compare-and-set
      BsonDocument doc = ns.coll().find(Filters.and(Filters.eq("_id", uid), LIVE)).first();
      TreeMap<Integer, Part> parts = new TreeMap<>();
      if (doc != null) {
        Bson which = onlyPart == null ? Filters.and(Filters.gt("_id", uid),
            Filters.lt("_id", Ids.partsEnd(uid))) : Filters.eq("_id", Ids.part(uid, onlyPart));
        for (BsonDocument d : ns.coll().find(Filters.and(which, LIVE))) {
          Part p = Docs.part(d);
          parts.put(p.partNumber(), p);
        }
      }
      if (doc == null || completing(doc)) {
        throw new NoSuchUploadException("uploadId: no upload " + uploadId + " of \"" + key + "\"");
      }
      if (doc.containsKey("i")) {
        settle(ns, doc, attempt++, deadline);
        continue;
      }
      return new UploadRead(ns, r, uid, doc, Docs.upload(key, uploadId, doc), parts);
    }
  }

  private boolean completing(BsonDocument upload) {
    return upload.containsKey("cmp") && upload.getInt64("cmp").getValue()
        > now().toEpochMilli() - config.intentLease().toMillis();
  }

  private BsonDocument partGarbage(Row r, MultipartUpload u, Part p, Instant at) {
    return Docs.garbage("", GarbageRecord.Kind.PART, r.bucket().name(), r.bucket().id(), u.key(),
        u.uploadId(), p.partNumber(), p.size(), p.dataLocations(), at);
  }

  /** A write to an upload: its intent committed in the upload document, then applied. */
  private boolean writeUpload(UploadRead u, Usage delta, List<BsonDocument> ops,
      List<BsonDocument> garbage, boolean drop, int attempt, long deadline) {
    String tag = newTag();
    List<BsonDocument> gcs = new ArrayList<>();
    for (BsonDocument g : garbage) {
      gcs.add(g.clone().append("_id", new BsonString(tag + "." + gcs.size())));
    }
    Intent intent = new Intent(tag, now().toEpochMilli(), Docs.usageDelta(delta),
        shardOf(u.upload().key()), ops, gcs, drop);
    long seq = commit(u.ns(), u.id(), "u", u.doc(), intent, u.row().format());
    if (seq < 0) {
      backoff(attempt, deadline);
      return false;
    }
    step("commit");
    if (intent.apply(u.ns(), u.id(), seq, gc, hook, false, markers) == Intent.Outcome.BUCKET_CLOSING) {
      cancel(u.ns(), u.id(), false, seq);
      awaitBucket(u.row(), attempt, deadline);
      return false;
    }
    return true;
  }

  @Override
  protected Part doPutPart(String bucket, String key, String uploadId, Part part) {
    long deadline = System.nanoTime() + 2 * config.intentLease().toNanos();
    for (int attempt = 0; ; attempt++) {
      UploadRead u = readUpload(bucket, key, uploadId, part.partNumber(), attempt, deadline);
      Part stored = part.withLastModified(now());
      Part old = u.parts().get(part.partNumber());
      List<BsonDocument> garbage = old == null ? List.of()
          : List.of(partGarbage(u.row(), u.upload(), old, now()));
      long delta = stored.size() - (old == null ? 0 : old.size());
      if (writeUpload(u, partBytes(delta),
          List.of(Intent.put(Docs.part(Ids.part(u.id(), part.partNumber()), stored))), garbage,
          false, attempt, deadline)) {
        return stored;
      }
    }
  }

  @Override
  protected void doAbortMultipartUpload(String bucket, String key, String uploadId) {
    long deadline = System.nanoTime() + 2 * config.intentLease().toNanos();
    for (int attempt = 0; ; attempt++) {
      UploadRead u = readUpload(bucket, key, uploadId, null, attempt, deadline);
      Instant at = now();
      List<BsonDocument> garbage = new ArrayList<>();
      long bytes = 0;
      for (Part p : u.parts().values()) {
        garbage.add(partGarbage(u.row(), u.upload(), p, at));
        bytes += p.size();
      }
      if (writeUpload(u, new Usage(0, 0, 0, 0, 0, -1, -bytes), List.of(Intent.deleteRange(Ids.part(u.id(), 0),
          Ids.partsEnd(u.id()))), garbage, true, attempt, deadline)) {
        return;
      }
    }
  }

  @Override
  protected ObjectVersion doCompleteMultipartUpload(String bucket, String key, String uploadId,
      List<CompletedPart> parts) {
    long deadline = System.nanoTime() + 2 * config.intentLease().toNanos();
    UploadRead u;
    for (int attempt = 0; ; attempt++) {
      u = readUpload(bucket, key, uploadId, null, attempt, deadline);
      // freeze the upload: parts and aborts now see it as gone, until the completion commits
      long seq = u.doc().getInt64("s").getValue();
      if (u.ns().coll().updateOne(Filters.and(Filters.eq("_id", u.id()), Filters.eq("s", seq),
          Filters.exists("i", false)), Updates.combine(Updates.set("s", seq + 1),
          Updates.set("cmp", now().toEpochMilli()))).getMatchedCount() == 1) {
        break;
      }
      backoff(attempt, deadline);
    }
    UploadRead frozen = u;
    ObjectMetadata m;
    try {
      m = MultipartRules.complete(frozen.upload().metadata(), frozen.parts(), parts);
    } catch (MetadataException e) {
      unfreeze(frozen);
      throw e;
    }
    Instant at = now();
    long bytes = 0;
    List<BsonDocument> garbage = new ArrayList<>();
    for (Part p : frozen.parts().values()) {
      bytes += p.size();
    }
    for (Part p : MultipartRules.leftOut(frozen.parts(), parts)) {
      garbage.add(partGarbage(frozen.row(), frozen.upload(), p, at));
    }
    Usage uploadDelta = new Usage(0, 0, 0, 0, 0, -1, -bytes);
    List<BsonDocument> ops = List.of(Intent.deleteRange(frozen.id(), Ids.partsEnd(frozen.id())));
    try {
      return writeKey(bucket, key, false, null, false, (r, h) -> {
        if (!r.bucket().id().equals(frozen.row().bucket().id())) {
          throw new NoSuchUploadException("uploadId: no upload " + uploadId + " of \"" + key + "\"");
        }
        return KeyWrites.put(h, r.bucket().versioning(), m, WriteCondition.none(), ids.next());
      }, r -> new Extra(ops, garbage, uploadDelta)).subject();
    } catch (MetadataException | MongoException e) {
      unfreeze(frozen);
      throw e;
    }
  }

  private void unfreeze(UploadRead u) {
    u.ns().coll().updateOne(Filters.and(Filters.eq("_id", u.id()),
        Filters.eq("s", u.doc().getInt64("s").getValue() + 1)), Updates.unset("cmp"));
  }

  @Override
  protected List<Part> doListParts(String bucket, String key, String uploadId, int after, int limit) {
    Row r = row(bucket);
    Namespace ns = ns(r);
    String uid = ns.ids().upload(key, uploadId);
    BsonDocument doc = ns.coll().find(Filters.and(Filters.eq("_id", uid), LIVE)).first();
    if (doc == null || completing(doc)) {
      throw new NoSuchUploadException("uploadId: no upload " + uploadId + " of \"" + key + "\"");
    }
    List<Part> out = new ArrayList<>();
    for (BsonDocument d : ns.coll().find(Filters.and(Filters.gt("_id", Ids.part(uid, after)),
        Filters.lt("_id", Ids.partsEnd(uid)), LIVE)).sort(Sorts.ascending("_id")).limit(limit)) {
      out.add(Docs.part(d));
    }
    return out;
  }

  // ----------------------------------------------------------------------------------- listings

  /**
   * A paged scan of one id range: {@code idFrom} turns a seek key into the first id, {@code idOf}
   * an entry back into its id (to continue after it), {@code map} a document into an entry (null:
   * none, e.g. a placeholder that resolves to a delete marker).
   */
  private static final class RangeCursor<E> extends PagedCursor<E> {
    final Namespace ns;
    final String end;
    final Bson filter;
    final java.util.function.Function<String, String> idFrom;
    final java.util.function.Function<E, String> idOf;
    final java.util.function.Function<BsonDocument, E> map;

    RangeCursor(Namespace ns, String end, Bson filter, java.util.function.Function<String, String> idFrom,
        java.util.function.Function<E, String> idOf, java.util.function.Function<BsonDocument, E> map) {
      super(16, 1001); // a full page of 1000 and the entry that says it is truncated
      this.ns = ns;
      this.end = end;
      this.filter = filter;
      this.idFrom = idFrom;
      this.idOf = idOf;
      this.map = map;
    }

    @Override
    protected List<E> fetch(String from, E after, int limit) {
      List<E> out = new ArrayList<>(limit);
      Bson lower = after == null ? Filters.gte("_id", idFrom.apply(from))
          : Filters.gt("_id", idOf.apply(after));
      while (out.size() < limit) {
        int want = limit - out.size();
        int got = 0;
        String last = null;
        for (BsonDocument d : ns.coll().find(Filters.and(lower, Filters.lt("_id", end), filter, LIVE))
            .sort(Sorts.ascending("_id")).limit(want)) {
          got++;
          last = d.getString("_id").getValue();
          E e = map.apply(d);
          if (e != null) {
            out.add(e);
          }
        }
        if (got < want) {
          break;
        }
        lower = Filters.gt("_id", last);
      }
      return out;
    }
  }

  @Override
  protected Cursor<ObjectVersion> currentObjects(Bucket bucket) {
    Row r = rowOf(bucket);
    if (r.migrating()) {
      return Cursors.union(currentIn(ns(r).withFormat(r.format())),
          currentIn(ns(r).withFormat(r.legacy())),
          (x, y) -> io.objectmeta.api.listing.KeyOrder.compare(x.key(), y.key()));
    }
    return currentIn(ns(r));
  }

  /** The bucket's row, or (deleted meanwhile) a row that lists it empty. */
  private Row rowOf(Bucket b) {
    BsonDocument d = meta.find(Filters.and(Filters.eq("_id", b.name()), LIVE)).first();
    if (d != null && d.getString("id").getValue().equals(b.id())) {
      return row(d);
    }
    return new Row(b, config.keyFormat(), config.keyFormat(), 0);
  }

  /** In v0, everything but the v1 ranges (a migrating bucket has both). */
  private static Bson v0Only(Namespace ns) {
    return Filters.or(Filters.lt("_id", ns.ids().v1Start()), Filters.gte("_id", ns.ids().v1End()));
  }

  private Cursor<ObjectVersion> currentIn(Namespace ns) {
    Bson filter = ns.ids().format == KeyFormat.V1 ? Filters.eq("t", "m")
        : Filters.and(Filters.eq("t", "m"), Filters.ne("dm", true), v0Only(ns));
    return new RangeCursor<>(ns, ns.ids().mastersEnd(), filter, ns.ids()::masterFrom,
        v -> ns.ids().master(v.key()), d -> {
          String key = ns.ids().keyOfMaster(d.getString("_id").getValue());
          if (!Docs.isPlaceholder(d)) {
            return Docs.fromMaster(key, d);
          }
          ObjectVersion latest = newest(ns, key);
          repairPlaceholder(ns, key, d, latest);
          return latest == null || latest.deleteMarker() ? null : latest;
        });
  }

  @Override
  protected Cursor<ObjectVersion> versions(Bucket bucket) {
    Row r = rowOf(bucket);
    if (r.migrating()) {
      return Cursors.withLatestFlags(Cursors.union(versionsIn(ns(r).withFormat(r.format())),
          versionsIn(ns(r).withFormat(r.legacy())), (x, y) -> {
            int c = io.objectmeta.api.listing.KeyOrder.compare(x.key(), y.key());
            return c != 0 ? c : x.revision().compareTo(y.revision());
          }));
    }
    return Cursors.withLatestFlags(versionsIn(ns(r)));
  }

  private Cursor<ObjectVersion> versionsIn(Namespace ns) {
    Bson filter = ns.ids().format == KeyFormat.V1 ? Filters.eq("t", "v")
        : Filters.and(Filters.eq("t", "v"), v0Only(ns));
    return new RangeCursor<>(ns, ns.ids().versionsEnd(), filter, ns.ids()::versionFrom,
        v -> ns.ids().version(v.key(), v.revision()), d -> {
          String id = d.getString("_id").getValue();
          return Docs.fromVersion(ns.ids().keyOfVersion(id), ns.ids().revisionOf(id), d);
        });
  }

  @Override
  protected Cursor<MultipartUpload> uploads(Bucket bucket) {
    Namespace ns = ns(rowOf(bucket));
    return new RangeCursor<>(ns, ns.ids().uploadsEnd(), Filters.eq("t", "u"),
        ns.ids()::uploadFrom, u -> ns.ids().upload(u.key(), u.uploadId()), d -> {
          if (completing(d)) {
            return null;
          }
          String id = d.getString("_id").getValue();
          return Docs.upload(ns.ids().keyOfUpload(id), ns.ids().uploadIdOf(id), d);
        });
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
      Row r = row(bucket);
      if (r.format() == KeyFormat.V1 && r.legacy() == KeyFormat.V1) {
        break;
      }
      if (r.format() == KeyFormat.V0) {
        // new keys go to v1 from now on; the keys there are stay v0 until moved
        if (meta.replaceOne(Filters.and(Filters.eq("_id", bucket), Filters.eq("r", r.rev()), LIVE),
            Docs.bucket(r.bucket(), KeyFormat.V1, KeyFormat.V0, r.rev() + 1)).getMatchedCount() != 1) {
          retry.backoff(attempt, start, "the bucket kept changing");
        }
        continue;
      }
      Namespace any = ns(r);
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
        Row now = row(bucket);
        if (meta.updateOne(Filters.and(Filters.eq("_id", bucket), Filters.eq("r", now.rev()), LIVE),
            Updates.combine(Updates.set("lf", "v1"), Updates.set("r", now.rev() + 1)))
            .getMatchedCount() == 1) {
          break;
        }
      }
    }
    return new KeyFormatMigration(bucket, keys, versions,
        Duration.ofNanos(System.nanoTime() - t0));
  }

  /** Moves one key to v1 ids under its lock; returns {keys, versions} moved (0 if it had moved). */
  private long[] moveKey(Row r, String key) {
    long deadline = System.nanoTime() + 2 * config.intentLease().toNanos();
    Namespace any = ns(r);
    String lockId = any.ids().lock(key);
    for (int attempt = 0; ; attempt++) {
      BsonDocument lock = any.coll().find(Filters.eq("_id", lockId)).first();
      if (lock == null || "v1".equals(lock.getString("f", new BsonString("v0")).getValue())) {
        return new long[] {0, 0};
      }
      if (lock.containsKey("i")) {
        settle(any, lock, attempt, deadline);
        continue;
      }
      Namespace v0 = any.withFormat(KeyFormat.V0);
      Namespace v1 = any.withFormat(KeyFormat.V1);
      KeyRead read = readKeyIn(v0, lock, key, false, null, true);
      List<BsonDocument> ops = new ArrayList<>();
      KeyHistory h = read.history(key);
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
      Intent intent = new Intent(newTag(), now().toEpochMilli(), null, shardOf(key), ops,
          List.of(), false, new BsonDocument("f", new BsonString("v1")));
      long seq = commit(any, lockId, "k", lock, intent, KeyFormat.V1);
      if (seq < 0) {
        backoff(attempt, deadline);
        continue;
      }
      step("commit");
      intent.apply(any, lockId, seq, gc, hook, false, markers);
      return new long[] {1, h.versions().size()};
    }
  }

  // --------------------------------------------------------------------------------- management

  @Override
  public UUID getUUID() {
    BsonDocument fresh = new BsonDocument("_id", new BsonString("uuid"))
        .append("v", new BsonString(UUID.randomUUID().toString()));
    try {
      info.insertOne(fresh);
      return UUID.fromString(fresh.getString("v").getValue());
    } catch (MongoWriteException e) {
      if (e.getError().getCode() != 11000) {
        throw unavailable(e);
      }
      return UUID.fromString(info.find(Filters.eq("_id", "uuid")).first().getString("v").getValue());
    }
  }

  @Override
  protected Usage doBucketUsage(String bucket) {
    return usageOf(ns(row(bucket)));
  }

  private Usage usageOf(Namespace ns) {
    Usage sum = Usage.ZERO;
    for (BsonDocument d : ns.coll().find(range(ns.ids().usage(0), ns.ids().usage(SHARDS)))) {
      sum = Docs.addUsage(sum, d);
    }
    return sum;
  }

  @Override
  public StoreUsage usage() {
    long buckets = 0;
    Usage total = Usage.ZERO;
    for (BsonDocument d : meta.find(LIVE)) {
      buckets++;
      total = total.plus(usageOf(ns(Docs.bucket(d), KeyFormat.of(d.getString("fmt").getValue()))));
    }
    return new StoreUsage(buckets, total);
  }

  // ----------------------------------------------------------------------------------- GC queue

  private static final Bson RELEASED = Filters.exists("h", false);

  @Override
  protected GarbageClaim doClaimGarbage(int max, Duration gracePeriod, Duration lease) {
    Instant now = now();
    long cutoff = Docs.nanos(now.minus(gracePeriod));
    long nowMs = now.toEpochMilli();
    Instant until = GarbageClaim.leaseEndInMillis(now, lease);
    String claim = UUID.randomUUID().toString();
    Bson free = Filters.or(Filters.exists("c", false), Filters.lte("u", nowMs));
    List<BsonValue> candidates = new ArrayList<>();
    for (BsonDocument d : gc.find(Filters.and(Filters.lte("at", cutoff), RELEASED, free))
        .sort(Sorts.ascending("at", "_id")).limit(max).projection(Projections.include("_id"))) {
      candidates.add(d.get("_id"));
    }
    List<GarbageRecord> out = new ArrayList<>();
    if (!candidates.isEmpty()) {
      gc.updateMany(Filters.and(Filters.in("_id", candidates), RELEASED, free),
          Updates.combine(Updates.set("c", claim), Updates.set("u", until.toEpochMilli())));
      for (BsonDocument d : gc.find(Filters.and(Filters.in("_id", candidates), Filters.eq("c", claim)))
          .sort(Sorts.ascending("at", "_id"))) {
        out.add(Docs.garbage(d));
      }
    }
    return new GarbageClaim(claim, until, out);
  }

  @Override
  protected int doAcknowledgeGarbage(String claimId, Collection<String> recordIds) {
    Bson mine = Filters.and(Filters.in("_id", new ArrayList<>(recordIds)), Filters.eq("c", claimId),
        Filters.gt("u", now().toEpochMilli()));
    List<BsonDocument> buckets = new ArrayList<>();
    for (BsonDocument d : gc.find(Filters.and(mine, Filters.eq("k", "BUCKET")))) {
      buckets.add(d);
    }
    int n = (int) gc.deleteMany(mine).getDeletedCount();
    for (BsonDocument b : buckets) {
      dropNamespace(b.getString("bi").getValue(), b.getString("b").getValue());
    }
    return n;
  }

  /** A deleted bucket's namespace goes when its GC record is acknowledged. */
  private void dropNamespace(String bucketId, String name) {
    Bucket gone = new Bucket(name, bucketId, "-", Instant.EPOCH, VersioningState.UNVERSIONED, null);
    Namespace ns = ns(gone, config.keyFormat());
    if (config.layout() == MongoConfig.Layout.SHARED) {
      ns.coll().deleteMany(range(ns.ids().start(), ns.ids().end()));
    } else {
      ns.coll().drop();
      indexed.remove(ns.collectionName());
    }
  }

  @Override
  protected int doRenewGarbage(String claimId, Collection<String> recordIds, Duration lease) {
    Instant now = now();
    return (int) gc.updateMany(Filters.and(Filters.in("_id", new ArrayList<>(recordIds)),
        Filters.eq("c", claimId), Filters.gt("u", now.toEpochMilli())),
        Updates.set("u", GarbageClaim.leaseEndInMillis(now, lease).toEpochMilli()))
        .getMatchedCount();
  }

  @Override
  protected int doReleaseGarbage(String claimId, Collection<String> recordIds) {
    return (int) gc.updateMany(Filters.and(Filters.in("_id", new ArrayList<>(recordIds)),
        Filters.eq("c", claimId)), Updates.combine(Updates.unset("c"), Updates.unset("u")))
        .getModifiedCount();
  }

  @Override
  public GcQueueStats gcQueueStats() {
    long total = 0;
    long leased = 0;
    long bytes = 0;
    long oldest = Long.MAX_VALUE;
    Instant oldestAt = null;
    long nowMs = now().toEpochMilli();
    for (BsonDocument d : gc.find().projection(Projections.include("at", "da", "sz", "u"))) {
      total++;
      bytes += d.getInt64("sz").getValue();
      if (d.containsKey("u") && d.getInt64("u").getValue() > nowMs) {
        leased++;
      }
      long at = d.getInt64("at").getValue();
      if (at < oldest) {
        oldest = at;
        oldestAt = Instant.parse(d.getString("da").getValue());
      }
    }
    return new GcQueueStats(total, leased, oldestAt, bytes);
  }

  // ------------------------------------------------------------------------------------ restore

  @Override
  protected Bucket doRestoreBucket(Bucket bucket) {
    long start = System.nanoTime();
    for (int attempt = 0; ; attempt++) {
      Row r;
      try {
        r = row(bucket.name());
      } catch (NoSuchBucketException e) {
        BsonDocument other = meta.find(Filters.and(Filters.eq("id", bucket.id()), LIVE)).first();
        if (other != null) {
          throw new BucketAlreadyExistsException("bucket.id: " + bucket.id() + " is the id of"
              + " bucket \"" + other.getString("_id").getValue() + "\"");
        }
        try {
          insertBucket(bucket, config.keyFormat());
          return bucket;
        } catch (BucketAlreadyExistsException raced) {
          retry.backoff(attempt, start, "the bucket kept changing");
          continue;
        }
      }
      Bucket after = BucketRules.restore(r.bucket(), bucket);
      if (casBucket(r, after)) {
        return after;
      }
      retry.backoff(attempt, start, "the bucket kept changing");
    }
  }

  @Override
  protected void doRestoreKey(String bucket, String key, List<ObjectVersion> versions) {
    writeKey(bucket, key, true, null, true,
        (r, h) -> KeyWrites.restore(h, r.bucket().versioning(), versions), null);
  }

  @Override
  protected void doRestoreUpload(String bucket, MultipartUpload upload, List<Part> parts) {
    long deadline = System.nanoTime() + 2 * config.intentLease().toNanos();
    for (int attempt = 0; ; attempt++) {
      Row r = row(bucket);
      Namespace ns = ns(r);
      String uid = ns.ids().upload(upload.key(), upload.uploadId());
      BsonDocument doc = ns.coll().find(Filters.and(Filters.eq("_id", uid), LIVE)).first();
      long oldBytes = 0;
      List<String> oldParts = new ArrayList<>();
      for (BsonDocument d : ns.coll().find(Filters.and(Filters.gt("_id", uid),
          Filters.lt("_id", Ids.partsEnd(uid)), LIVE))) {
        oldBytes += d.getInt64("sz").getValue();
        oldParts.add(d.getString("_id").getValue());
      }
      if (doc != null && doc.containsKey("i")) {
        settle(ns, doc, attempt, deadline);
        continue;
      }
      long bytes = parts.stream().mapToLong(Part::size).sum();
      Usage delta = partBytes(bytes - oldBytes).plus(doc == null ? ONE_UPLOAD : Usage.ZERO);
      // the parts it no longer has go, the others are written over (an intent never writes and
      // removes the same document: its removals run after all its writes)
      List<BsonDocument> ops = new ArrayList<>();
      java.util.Set<String> kept = new HashSet<>();
      for (Part p : parts) {
        Part stored = p.lastModified() == null ? p.withLastModified(upload.initiated()) : p;
        String pid = Ids.part(uid, p.partNumber());
        kept.add(pid);
        ops.add(Intent.put(Docs.part(pid, stored)));
      }
      for (String old : oldParts) {
        if (!kept.contains(old)) {
          ops.add(Intent.delete(old));
        }
      }
      String tag = newTag();
      Intent intent = new Intent(tag, now().toEpochMilli(), Docs.usageDelta(delta),
          shardOf(upload.key()), ops, List.of(), false);
      long seq = doc == null ? 1 : doc.getInt64("s").getValue() + 1;
      BsonDocument content = new BsonDocument("_id", new BsonString(uid))
          .append("t", new BsonString("u")).append("s", new BsonInt64(seq))
          .append("p", new BsonInt64(now().toEpochMilli())).append("i", intent.toBson())
          .append("at", new BsonString(upload.initiated().toString()))
          .append("md", Docs.metadata(upload.metadata()));
      boolean committed;
      try {
        if (doc == null) {
          ns.coll().insertOne(content);
          committed = true;
        } else {
          committed = ns.coll().replaceOne(Filters.and(Filters.eq("_id", uid),
              Filters.eq("s", seq - 1), Filters.exists("i", false)), content).getMatchedCount() == 1;
        }
      } catch (MongoWriteException e) {
        committed = false;
      }
      if (!committed) {
        backoff(attempt, deadline);
        continue;
      }
      if (intent.apply(ns, uid, seq, gc, hook, false, markers) == Intent.Outcome.BUCKET_CLOSING) {
        cancel(ns, uid, doc == null, seq);
        awaitBucket(r, attempt, deadline);
        continue;
      }
      return;
    }
  }

  @Override
  protected GarbagePage doListGarbage(String after, int limit) {
    Bson from = Filters.empty();
    if (after != null) {
      int colon = after.indexOf(':');
      long at;
      try {
        at = Long.parseLong(after.substring(0, Math.max(colon, 0)));
      } catch (NumberFormatException e) {
        throw new InvalidArgumentException("after", "not a cursor this store returned: \"" + after
            + "\"");
      }
      String id = after.substring(colon + 1);
      from = Filters.or(Filters.gt("at", at), Filters.and(Filters.eq("at", at), Filters.gt("_id", id)));
    }
    List<BsonDocument> docs = new ArrayList<>();
    gc.find(from).sort(Sorts.ascending("at", "_id")).limit(limit + 1).into(docs);
    boolean more = docs.size() > limit;
    List<BsonDocument> page = more ? docs.subList(0, limit) : docs;
    List<GarbageRecord> out = new ArrayList<>(page.size());
    for (BsonDocument d : page) {
      out.add(Docs.garbage(d));
    }
    BsonDocument last = page.isEmpty() ? null : page.get(page.size() - 1);
    return new GarbagePage(out, more, more ? last.getInt64("at").getValue() + ":"
        + last.getString("_id").getValue() : null);
  }

  @Override
  protected int doRestoreGarbage(List<GarbageRecord> records) {
    int added = 0;
    for (GarbageRecord r : records) {
      BsonDocument d = Docs.garbage("o:" + r.id(), r.kind(), r.bucket(), r.bucketId(), r.key(),
          r.versionId(), r.partNumber(), r.size(), r.dataLocations(), r.deletedAt());
      try {
        gc.insertOne(d);
        added++;
      } catch (MongoWriteException e) {
        if (e.getError().getCode() != 11000) {
          throw unavailable(e);
        }
      }
    }
    return added;
  }

  // ------------------------------------------------------------------------------------- repair

  /**
   * Drains the repair queue now: rolls forward every intent older than the lease (left by a
   * process that died between steps), resolves placeholders met on the way, and releases GC
   * records still held by intents that finished. Returns how many intents it rolled forward.
   * Runs on open and every {@code repairIntervalMs} in the background.
   */
  public int repair() {
    return repair(config.intentLease());
  }

  /** As {@link #repair()}, for intents older than {@code age} (tests: zero). */
  int repair(Duration age) {
    long cutoff = now().toEpochMilli() - age.toMillis();
    int n = 0;
    if (config.layout() == MongoConfig.Layout.SHARED) {
      // one query on the shared collection's sparse index of pending intents
      for (BsonDocument lock : shared.find(Filters.lte("p", cutoff))) {
        String id = lock.getString("_id").getValue();
        Namespace ns = new Namespace("", id.substring(0, 36), shared,
            new Ids(id.substring(0, 36), KeyFormat.V1));
        if (lock.containsKey("i") && rollForward(ns, lock)) {
          n++;
        }
      }
      return n + releaseStaleHolds(cutoff);
    }
    for (BsonDocument b : meta.find(LIVE)) {
      Namespace ns = ns(Docs.bucket(b), KeyFormat.of(b.getString("fmt").getValue()));
      for (BsonDocument lock : ns.coll().find(Filters.and(range(ns.ids().start(), ns.ids().end()),
          Filters.lte("p", cutoff)))) {
        if (lock.containsKey("i") && rollForward(ns, lock)) {
          n++;
        }
      }
    }
    return n + releaseStaleHolds(cutoff);
  }

  /** Releases GC records still held by intents that are no longer pending; returns 0. */
  private int releaseStaleHolds(long cutoff) {
    for (BsonDocument g : gc.find(Filters.and(Filters.exists("h", true),
        Filters.lte("at", Docs.nanos(Instant.ofEpochMilli(cutoff)))))) {
      MongoCollection<BsonDocument> c = db.getCollection(g.getString("hc").getValue(), BsonDocument.class);
      BsonDocument lock = c.find(Filters.eq("_id", g.getString("hi").getValue())).first();
      String tag = g.getString("h").getValue();
      boolean pending = lock != null && lock.containsKey("i")
          && tag.equals(lock.getDocument("i").getString("op").getValue());
      if (!pending) {
        gc.updateOne(Filters.and(Filters.eq("_id", g.get("_id")), Filters.eq("h", tag)),
            Updates.combine(Updates.unset("h"), Updates.unset("hc"), Updates.unset("hi")));
      }
    }
    return 0;
  }
}
