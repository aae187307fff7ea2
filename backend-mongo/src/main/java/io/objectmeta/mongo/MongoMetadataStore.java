package io.objectmeta.mongo;

import io.objectmeta.api.spi.BackgroundRepair;
import io.objectmeta.api.spi.IntentLease;
import io.objectmeta.api.spi.IntentProtocol;
import io.objectmeta.api.spi.StepHook;
import com.mongodb.MongoException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.Updates;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.error.ServiceUnavailableException;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.StoreUsage;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.version.VersionIdGenerator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonString;
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
public final class MongoMetadataStore extends io.objectmeta.api.spi.ComposedMetadataStore {
  static final String METASTORE = "__metastore";
  static final String INFOSTORE = "__infostore";
  static final String GC = "__gcqueue";
  static final String SHARED = "objects";
  static final int SHARDS = Ids.SHARDS;

  final MongoClient client;
  final boolean ownsClient;
  final MongoConfig config;
  final io.objectmeta.api.spi.RetryPolicy retry;
  final IntentLease lease;
  final IntentProtocol protocol;
  final MongoDatabase db;
  final MongoCollection<BsonDocument> meta;
  final MongoCollection<BsonDocument> info;
  final MongoCollection<BsonDocument> gc;
  final MongoCollection<BsonDocument> shared;
  final Clock clock = Clock.systemUTC();
  final VersionIdGenerator ids = new VersionIdGenerator();
  final Set<String> indexed = ConcurrentHashMap.newKeySet();
  final BackgroundRepair drain;
  volatile StepHook hook;
  final UsageMarkers markers = new UsageMarkers();
  final MongoBuckets buckets = new MongoBuckets(this);
  final MongoKeys keys = new MongoKeys(this);
  final MongoUploads uploads = new MongoUploads(this);
  final MongoScans scans = new MongoScans(this);
  final MongoGcQueue queue = new MongoGcQueue(this);
  final MongoRepair repairs = new MongoRepair(this);

  MongoMetadataStore(MongoClient client, boolean ownsClient, MongoConfig config) {
    parts(buckets, keys, uploads, scans, queue);
    this.client = client;
    this.ownsClient = ownsClient;
    this.config = config;
    this.retry = new io.objectmeta.api.spi.RetryPolicy("mongodb", config.maxRetries(), 20);
    this.lease = new IntentLease(config.intentLease(), clock);
    this.protocol = new IntentProtocol(retry, lease, () -> hook);
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
  void checkLayout() {
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

  Instant now() {
    return clock.instant();
  }

  // ------------------------------------------------- bucket rows and namespaces, shared by all

  /**
   * A live bucket with its revision and key formats: {@code format} for keys written from now on,
   * {@code legacy} for keys whose lock names none (the same, unless a migration is moving the
   * bucket from v0 to v1).
   */
  record Row(Bucket bucket, KeyFormat format, KeyFormat legacy, long rev) {
    boolean migrating() {
      return format != legacy;
    }
  }

  static Row row(BsonDocument d) {
    KeyFormat f = KeyFormat.of(d.getString("fmt").getValue());
    KeyFormat lf = d.containsKey("lf") ? KeyFormat.of(d.getString("lf").getValue()) : f;
    return new Row(Docs.bucket(d), f, lf, d.getInt64("r").getValue());
  }

  Row row(String name) {
    BsonDocument d = meta.find(Filters.and(Filters.eq("_id", name),
        Filters.ne(Docs.DELETED, true))).first();
    if (d == null) {
      throw NoSuchBucketException.of(name);
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

  Namespace ns(Row r) {
    return ns(r.bucket(), r.format());
  }

  void ensureIndexes(Namespace ns) {
    if (config.layout() == MongoConfig.Layout.COLLECTION_PER_BUCKET
        && indexed.add(ns.collectionName())) {
      ns.coll().createIndex(Indexes.ascending("p"), new IndexOptions().sparse(true));
    }
  }

  void insertGarbage(List<BsonDocument> records) {
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

  static Bson range(String from, String to) {
    return Filters.and(Filters.gte("_id", from), Filters.lt("_id", to));
  }

  static final Bson LIVE = Filters.ne(Docs.DELETED, true);

  // ------------------------------------- the engine of IntentProtocol: commit, apply, roll forward

  /** When the intent in a lock or upload document was recorded, or none. */
  static long pendingSince(BsonDocument lock) {
    return lock != null && lock.containsKey("i") ? lock.getInt64("p").getValue()
        : IntentProtocol.NONE;
  }

  /**
   * Applies a committed intent. When the bucket is being deleted (its counters are closed, found
   * by the usage step before any other), the intent is withdrawn and the write waits for the
   * delete to decide, then starts over: gone is NoSuchBucket, a delete that gave up lets it in.
   */
  IntentProtocol.Applied applyIntent(Namespace ns, String id, boolean created, long seq,
      Intent intent, Row r, IntentProtocol.Waits waits) {
    if (intent.apply(ns, id, seq, gc, hook, false, markers) == Intent.Outcome.BUCKET_CLOSING) {
      cancel(ns, id, created, seq);
      buckets.awaitBucket(r, waits);
      return IntentProtocol.Applied.RESTART;
    }
    return IntentProtocol.Applied.DONE;
  }

  void step(String name) {
    protocol.step(name);
  }

  /**
   * Records the intent: creates the lock (none yet) or advances its sequence by one. Returns the
   * lock's new sequence, or -1 if another writer got there first. A new lock starts at a random
   * sequence: a key emptied (its lock dropped) and written again must never bring back a
   * sequence that a slow writer read before, or that writer's compare-and-set would pass.
   */
  long commit(Namespace ns, String lockId, String kind, BsonDocument lock, Intent intent,
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
  static void cancel(Namespace ns, String lockId, boolean created, long seq) {
    Bson mine = Filters.and(Filters.eq("_id", lockId), Filters.eq("s", seq));
    if (created) {
      ns.coll().deleteOne(mine);
    } else {
      ns.coll().updateOne(mine, Updates.combine(Updates.unset("i"), Updates.unset("p")));
    }
  }

  /**
   * Takes over a stale intent (a compare-and-set on its pending time, so one repairer at a time)
   * and applies it again; every step is idempotent.
   */
  boolean rollForward(Namespace ns, BsonDocument lock) {
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

  static String newTag() {
    return Intent.newTag();
  }

  static int shardOf(String key) {
    return Ids.shardOf(key);
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

  Usage usageOf(Namespace ns) {
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

  /**
   * Drains the repair queue now: rolls forward every intent older than the lease (left by a
   * process that died between steps), resolves placeholders met on the way, and releases GC
   * records still held by intents that finished. Returns how many intents it rolled forward.
   * Runs on open and every {@code repairIntervalMs} in the background.
   */
  public int repair() {
    return repairs.repair();
  }

  /** As {@link #repair()}, for intents older than {@code age} (tests: zero). */
  int repair(Duration age) {
    return repairs.repair(age);
  }

  /**
   * Converts a bucket from the v0 key format to v1, online (see {@link MongoRepair}); running it
   * again resumes, and on a v1 bucket it does nothing.
   *
   * @return how many keys and versions moved
   */
  public KeyFormatMigration migrateKeyFormat(String bucket) {
    return repairs.migrateKeyFormat(bucket);
  }
}
