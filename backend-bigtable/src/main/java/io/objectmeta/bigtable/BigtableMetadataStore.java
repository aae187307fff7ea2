package io.objectmeta.bigtable;

import com.google.cloud.bigtable.admin.v2.BigtableTableAdminClient;
import com.google.cloud.bigtable.admin.v2.models.CreateTableRequest;
import com.google.cloud.bigtable.admin.v2.models.GCRules;
import com.google.cloud.bigtable.data.v2.BigtableDataClient;
import com.google.cloud.bigtable.data.v2.models.Mutation;
import com.google.cloud.bigtable.data.v2.models.Query;
import com.google.cloud.bigtable.data.v2.models.Row;
import com.google.cloud.bigtable.data.v2.models.TableId;
import com.google.protobuf.ByteString;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.StoreUsage;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.spi.BackgroundRepair;
import io.objectmeta.api.spi.IntentLease;
import io.objectmeta.api.spi.IntentProtocol;
import io.objectmeta.api.spi.StepHook;
import io.objectmeta.api.version.VersionIdGenerator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static com.google.cloud.bigtable.data.v2.models.Filters.FILTERS;
import static io.objectmeta.bigtable.Cells.*;

/**
 * The Cloud Bigtable backend, after the mounttable seed ({@code bigtable-mounttable.md}): one
 * row per entity, a version cell in every row, and every change read → compute →
 * check-and-mutate on the version cell → restart on conflict (bounded, with jittered backoff,
 * then the retryable ServiceUnavailable). Bigtable has no multi-row atomicity, so each key has
 * one <em>key row</em> holding its whole history (one column per version): a write to a key is
 * one check-and-mutate of that row, which is its linearization point. What follows from it in
 * other rows — the master row that current-object listings scan, the usage counters, the GC
 * records, a completed upload's row — is recorded in the key row as an {@link Intent} by the same
 * check-and-mutate, applied in order, each step idempotent, and cleared; a crash in between
 * leaves the intent for the next reader or writer of the key, or the repair, to roll forward.
 * Masters are fenced on the key row's version, so a late step never brings back an older state.
 *
 * <p>Tables ({@code tablePrefix} + name): {@code buckets} (one row per live bucket, the UUID),
 * {@code objects} (every bucket's rows, see {@link Rows}), {@code gc} (the GC queue, row keys
 * spread over 16 shards).
 */
public final class BigtableMetadataStore extends io.objectmeta.api.spi.ComposedMetadataStore {

  final BigtableDataClient client;
  final BigtableTableAdminClient admin;
  final boolean ownsClients;
  final BigtableConfig config;
  final io.objectmeta.api.spi.RetryPolicy retry;
  final IntentLease lease;
  final IntentProtocol protocol;
  final Bt bt;
  final TableId buckets;
  final TableId objects;
  final TableId gc;
  final Clock clock = Clock.systemUTC();
  final VersionIdGenerator ids = new VersionIdGenerator();
  final BucketCache<BucketRow> cache;
  final BackgroundRepair drain;
  volatile StepHook hook;
  final BigtableBuckets bucketOps = new BigtableBuckets(this);
  final BigtableKeys keys = new BigtableKeys(this);
  final BigtableIntents intents = new BigtableIntents(this);
  final BigtableUploads uploads = new BigtableUploads(this);
  final BigtableScans scans = new BigtableScans(this);
  final BigtableGcQueue queue = new BigtableGcQueue(this);
  final BigtableRepair repairs = new BigtableRepair(this);

  BigtableMetadataStore(BigtableDataClient client, BigtableTableAdminClient admin,
      boolean ownsClients, BigtableConfig config) {
    parts(bucketOps, keys, uploads, scans, queue);
    this.client = client;
    this.admin = admin;
    this.ownsClients = ownsClients;
    this.config = config;
    this.retry = new io.objectmeta.api.spi.RetryPolicy("bigtable", config.maxRetries(), 25);
    this.lease = new IntentLease(config.intentLease(), clock);
    this.protocol = new IntentProtocol(retry, lease, () -> hook);
    this.bt = new Bt(client);
    this.buckets = TableId.of(config.table("buckets"));
    this.objects = TableId.of(config.table("objects"));
    this.gc = TableId.of(config.table("gc"));
    this.cache = new BucketCache<>(config.bucketCache());
    try {
      if (config.createTables()) {
        createTables();
      }
    } catch (RuntimeException e) {
      closeClients();
      throw e;
    }
    if (config.repair()) {
      drain = BackgroundRepair.start("objectmeta-bigtable-repair", config.describe(),
          config.repairInterval(), this::repair);
    } else {
      drain = null;
    }
  }

  void createTables() {
    Map<String, List<String>> families = Map.of("buckets", List.of(Bt.META),
        "objects", List.of(Bt.META, Bt.DATA, Bt.COUNT, Bt.APPLIED), "gc", List.of(Bt.META, Bt.DATA));
    for (Map.Entry<String, List<String>> e : families.entrySet()) {
      String table = config.table(e.getKey());
      Bt.call(() -> {
        if (!admin.exists(table)) {
          CreateTableRequest req = CreateTableRequest.of(table);
          for (String f : e.getValue()) {
            req.addFamily(f, GCRules.GCRULES.maxVersions(1));
          }
          try {
            admin.createTable(req);
          } catch (com.google.api.gax.rpc.AlreadyExistsException raced) {
            // another process created it first
          }
        }
        return null;
      });
    }
  }

  /** The store's tables, for scratch spaces and tests. */
  List<String> tables() {
    return List.of(buckets.getTableId(), objects.getTableId(), gc.getTableId());
  }

  BigtableConfig config() {
    return config;
  }

  /** Stops each later multi-step write after the steps the hook chooses (tests only). */
  void setStepHook(StepHook h) {
    this.hook = h;
  }

  /** The {@code bucketCacheMs} option: zero unless the bucket cache was turned on. */
  @Override
  public Duration bucketStateWindow() {
    return config.bucketCache();
  }

  @Override
  public void close() {
    if (drain != null) {
      drain.close();
    }
    closeClients();
  }

  void closeClients() {
    if (ownsClients) {
      client.close();
      if (admin != null) {
        admin.close();
      }
    }
  }

  Instant now() {
    return clock.instant();
  }

  void step(String name) {
    protocol.step(name);
  }

  // ---------------------------------------------------------- bucket rows, shared by all

  /** A live bucket with its row version. */
  record BucketRow(Bucket bucket, long version) {
    Rows rows() {
      return new Rows(bucket.id());
    }
  }

  static ByteString bucketRow(String name) {
    return ByteString.copyFromUtf8(BUCKET_ROWS + name);
  }

  /** The bucket, from the cache (reads: a bucket changed by another process shows within the TTL). */
  BucketRow bucket(String name) {
    return cache.get(name, this::loadBucket);
  }

  /** The bucket as stored now, and the cache refreshed with it. */
  BucketRow freshBucket(String name) {
    try {
      BucketRow b = loadBucket(name);
      cache.put(name, b);
      return b;
    } catch (NoSuchBucketException e) {
      cache.invalidate(name);
      throw e;
    }
  }

  BucketRow loadBucket(String name) {
    Row r = bt.read(buckets, bucketRow(name));
    Long v = Bt.version(r);
    if (v == null) {
      throw NoSuchBucketException.of(name);
    }
    return new BucketRow(Codec.bucket(name, Codec.json(Bt.cell(r, Bt.META, BUCKET))), v);
  }

  // --------------------------------------------------------------------------------- management

  @Override
  public java.util.UUID getUUID() {
    ByteString row = ByteString.copyFromUtf8("i/uuid");
    String fresh = UUID.randomUUID().toString();
    Mutation m = Mutation.create();
    Bt.set(m, Bt.META, Bt.VERSION, Codec.version(1));
    Bt.set(m, Bt.META, UUID_CELL, ByteString.copyFromUtf8(fresh));
    if (bt.cas(buckets, row, null, m)) {
      return UUID.fromString(fresh);
    }
    return UUID.fromString(Bt.cell(bt.read(buckets, row), Bt.META, UUID_CELL).toStringUtf8());
  }

  @Override
  protected Usage doBucketUsage(String bucket) {
    return usageOf(bucket(bucket).rows());
  }

  Usage usageOf(Rows rows) {
    long[] sum = new long[Codec.COUNTERS.length];
    for (Row r : bt.scan(Query.create(objects).range(rows.countersStart(), rows.countersEnd()),
        FILTERS.family().exactMatch(Bt.COUNT))) {
      for (int i = 0; i < sum.length; i++) {
        ByteString c = Bt.cell(r, Bt.COUNT, ByteString.copyFromUtf8(Codec.COUNTERS[i]));
        if (c != null) {
          sum[i] += Codec.version(c);
        }
      }
    }
    return Codec.usage(sum);
  }

  @Override
  public StoreUsage usage() {
    long n = 0;
    Usage total = Usage.ZERO;
    for (Bucket b : bucketOps.allBuckets()) {
      n++;
      total = total.plus(usageOf(new Rows(b.id())));
    }
    return new StoreUsage(n, total);
  }

  // ------------------------------------------------------------------------------------- errors

  /** A client failure from anywhere in a call (a deadline, an unavailable tablet), typed. */
  @Override
  protected io.objectmeta.api.error.MetadataException fault(RuntimeException e) {
    return e instanceof com.google.api.gax.rpc.ApiException a ? Bt.typed(a) : null;
  }

  /**
   * Rolls forward every intent older than the lease (left by a process that died between the
   * steps of a write) in every bucket's key and upload rows, and settles GC records still held
   * by finished writes (see {@link BigtableRepair}). Runs every {@code repairIntervalMs} in the
   * background and once when a store opens; returns how many intents it rolled forward.
   */
  public int repair() {
    return repairs.repair();
  }

  /** As {@link #repair()}, for intents older than {@code age} (tests: zero). */
  int repair(Duration age) {
    return repairs.repair(age);
  }
}
