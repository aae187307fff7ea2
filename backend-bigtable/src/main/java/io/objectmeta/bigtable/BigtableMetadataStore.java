package io.objectmeta.bigtable;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.bigtable.admin.v2.BigtableTableAdminClient;
import com.google.cloud.bigtable.admin.v2.models.CreateTableRequest;
import com.google.cloud.bigtable.admin.v2.models.GCRules;
import com.google.cloud.bigtable.data.v2.BigtableDataClient;
import com.google.cloud.bigtable.data.v2.models.BulkMutation;
import com.google.cloud.bigtable.data.v2.models.Filters;
import com.google.cloud.bigtable.data.v2.models.Mutation;
import com.google.cloud.bigtable.data.v2.models.Query;
import com.google.cloud.bigtable.data.v2.models.ReadModifyWriteRow;
import com.google.cloud.bigtable.data.v2.models.Row;
import com.google.cloud.bigtable.data.v2.models.RowCell;
import com.google.cloud.bigtable.data.v2.models.TableId;
import com.google.protobuf.ByteString;
import io.objectmeta.api.error.BucketAlreadyExistsException;
import io.objectmeta.api.error.BucketNotEmptyException;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.error.NoSuchUploadException;
import io.objectmeta.api.error.ServiceUnavailableException;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbagePage;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.gc.GcQueueStats;
import io.objectmeta.api.listing.Cursor;
import io.objectmeta.api.listing.KeyOrder;
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
import io.objectmeta.api.spi.BackgroundRepair;
import io.objectmeta.api.spi.StepHook;
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
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiFunction;
import java.util.function.Function;

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
public final class BigtableMetadataStore extends AbstractMetadataStore {

  private final BigtableDataClient client;
  private final BigtableTableAdminClient admin;
  private final boolean ownsClients;
  private final BigtableConfig config;
  private final io.objectmeta.api.spi.RetryPolicy retry;
  private final Bt bt;
  private final TableId buckets;
  private final TableId objects;
  private final TableId gc;
  private final Clock clock = Clock.systemUTC();
  private final VersionIdGenerator ids = new VersionIdGenerator();
  private final BucketCache<BucketRow> cache;
  private final BackgroundRepair drain;
  private volatile StepHook hook;

  BigtableMetadataStore(BigtableDataClient client, BigtableTableAdminClient admin,
      boolean ownsClients, BigtableConfig config) {
    this.client = client;
    this.admin = admin;
    this.ownsClients = ownsClients;
    this.config = config;
    this.retry = new io.objectmeta.api.spi.RetryPolicy("bigtable", config.maxRetries(), 25);
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

  private void createTables() {
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

  @Override
  public void close() {
    if (drain != null) {
      drain.close();
    }
    closeClients();
  }

  private void closeClients() {
    if (ownsClients) {
      client.close();
      if (admin != null) {
        admin.close();
      }
    }
  }

  private Instant now() {
    return clock.instant();
  }

  private void step(String name) {
    StepHook h = hook;
    if (h != null) {
      h.after(name);
    }
  }

  /**
   * Waits for another writer's intent to clear: not a lost race, so it does not count against
   * {@code maxRetries}; an intent is cleared or rolled forward within its lease, so the wait is
   * bounded by twice the lease, then the retryable error.
   */
  private void waitBusy(int round, long startNanos, String what) {
    retry.await(round, startNanos, config.intentLease().multipliedBy(2), what);
  }

  /**
   * After a lost race: the retry policy's pause, or its ServiceUnavailable once
   * {@code maxRetries} restarts are spent.
   */
  private void backoff(int attempt, String what) {
    if (attempt >= config.maxRetries()) {
      throw new ServiceUnavailableException("bigtable: " + what + " after " + (attempt + 1)
          + " attempts (maxRetries " + config.maxRetries() + "); try again");
    }
    retry.pause(attempt);
  }

  // ------------------------------------------------------------------------------------ buckets

  /** A live bucket with its row version. */
  record BucketRow(Bucket bucket, long version) {
    Rows rows() {
      return new Rows(bucket.id());
    }
  }

  private static ByteString bucketRow(String name) {
    return ByteString.copyFromUtf8(BUCKET_ROWS + name);
  }

  /** The bucket, from the cache (reads: a bucket changed by another process shows within the TTL). */
  private BucketRow bucket(String name) {
    return cache.get(name, this::loadBucket);
  }

  /** The bucket as stored now, and the cache refreshed with it. */
  private BucketRow freshBucket(String name) {
    try {
      BucketRow b = loadBucket(name);
      cache.put(name, b);
      return b;
    } catch (NoSuchBucketException e) {
      cache.invalidate(name);
      throw e;
    }
  }

  private BucketRow loadBucket(String name) {
    Row r = bt.read(buckets, bucketRow(name));
    Long v = Bt.version(r);
    if (v == null) {
      throw new NoSuchBucketException("bucket: \"" + name + "\" does not exist");
    }
    return new BucketRow(Codec.bucket(name, Codec.json(Bt.cell(r, Bt.META, BUCKET))), v);
  }

  @Override
  protected Bucket doCreateBucket(String name, String owner, ObjectNode attributes) {
    Bucket b = new Bucket(name, UUID.randomUUID().toString(), owner, now(),
        VersioningState.UNVERSIONED, attributes);
    if (!insertBucket(b)) {
      throw new BucketAlreadyExistsException("bucket: \"" + name + "\" exists");
    }
    return b;
  }

  private boolean insertBucket(Bucket b) {
    long v = Bt.firstVersion();
    Mutation m = Mutation.create();
    Bt.set(m, Bt.META, Bt.VERSION, Codec.version(v));
    Bt.set(m, Bt.META, BUCKET, Codec.bytes(Codec.bucket(b)));
    if (!bt.cas(buckets, bucketRow(b.name()), null, m)) {
      return false;
    }
    cache.put(b.name(), new BucketRow(b, v));
    return true;
  }

  private boolean casBucket(BucketRow r, Bucket after) {
    Mutation m = Mutation.create();
    Bt.set(m, Bt.META, Bt.VERSION, Codec.version(r.version() + 1));
    Bt.set(m, Bt.META, BUCKET, Codec.bytes(Codec.bucket(after)));
    if (bt.cas(buckets, bucketRow(after.name()), r.version(), m)) {
      cache.put(after.name(), new BucketRow(after, r.version() + 1));
      return true;
    }
    return false;
  }

  @Override
  protected Bucket doGetBucket(String name) {
    return bucket(name).bucket();
  }

  @Override
  protected Bucket doUpdateBucket(String name, BucketUpdate update) {
    for (int attempt = 0; ; attempt++) {
      BucketRow r = freshBucket(name);
      Bucket after = BucketRules.apply(r.bucket(), update);
      if (casBucket(r, after)) {
        return after;
      }
      backoff(attempt, "the bucket kept changing");
    }
  }

  /**
   * Deletes a bucket: closes its usage counter shards (a write's usage step then sees the close
   * and waits for the outcome), checks that no key row is left, queues the GC records of its
   * uploads' parts and of the bucket itself (held), removes the bucket row (check-and-mutate on
   * its version), releases the records. A crash before the bucket row goes leaves held records
   * that the repair removes (the bucket is still there) and a close that writers lift after the
   * lease; a crash after it leaves held records that the repair releases.
   */
  @Override
  protected void doDeleteBucket(String name) {
    for (int attempt = 0; ; attempt++) {
      BucketRow r = freshBucket(name);
      Rows rows = r.rows();
      long since = now().toEpochMilli();
      setClosed(rows, since);
      boolean done = false;
      try {
        step("close");
        if (!bt.scan(Query.create(objects).range(rows.keysStart(), rows.keysEnd()).limit(1))
            .isEmpty()) {
          throw new BucketNotEmptyException("bucket: \"" + name
              + "\" holds versions or delete markers");
        }
        Instant at = now();
        String tag = Intent.newTag();
        List<ObjectNode> garbage = new ArrayList<>();
        for (Row u : bt.scan(Query.create(objects).range(rows.uploadsStart(), rows.uploadsEnd()))) {
          String[] ku = rows.uploadOf(u.getKey());
          for (Part p : parts(u).values()) {
            garbage.add(Codec.garbage(new GarbageRecord(gcId(at, tag, garbage.size()),
                GarbageRecord.Kind.PART, name, r.bucket().id(), ku[0], ku[1], p.partNumber(),
                p.size(), p.dataLocations(), at)));
          }
        }
        garbage.add(Codec.garbage(new GarbageRecord(gcId(at, tag, garbage.size()),
            GarbageRecord.Kind.BUCKET, name, r.bucket().id(), null, null, 0, 0, List.of(), at)));
        String holder = "b:" + r.bucket().id() + ":" + name;
        insertGarbage(garbage, tag, holder);
        step("garbage");
        if (!bt.cas(buckets, bucketRow(name), r.version(), Mutation.create().deleteRow())) {
          removeGarbage(garbage);
          backoff(attempt, "the bucket kept changing");
          continue;
        }
        cache.invalidate(name);
        done = true;
        step("bucket");
        releaseGarbage(garbage);
        step("release");
        // the shards stay closed: a write that read the bucket before it left fails its usage
        // step instead of writing into it; the rows go when the bucket's GC record is acknowledged
        return;
      } finally {
        if (!done) {
          setClosed(rows, -since);
        }
      }
    }
  }

  /**
   * Adds {@code since} to every shard's close flag (negative: takes a close back). The flag is a
   * counter in the counters' family, changed only by increments: a close and a reopen never
   * delete a cell (a deletion can make a concurrent read-modify-write on the emulator miss the
   * family and write it afresh), and two deletes at once add up, each taking back its own.
   */
  private void setClosed(Rows rows, long since) {
    List<com.google.api.core.ApiFuture<Row>> all = new ArrayList<>();
    for (int i = 0; i < Rows.SHARDS; i++) {
      all.add(client.readModifyWriteRowAsync(ReadModifyWriteRow.create(objects, rows.counter(i))
          .increment(Bt.COUNT, CLOSED, since)));
    }
    Bt.call(() -> {
      try {
        com.google.api.core.ApiFutures.allAsList(all).get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ServiceUnavailableException("bigtable: interrupted");
      } catch (java.util.concurrent.ExecutionException e) {
        if (e.getCause() instanceof com.google.api.gax.rpc.ApiException a) {
          throw a;
        }
        throw new ServiceUnavailableException("bigtable: " + e.getCause(), e.getCause());
      }
      return null;
    });
  }


  /**
   * A write's usage step found the bucket's counters closed: a delete is deciding. Waits for it:
   * the bucket gone (or another incarnation) is NoSuchBucket; a close older than the lease was
   * left by a dead process and is lifted.
   */
  private void awaitBucket(BucketRow r, int attempt, long since) {
    long cutoff = now().toEpochMilli() - config.intentLease().toMillis();
    BucketRow now = freshBucket(r.bucket().name()); // NoSuchBucket if the delete went through
    if (!now.bucket().id().equals(r.bucket().id())) {
      throw new NoSuchBucketException("bucket: \"" + r.bucket().name() + "\" does not exist");
    }
    // (two deletes at once add their times up: a close far in the future, taken back by each)
    if (since <= cutoff) {
      liftStaleClose(r.rows(), cutoff);
      return;
    }
    backoff(attempt, "the bucket is being deleted");
  }

  @Override
  protected List<Bucket> doListBuckets(String owner, String after, int limit) {
    List<Bucket> out = new ArrayList<>();
    ByteString from = after == null ? ByteString.copyFromUtf8(BUCKET_ROWS)
        : Rows.successor(bucketRow(after));
    ByteString end = Rows.after(ByteString.copyFromUtf8(BUCKET_ROWS));
    while (out.size() < limit) {
      int want = owner == null ? limit - out.size() : 500;
      List<Row> got = bt.scan(Query.create(buckets).range(from, end).limit(want));
      for (Row r : got) {
        if (Bt.version(r) == null) {
          continue;
        }
        Bucket b = Codec.bucket(r.getKey().substring(BUCKET_ROWS.length()).toStringUtf8(),
            Codec.json(Bt.cell(r, Bt.META, BUCKET)));
        if ((owner == null || owner.equals(b.owner())) && out.size() < limit) {
          out.add(b);
        }
      }
      if (got.size() < want) {
        break;
      }
      from = Rows.successor(got.get(got.size() - 1).getKey());
    }
    return out;
  }

  // -------------------------------------------------------------------------------- key rows

  /** A key row as read: its version (null: no row), its history, a pending intent. */
  private record KeyRow(ByteString row, Long version, List<ObjectVersion> versions, Intent intent) {
    KeyHistory history(String key) {
      return new KeyHistory(key, versions);
    }
  }

  private KeyRow keyRow(Rows rows, String key) {
    ByteString row = rows.key(key);
    for (int attempt = 0; ; attempt++) {
      KeyRow k = keyRow(row, key, bt.read(objects, row), false);
      if (k != null) {
        return k;
      }
      backoff(attempt, "a key row kept reading torn");
    }
  }

  /**
   * A key row as read, or null if the read is torn: it holds fewer version columns than the row
   * says (a read that overlaps a write removing a version column can miss the column family on
   * the emulator; the caller reads again). {@code latestOnly}: the read asked for the first
   * version column alone.
   */
  private static KeyRow keyRow(ByteString row, String key, Row r, boolean latestOnly) {
    if (r == null) {
      return new KeyRow(row, null, List.of(), null);
    }
    List<ObjectVersion> versions = new ArrayList<>();
    for (RowCell c : r.getCells(Bt.DATA)) {
      versions.add(Codec.version(key, Rows.revisionOf(c.getQualifier()), Codec.json(c.getValue())));
    }
    ByteString n = Bt.cell(r, Bt.META, COUNT);
    long expected = n == null ? versions.size() : Codec.version(n);
    if (latestOnly ? (expected > 0) != !versions.isEmpty() : expected != versions.size()) {
      return null;
    }
    ByteString i = Bt.cell(r, Bt.META, INTENT);
    return new KeyRow(row, Bt.version(r), versions, i == null ? null : Intent.decode(i));
  }

  /** Extra work a key write carries (a multipart completion's upload row, parts and usage). */
  private record Extra(List<ByteString> deletes, List<GarbageRecord> garbage, Usage usage) {
    static final Extra NONE = new Extra(List.of(), List.of(), Usage.ZERO);
  }

  /**
   * Reads the key row, plans with the shared rules, commits the new history with the intent
   * (check-and-mutate on the version cell), applies the intent. A concurrent writer makes the
   * commit fail: start over. A pending intent is another writer's, in flight (wait) or left by a
   * dead process (roll it forward).
   */
  private KeyChange writeKey(String bucket, String key, BiFunction<Bucket, KeyHistory, KeyChange> plan,
      Function<Bucket, Extra> extra) {
    long start = System.nanoTime();
    int conflicts = 0;
    for (int attempt = 0; ; attempt++) {
      BucketRow b = bucket(bucket);
      Rows rows = b.rows();
      KeyRow k = keyRow(rows, key);
      if (k.intent() != null) {
        settle(b, rows, key, k, attempt, start);
        continue;
      }
      KeyChange c = plan.apply(b.bucket(), k.history(key));
      Extra x = extra == null ? Extra.NONE : extra.apply(b.bucket());
      Mutation m = Mutation.create();
      boolean changed = historyMutation(c, m);
      Usage delta = c.usageDelta().plus(x.usage());
      Instant at = now();
      String tag = Intent.newTag();
      List<ObjectNode> garbage = new ArrayList<>();
      for (ObjectVersion v : c.garbage()) {
        garbage.add(Codec.garbage(new GarbageRecord(gcId(at, tag, garbage.size()),
            GarbageRecord.Kind.OBJECT_VERSION, b.bucket().name(), b.bucket().id(), key,
            v.versionId(), 0, v.size(), v.metadata().dataLocations(), at)));
      }
      for (GarbageRecord g : x.garbage()) {
        garbage.add(Codec.garbage(new GarbageRecord(gcId(at, tag, garbage.size()), g.kind(),
            g.bucket(), g.bucketId(), g.key(), g.versionId(), g.partNumber(), g.size(),
            g.dataLocations(), at)));
      }
      boolean master = !sameVersion(c.before().current(), c.after().current());
      Intent intent = new Intent(tag, at.toEpochMilli(), shardOf(key), Codec.counters(delta),
          garbage, x.deletes(), master, c.after().isEmpty());
      if (!changed && !intent.countsUsage() && garbage.isEmpty() && x.deletes().isEmpty()) {
        return c;
      }
      long v = k.version() == null ? Bt.firstVersion() : k.version() + 1;
      Bt.set(m, Bt.META, Bt.VERSION, Codec.version(v));
      Bt.set(m, Bt.META, INTENT, intent.encode());
      if (!bt.cas(objects, k.row(), k.version(), m)) {
        backoff(conflicts++, "the key kept changing");
        continue;
      }
      step("commit");
      if (!finish(b, rows, key, k.row(), v, intent, c.after().current(), false, attempt)) {
        continue;
      }
      return c;
    }
  }

  /**
   * Applies a committed intent; when the bucket is being deleted, waits for the delete to decide
   * (gone: NoSuchBucket, the write stays in the dead bucket's rows) and applies the rest.
   */
  private boolean finish(BucketRow b, Rows rows, String key, ByteString row, long v, Intent intent,
      ObjectVersion current, boolean replay, int attempt) {
    for (int wait = attempt; ; wait++) {
      Long closed = apply(rows, key, row, v, intent, current, replay);
      if (closed == null) {
        return true;
      }
      awaitBucket(b, wait, closed);
      replay = true;
    }
  }

  /** Writes the history's changes into the key row's mutation; false if there are none. */
  private static boolean historyMutation(KeyChange c, Mutation m) {
    Map<VersionId, ObjectVersion> before = new HashMap<>();
    for (ObjectVersion v : c.before().versions()) {
      before.put(v.revision(), v);
    }
    boolean changed = false;
    for (ObjectVersion v : c.after().versions()) {
      ObjectVersion old = before.remove(v.revision());
      if (old == null || !sameStored(old, v)) {
        Bt.set(m, Bt.DATA, Rows.versionColumn(v.revision()), Codec.bytes(Codec.version(v)));
        changed = true;
      }
    }
    for (VersionId gone : before.keySet()) {
      m.deleteCells(Bt.DATA, Rows.versionColumn(gone));
      changed = true;
    }
    Bt.set(m, Bt.META, COUNT, Codec.version(c.after().versions().size()));
    return changed;
  }

  private static boolean sameStored(ObjectVersion a, ObjectVersion b) {
    return a.nullVersion() == b.nullVersion() && a.deleteMarker() == b.deleteMarker()
        && Objects.equals(a.metadata(), b.metadata());
  }

  private static boolean sameVersion(ObjectVersion a, ObjectVersion b) {
    if (a == null || b == null) {
      return a == b;
    }
    return a.revision().equals(b.revision()) && sameStored(a, b);
  }

  /**
   * The steps after a commit, each idempotent: the usage counters (one read-modify-write that
   * also marks the intent applied and reads the bucket's close), the GC records (held), the rows
   * to remove, the master (fenced on the key row's version {@code v}), the clear of the intent
   * (or the row's removal), the release of the GC records. Returns null when done, or the
   * bucket's close time when the bucket is being deleted (nothing after the usage step ran).
   */
  private Long apply(Rows rows, String key, ByteString row, long v, Intent in,
      ObjectVersion current, boolean replay) {
    if (in.countsUsage() || !replay) {
      ByteString counter = rows.counter(in.shard());
      ByteString tag = ByteString.copyFromUtf8(in.tag());
      boolean applied = false;
      if (replay) {
        // a replay may follow a wait for a bucket delete: the close is read again either way
        Row shard = bt.read(objects, counter);
        applied = Bt.cell(shard, Bt.APPLIED, tag) != null;
        ByteString closed = Bt.cell(shard, Bt.COUNT, CLOSED);
        if (applied && closed != null && Codec.version(closed) != 0) {
          return Codec.version(closed);
        }
      }
      if (!applied) {
        ReadModifyWriteRow rmw = ReadModifyWriteRow.create(objects, counter)
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
        ByteString closed = Bt.cell(bt.rmw(rmw), Bt.COUNT, CLOSED);
        if (closed != null && Codec.version(closed) != 0) {
          return Codec.version(closed);
        }
      }
    }
    step("usage");
    if (!in.garbage().isEmpty()) {
      insertGarbage(in.garbage(), in.tag(), Cells.keyHolder(row));
      step("garbage");
    }
    if (!in.deletes().isEmpty()) {
      BulkMutation b = BulkMutation.create(objects);
      for (ByteString d : in.deletes()) {
        b.add(d, Mutation.create().deleteRow());
      }
      bt.bulk(b);
      step("deletes");
    }
    if (in.master() && key != null) {
      Mutation m = Mutation.create();
      if (current != null) {
        Bt.set(m, Bt.META, Bt.VERSION, Codec.version(v));
        Bt.set(m, Bt.DATA, MASTER, Codec.bytes(Codec.master(current)));
      } else {
        m.deleteRow();
      }
      bt.fenced(objects, rows.master(key), v, m);
      step("master");
    }
    Mutation clear = in.drop() ? Mutation.create().deleteRow()
        : Bt.set(Bt.clear(Mutation.create(), Bt.META, INTENT), Bt.META, Bt.VERSION,
            Codec.version(v + 1));
    if (!bt.cas(objects, row, v, clear)) {
      return null; // taken over by a repairer, who finishes it
    }
    step("clear");
    if (!in.garbage().isEmpty()) {
      releaseGarbage(in.garbage());
      step("release");
    }
    if (in.countsUsage()) {
      // the applied marker is only read while the intent is pending: drop it, in the background
      bt.mutateAsync(objects, rows.counter(in.shard()), Mutation.create()
          .deleteCells(Bt.APPLIED, ByteString.copyFromUtf8(in.tag())));
    }
    return null;
  }

  /** A row holds an intent: wait for its writer, or roll it forward if its lease ran out. */
  private void settle(BucketRow b, Rows rows, String key, KeyRow k, int attempt, long start) {
    if (k.intent().since() < now().toEpochMilli() - config.intentLease().toMillis()) {
      rollForward(b, rows, key, k.row(), k.version(), k.intent(), k.history(key).current(),
          attempt);
    } else {
      waitBusy(attempt, start, "the key stayed busy");
    }
  }

  /**
   * Takes over a stale intent (a check-and-mutate that moves the row's version, so one repairer
   * at a time and the original writer's clear fails) and applies it again.
   */
  private boolean rollForward(BucketRow b, Rows rows, String key, ByteString row, long v,
      Intent intent, ObjectVersion current, int attempt) {
    Intent mine = intent.since(now().toEpochMilli());
    Mutation m = Mutation.create();
    Bt.set(m, Bt.META, Bt.VERSION, Codec.version(v + 1));
    Bt.set(m, Bt.META, INTENT, mine.encode());
    if (!bt.cas(objects, row, v, m)) {
      return false;
    }
    if (b == null) {
      return apply(rows, key, row, v + 1, mine, current, true) == null;
    }
    return finish(b, rows, key, row, v + 1, mine, current, true, attempt);
  }

  // ------------------------------------------------------------------------------------ objects

  @Override
  protected ObjectVersion doPutObject(String bucket, String key, ObjectMetadata metadata,
      WriteCondition condition) {
    return writeKey(bucket, key, (b, h) ->
        KeyWrites.put(h, b.versioning(), metadata, condition, ids.next()), null).subject();
  }

  /**
   * The key's history for a reader (all of it, or the latest version only); a stale intent met
   * on the way is rolled forward first.
   */
  private KeyHistory readHistory(String bucket, String key, boolean latestOnly) {
    BucketRow b = bucket(bucket);
    Rows rows = b.rows();
    ByteString row = rows.key(key);
    KeyRow k = latestOnly ? keyRow(row, key, bt.read(objects, row, LATEST_VERSION), true) : null;
    if (k == null) {
      k = keyRow(rows, key);
    }
    if (k.intent() != null && k.intent().since()
        < now().toEpochMilli() - config.intentLease().toMillis()) {
      k = keyRow(rows, key);
      rollForward(b, rows, key, k.row(), k.version(), k.intent(), k.history(key).current(), 0);
      k = keyRow(rows, key);
    }
    return k.history(key);
  }

  @Override
  protected ObjectVersion doGetObject(String bucket, String key) {
    return KeyWrites.current(readHistory(bucket, key, true));
  }

  @Override
  protected ObjectVersion doGetObjectVersion(String bucket, String key, String versionId) {
    return KeyWrites.version(readHistory(bucket, key, false), versionId);
  }

  @Override
  protected ObjectVersion doUpdateObjectMetadata(String bucket, String key, String versionId,
      ObjectMetadataUpdate update) {
    return writeKey(bucket, key, (b, h) -> KeyWrites.update(h, versionId, update), null).subject();
  }

  @Override
  protected DeleteResult doDeleteObject(String bucket, String key) {
    VersioningState[] state = new VersioningState[1];
    KeyChange c = writeKey(bucket, key, (b, h) -> {
      state[0] = b.versioning();
      return KeyWrites.delete(h, state[0], ids.next());
    }, null);
    return state[0] == VersioningState.UNVERSIONED
        ? new DeleteResult(key, null, false)
        : new DeleteResult(key, c.subject().versionId(), true);
  }

  @Override
  protected DeleteResult doDeleteObjectVersion(String bucket, String key, String versionId) {
    KeyChange c = writeKey(bucket, key, (b, h) -> KeyWrites.deleteVersion(h, versionId), null);
    return new DeleteResult(key, c.subject().versionId(), c.subject().deleteMarker());
  }

  // ---------------------------------------------------------------------------------- multipart

  private static final Usage ONE_UPLOAD = new Usage(0, 0, 0, 0, 0, 1, 0);

  private static Usage partBytes(long bytes) {
    return new Usage(0, 0, 0, 0, 0, 0, bytes);
  }

  /** An upload row as read. */
  private record UploadRow(BucketRow bucket, Rows rows, ByteString row, Long version,
      MultipartUpload upload, TreeMap<Integer, Part> parts, Intent intent, Long completing) {}

  private static TreeMap<Integer, Part> parts(Row r) {
    TreeMap<Integer, Part> parts = new TreeMap<>();
    for (RowCell c : r.getCells(Bt.DATA)) {
      if (c.getQualifier().toStringUtf8().startsWith("p") && !c.getValue().isEmpty()) {
        Part p = Codec.part(Codec.json(c.getValue()));
        parts.put(p.partNumber(), p);
      }
    }
    return parts;
  }

  private UploadRow uploadRow(BucketRow b, String key, String uploadId) {
    Rows rows = b.rows();
    ByteString row = rows.upload(key, uploadId);
    Row r = bt.read(objects, row);
    Long v = Bt.version(r);
    if (v == null) {
      return new UploadRow(b, rows, row, null, null, new TreeMap<>(), null, null);
    }
    ByteString u = Bt.cell(r, Bt.DATA, UPLOAD);
    ByteString i = Bt.cell(r, Bt.META, INTENT);
    ByteString cmp = Bt.cell(r, Bt.DATA, COMPLETING);
    return new UploadRow(b, rows, row, v, u == null ? null : Codec.upload(key, uploadId,
        Codec.json(u)), parts(r), i == null ? null : Intent.decode(i),
        cmp == null ? null : Long.parseLong(cmp.toStringUtf8()));
  }

  private boolean completing(Long since) {
    return since != null && since > now().toEpochMilli() - config.intentLease().toMillis();
  }

  /** A live upload, waiting out (or rolling forward) a pending intent. */
  private UploadRow liveUpload(String bucket, String key, String uploadId, int attempt) {
    long start = System.nanoTime();
    while (true) {
      UploadRow u = uploadRow(bucket(bucket), key, uploadId);
      if (u.upload() == null || completing(u.completing())) {
        throw new NoSuchUploadException("uploadId: no upload " + uploadId + " of \"" + key + "\"");
      }
      if (u.intent() == null) {
        return u;
      }
      if (u.intent().since() < now().toEpochMilli() - config.intentLease().toMillis()) {
        rollForward(u.bucket(), u.rows(), null, u.row(), u.version(), u.intent(), null, attempt);
      } else {
        waitBusy(attempt++, start, "the upload stayed busy");
      }
    }
  }

  /** Commits a change of an upload row with its intent, and applies it; false: lost a race. */
  private boolean writeUpload(UploadRow u, Mutation m, Usage delta, List<GarbageRecord> garbage,
      boolean drop, int attempt) {
    Instant at = now();
    String tag = Intent.newTag();
    List<ObjectNode> records = new ArrayList<>();
    for (GarbageRecord g : garbage) {
      records.add(Codec.garbage(new GarbageRecord(gcId(at, tag, records.size()), g.kind(),
          g.bucket(), g.bucketId(), g.key(), g.versionId(), g.partNumber(), g.size(),
          g.dataLocations(), at)));
    }
    Intent intent = new Intent(tag, at.toEpochMilli(), shardOf(u.upload().key()),
        Codec.counters(delta), records, List.of(), false, drop);
    long v = u.version() == null ? Bt.firstVersion() : u.version() + 1;
    Bt.set(m, Bt.META, Bt.VERSION, Codec.version(v));
    Bt.set(m, Bt.META, INTENT, intent.encode());
    if (!bt.cas(objects, u.row(), u.version(), m)) {
      backoff(attempt, "the upload kept changing");
      return false;
    }
    step("commit");
    return finish(u.bucket(), u.rows(), null, u.row(), v, intent, null, false, attempt);
  }

  private static GarbageRecord partGarbage(Bucket b, MultipartUpload u, Part p) {
    return new GarbageRecord("-", GarbageRecord.Kind.PART, b.name(), b.id(), u.key(), u.uploadId(),
        p.partNumber(), p.size(), p.dataLocations(), Instant.EPOCH);
  }

  @Override
  protected MultipartUpload doInitiateMultipartUpload(String bucket, String key,
      ObjectMetadata metadata) {
    for (int attempt = 0; ; attempt++) {
      BucketRow b = bucket(bucket);
      VersionId id = ids.next();
      MultipartUpload u = new MultipartUpload(key, id.encodeOldestFirst(), id.timestamp(), metadata);
      Rows rows = b.rows();
      UploadRow fresh = new UploadRow(b, rows, rows.upload(key, u.uploadId()), null, u,
          new TreeMap<>(), null, null);
      Mutation m = Mutation.create();
      Bt.set(m, Bt.DATA, UPLOAD, Codec.bytes(Codec.upload(u)));
      if (writeUpload(fresh, m, ONE_UPLOAD, List.of(), false, attempt)) {
        return u;
      }
    }
  }

  @Override
  protected Part doPutPart(String bucket, String key, String uploadId, Part part) {
    for (int attempt = 0; ; attempt++) {
      UploadRow u = liveUpload(bucket, key, uploadId, attempt);
      Part stored = part.withLastModified(now());
      Part old = u.parts().get(part.partNumber());
      List<GarbageRecord> garbage = old == null ? List.of()
          : List.of(partGarbage(u.bucket().bucket(), u.upload(), old));
      Mutation m = Mutation.create();
      Bt.set(m, Bt.DATA, Rows.partColumn(part.partNumber()), Codec.bytes(Codec.part(stored)));
      if (writeUpload(u, m, partBytes(stored.size() - (old == null ? 0 : old.size())), garbage,
          false, attempt)) {
        return stored;
      }
    }
  }

  @Override
  protected void doAbortMultipartUpload(String bucket, String key, String uploadId) {
    for (int attempt = 0; ; attempt++) {
      UploadRow u = liveUpload(bucket, key, uploadId, attempt);
      List<GarbageRecord> garbage = new ArrayList<>();
      long bytes = 0;
      for (Part p : u.parts().values()) {
        garbage.add(partGarbage(u.bucket().bucket(), u.upload(), p));
        bytes += p.size();
      }
      // the upload disappears for readers at once (completing), the row goes with the clear
      Mutation m = Mutation.create();
      Bt.set(m, Bt.DATA, COMPLETING, ByteString.copyFromUtf8(Long.toString(Long.MAX_VALUE / 2)));
      if (writeUpload(u, m, new Usage(0, 0, 0, 0, 0, -1, -bytes), garbage, true, attempt)) {
        return;
      }
    }
  }

  @Override
  protected ObjectVersion doCompleteMultipartUpload(String bucket, String key, String uploadId,
      List<CompletedPart> parts) {
    UploadRow u;
    for (int attempt = 0; ; attempt++) {
      u = liveUpload(bucket, key, uploadId, attempt);
      // freeze it: parts and aborts now see it as gone, until the completion commits
      Mutation m = Mutation.create();
      Bt.set(m, Bt.META, Bt.VERSION, Codec.version(u.version() + 1));
      Bt.set(m, Bt.DATA, COMPLETING, ByteString.copyFromUtf8(Long.toString(now().toEpochMilli())));
      if (bt.cas(objects, u.row(), u.version(), m)) {
        break;
      }
      backoff(attempt, "the upload kept changing");
    }
    UploadRow frozen = u;
    ObjectMetadata md;
    try {
      md = MultipartRules.complete(frozen.upload().metadata(), frozen.parts(), parts);
    } catch (MetadataException e) {
      unfreeze(frozen);
      throw e;
    }
    long bytes = 0;
    for (Part p : frozen.parts().values()) {
      bytes += p.size();
    }
    List<GarbageRecord> garbage = new ArrayList<>();
    for (Part p : MultipartRules.leftOut(frozen.parts(), parts)) {
      garbage.add(partGarbage(frozen.bucket().bucket(), frozen.upload(), p));
    }
    Extra x = new Extra(List.of(frozen.row()), garbage, new Usage(0, 0, 0, 0, 0, -1, -bytes));
    try {
      return writeKey(bucket, key, (b, h) -> {
        if (!b.id().equals(frozen.bucket().bucket().id())) {
          throw new NoSuchUploadException("uploadId: no upload " + uploadId + " of \"" + key + "\"");
        }
        return KeyWrites.put(h, b.versioning(), md, WriteCondition.none(), ids.next());
      }, b -> x).subject();
    } catch (MetadataException e) {
      unfreeze(frozen);
      throw e;
    }
  }

  private void unfreeze(UploadRow u) {
    Mutation m = Bt.clear(Mutation.create(), Bt.DATA, COMPLETING);
    Bt.set(m, Bt.META, Bt.VERSION, Codec.version(u.version() + 2));
    bt.cas(objects, u.row(), u.version() + 1, m);
  }

  @Override
  protected List<Part> doListParts(String bucket, String key, String uploadId, int after, int limit) {
    UploadRow u = uploadRow(bucket(bucket), key, uploadId);
    if (u.upload() == null || completing(u.completing())) {
      throw new NoSuchUploadException("uploadId: no upload " + uploadId + " of \"" + key + "\"");
    }
    return u.parts().tailMap(after, false).values().stream().limit(limit).toList();
  }

  // ----------------------------------------------------------------------------------- listings

  /**
   * A paged scan of one row range: {@code rowFrom} turns a seek key into the first row,
   * {@code rowOf} an entry back into its row (a scan that continues starts there again and drops
   * what it returned), {@code map} a row into its entries in order.
   */
  private final class RowCursor<E> extends PagedCursor<E> {
    final ByteString end;
    final Function<String, ByteString> rowFrom;
    final Function<E, ByteString> rowOf;
    final Function<Row, List<E>> map;
    final Comparator<E> order;

    RowCursor(ByteString end, Function<String, ByteString> rowFrom, Function<E, ByteString> rowOf,
        Function<Row, List<E>> map, Comparator<E> order) {
      super(16, 1001); // a full page of 1000 and the entry that says it is truncated
      this.end = end;
      this.rowFrom = rowFrom;
      this.rowOf = rowOf;
      this.map = map;
      this.order = order;
    }

    @Override
    protected List<E> fetch(String from, E after, int limit) {
      List<E> out = new ArrayList<>(limit);
      ByteString start = after == null ? rowFrom.apply(from) : rowOf.apply(after);
      while (out.size() < limit) {
        int want = limit - out.size();
        List<Row> got = bt.scan(Query.create(objects).range(start, end).limit(want));
        for (Row r : got) {
          for (E e : map.apply(r)) {
            if (after == null || order.compare(e, after) > 0) {
              out.add(e);
            }
          }
        }
        if (got.size() < want) {
          break;
        }
        start = Rows.successor(got.get(got.size() - 1).getKey());
      }
      return out;
    }
  }

  private static final Comparator<ObjectVersion> VERSION_ORDER = (x, y) -> {
    int c = KeyOrder.compare(x.key(), y.key());
    return c != 0 ? c : x.revision().compareTo(y.revision());
  };

  @Override
  protected Cursor<ObjectVersion> currentObjects(Bucket bucket) {
    Rows rows = new Rows(bucket.id());
    return new RowCursor<>(rows.mastersEnd(), rows::master, v -> rows.master(v.key()), r -> {
      ByteString m = Bt.cell(r, Bt.DATA, MASTER);
      return m == null ? List.of() : List.of(Codec.master(rows.keyOf(r.getKey()), Codec.json(m)));
    }, VERSION_ORDER);
  }

  @Override
  protected Cursor<ObjectVersion> versions(Bucket bucket) {
    Rows rows = new Rows(bucket.id());
    return new RowCursor<>(rows.keysEnd(), rows::key, v -> rows.key(v.key()), r -> {
      String key = rows.keyOf(r.getKey());
      KeyRow k = keyRow(r.getKey(), key, r, false);
      if (k == null) {
        k = keyRow(rows, key);
      }
      if (k.intent() != null && k.intent().since()
          < now().toEpochMilli() - config.intentLease().toMillis()) {
        // a stale intent met on the way is rolled forward before the key is listed
        rollForward(null, rows, key, k.row(), k.version(), k.intent(), k.history(key).current(), 0);
        k = keyRow(rows, key);
      }
      return k.history(key).versions();
    }, VERSION_ORDER);
  }

  @Override
  protected Cursor<MultipartUpload> uploads(Bucket bucket) {
    Rows rows = new Rows(bucket.id());
    return new RowCursor<>(rows.uploadsEnd(), rows::uploadsOf,
        u -> rows.upload(u.key(), u.uploadId()), r -> {
          ByteString cmp = Bt.cell(r, Bt.DATA, COMPLETING);
          ByteString u = Bt.cell(r, Bt.DATA, UPLOAD);
          if (u == null || (cmp != null && completing(Long.parseLong(cmp.toStringUtf8())))) {
            return List.of();
          }
          String[] ku = rows.uploadOf(r.getKey());
          return List.of(Codec.upload(ku[0], ku[1], Codec.json(u)));
        }, (x, y) -> {
          int c = KeyOrder.compare(x.key(), y.key());
          return c != 0 ? c : x.uploadId().compareTo(y.uploadId());
        });
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

  private Usage usageOf(Rows rows) {
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
    for (Bucket b : allBuckets()) {
      n++;
      total = total.plus(usageOf(new Rows(b.id())));
    }
    return new StoreUsage(n, total);
  }

  private List<Bucket> allBuckets() {
    List<Bucket> out = new ArrayList<>();
    String after = null;
    while (true) {
      List<Bucket> page = doListBuckets(null, after, 1000);
      out.addAll(page);
      if (page.size() < 1000) {
        return out;
      }
      after = page.get(page.size() - 1).name();
    }
  }

  // ----------------------------------------------------------------------------------- GC queue

  /** Writes GC records held by {@code tag}: a claim skips them until they are released. */
  private void insertGarbage(List<ObjectNode> records, String tag, String holder) {
    BulkMutation b = BulkMutation.create(gc);
    for (ObjectNode r : records) {
      Mutation m = Mutation.create();
      Bt.set(m, Bt.META, Bt.VERSION, Codec.version(1));
      Bt.set(m, Bt.DATA, RECORD, Codec.bytes(r));
      Bt.set(m, Bt.META, HELD, ByteString.copyFromUtf8(tag));
      Bt.set(m, Bt.META, HOLDER, ByteString.copyFromUtf8(holder));
      b.add(gcRow(r.get("id").asText()), m);
    }
    bt.bulk(b);
  }

  private void releaseGarbage(List<ObjectNode> records) {
    BulkMutation b = BulkMutation.create(gc);
    for (ObjectNode r : records) {
      b.add(gcRow(r.get("id").asText()), Bt.clear(Bt.clear(Mutation.create(), Bt.META, HELD),
          Bt.META, HOLDER));
    }
    bt.bulk(b);
  }

  private void removeGarbage(List<ObjectNode> records) {
    BulkMutation b = BulkMutation.create(gc);
    for (ObjectNode r : records) {
      b.add(gcRow(r.get("id").asText()), Mutation.create().deleteRow());
    }
    bt.bulk(b);
  }

  /** A record row as read. */
  private record GcRow(ByteString row, long version, GarbageRecord record, String claim,
      long until, String held, String holder) {}

  /** A record row, or null for a row going away (a read overlapping its removal). */
  private static GcRow gcRecord(Row r) {
    Long version = Bt.version(r);
    ByteString record = Bt.cell(r, Bt.DATA, RECORD);
    if (version == null || record == null) {
      return null;
    }
    ByteString c = Bt.cell(r, Bt.META, CLAIM);
    ByteString u = Bt.cell(r, Bt.META, UNTIL);
    ByteString h = Bt.cell(r, Bt.META, HELD);
    ByteString hk = Bt.cell(r, Bt.META, HOLDER);
    return new GcRow(r.getKey(), version, Codec.garbage(Codec.json(record)),
        c == null ? null : c.toStringUtf8(), u == null ? 0 : Codec.version(u),
        h == null ? null : h.toStringUtf8(), hk == null ? null : hk.toStringUtf8());
  }

  /**
   * The queue in order, one batch: every shard's rows with ids after {@code afterId} (null: from
   * the start) and before {@code beforeId} (null: to the end), read at once, merged by id (the
   * id starts with the record's time). A shard that filled its page bounds what is known to be
   * complete: the batch ends there, and {@code next} says where the following one starts (null:
   * nothing after it).
   */
  private record GcBatch(List<GcRow> rows, String next) {}

  private GcBatch gcBatch(String afterId, String beforeId, int perShard) {
    List<Query> queries = new ArrayList<>();
    for (int s = 0; s < GC_SHARDS; s++) {
      ByteString shard = gcShard(s);
      com.google.cloud.bigtable.data.v2.models.Range.ByteStringRange r =
          com.google.cloud.bigtable.data.v2.models.Range.ByteStringRange.unbounded();
      r = afterId == null ? r.startClosed(shard)
          : r.startOpen(shard.concat(ByteString.copyFromUtf8(afterId)));
      r = beforeId == null ? r.endOpen(Rows.after(shard))
          : r.endOpen(shard.concat(ByteString.copyFromUtf8(beforeId)));
      queries.add(Query.create(gc).range(r).limit(perShard));
    }
    String bound = null;
    List<GcRow> rows = new ArrayList<>();
    for (List<Row> got : bt.scanAll(queries)) {
      for (Row r : got) {
        GcRow g = gcRecord(r);
        if (g != null) {
          rows.add(g);
        }
      }
      if (got.size() == perShard) {
        String last = idOf(got.get(got.size() - 1).getKey());
        bound = bound == null || last.compareTo(bound) < 0 ? last : bound;
      }
    }
    rows.sort(Comparator.comparing(g -> idOf(g.row())));
    if (bound != null) {
      String b = bound;
      rows.removeIf(g -> idOf(g.row()).compareTo(b) > 0);
    }
    return new GcBatch(rows, bound);
  }

  /** A client failure from anywhere in a call (a deadline, an unavailable tablet), typed. */
  @Override
  protected io.objectmeta.api.error.MetadataException fault(RuntimeException e) {
    return e instanceof com.google.api.gax.rpc.ApiException a ? Bt.typed(a) : null;
  }

  @Override
  protected GarbageClaim doClaimGarbage(int max, Duration gracePeriod, Duration lease) {
    Instant now = now();
    long nowMs = now.toEpochMilli();
    Instant until = GarbageClaim.leaseEndInMillis(now, lease);
    String cutoff = String.format("%019d", nanos(now.minus(gracePeriod)) + 1);
    String claim = UUID.randomUUID().toString();
    List<GarbageRecord> out = new ArrayList<>();
    String after = null;
    while (out.size() < max) {
      GcBatch batch = gcBatch(after, cutoff, Math.max(16, Math.min(max, 1000)));
      for (GcRow g : batch.rows()) {
        if (out.size() >= max) {
          break;
        }
        if (g.held() != null || (g.claim() != null && g.until() > nowMs)) {
          continue;
        }
        Mutation m = Mutation.create();
        Bt.set(m, Bt.META, Bt.VERSION, Codec.version(g.version() + 1));
        Bt.set(m, Bt.META, CLAIM, ByteString.copyFromUtf8(claim));
        Bt.set(m, Bt.META, UNTIL, Codec.version(until.toEpochMilli()));
        if (bt.cas(gc, g.row(), g.version(), m)) {
          out.add(g.record());
        }
      }
      if (batch.next() == null) {
        break;
      }
      after = batch.next();
    }
    return new GarbageClaim(claim, until, out);
  }

  private List<GcRow> claimed(String claimId, Collection<String> recordIds) {
    Query q = Query.create(gc);
    boolean any = false;
    for (String id : recordIds) {
      ByteString row = id == null ? null : gcRow(id);
      if (row != null) {
        q.rowKey(row);
        any = true;
      }
    }
    List<GcRow> out = new ArrayList<>();
    if (!any) {
      return out;
    }
    for (Row r : bt.scan(q)) {
      GcRow g = gcRecord(r);
      if (g != null && claimId.equals(g.claim())) {
        out.add(g);
      }
    }
    return out;
  }

  @Override
  protected int doAcknowledgeGarbage(String claimId, Collection<String> recordIds) {
    long nowMs = now().toEpochMilli();
    int n = 0;
    for (GcRow g : claimed(claimId, recordIds)) {
      if (g.until() > nowMs && bt.cas(gc, g.row(), g.version(), Mutation.create().deleteRow())) {
        n++;
        if (g.record().kind() == GarbageRecord.Kind.BUCKET) {
          dropBucketRows(g.record().bucketId());
        }
      }
    }
    return n;
  }

  /** A deleted bucket's rows (its closed counters, rows of writes that lost to the delete). */
  private void dropBucketRows(String bucketId) {
    Rows rows = new Rows(bucketId);
    while (true) {
      List<Row> got = bt.scan(Query.create(objects).range(rows.start(), rows.end()).limit(1000),
          FILTERS.limit().cellsPerRow(1));
      if (got.isEmpty()) {
        return;
      }
      BulkMutation b = BulkMutation.create(objects);
      for (Row r : got) {
        b.add(r.getKey(), Mutation.create().deleteRow());
      }
      bt.bulk(b);
    }
  }

  @Override
  protected int doRenewGarbage(String claimId, Collection<String> recordIds, Duration lease) {
    Instant now = now();
    long until = GarbageClaim.leaseEndInMillis(now, lease).toEpochMilli();
    int n = 0;
    for (GcRow g : claimed(claimId, recordIds)) {
      if (g.until() <= now.toEpochMilli()) {
        continue; // ended: another claim may hold it already
      }
      Mutation m = Mutation.create();
      Bt.set(m, Bt.META, UNTIL, Codec.version(until));
      Bt.set(m, Bt.META, Bt.VERSION, Codec.version(g.version() + 1));
      if (bt.cas(gc, g.row(), g.version(), m)) {
        n++;
      }
    }
    return n;
  }

  @Override
  protected int doReleaseGarbage(String claimId, Collection<String> recordIds) {
    int n = 0;
    for (GcRow g : claimed(claimId, recordIds)) {
      Mutation m = Bt.clear(Bt.clear(Mutation.create(), Bt.META, CLAIM), Bt.META, UNTIL);
      Bt.set(m, Bt.META, Bt.VERSION, Codec.version(g.version() + 1));
      if (bt.cas(gc, g.row(), g.version(), m)) {
        n++;
      }
    }
    return n;
  }

  @Override
  public GcQueueStats gcQueueStats() {
    long total = 0;
    long leased = 0;
    long bytes = 0;
    Instant oldest = null;
    long nowMs = now().toEpochMilli();
    ByteString start = ByteString.EMPTY;
    while (true) {
      List<Row> got = bt.scan(Query.create(gc).range(Bt.from(start)).limit(1000));
      for (Row r : got) {
        GcRow g = gcRecord(r);
        if (g == null) {
          continue;
        }
        total++;
        bytes += g.record().size();
        if (g.claim() != null && g.until() > nowMs) {
          leased++;
        }
        if (oldest == null || g.record().deletedAt().isBefore(oldest)) {
          oldest = g.record().deletedAt();
        }
      }
      if (got.size() < 1000) {
        return new GcQueueStats(total, leased, oldest, bytes);
      }
      start = Rows.successor(got.get(got.size() - 1).getKey());
    }
  }

  // ------------------------------------------------------------------------------------ restore

  @Override
  protected Bucket doRestoreBucket(Bucket bucket) {
    for (int attempt = 0; ; attempt++) {
      BucketRow r;
      try {
        r = freshBucket(bucket.name());
      } catch (NoSuchBucketException e) {
        for (Bucket other : allBuckets()) {
          if (other.id().equals(bucket.id())) {
            throw new BucketAlreadyExistsException("bucket.id: " + bucket.id() + " is the id of"
                + " bucket \"" + other.name() + "\"");
          }
        }
        if (insertBucket(bucket)) {
          return bucket;
        }
        backoff(attempt, "the bucket kept changing");
        continue;
      }
      Bucket after = BucketRules.restore(r.bucket(), bucket);
      if (casBucket(r, after)) {
        return after;
      }
      backoff(attempt, "the bucket kept changing");
    }
  }

  @Override
  protected void doRestoreKey(String bucket, String key, List<ObjectVersion> versions) {
    writeKey(bucket, key, (b, h) -> KeyWrites.restore(h, b.versioning(), versions), null);
  }

  @Override
  protected void doRestoreUpload(String bucket, MultipartUpload upload, List<Part> parts) {
    long start = System.nanoTime();
    for (int attempt = 0; ; attempt++) {
      UploadRow u = uploadRow(bucket(bucket), upload.key(), upload.uploadId());
      if (u.intent() != null) {
        if (u.intent().since() < now().toEpochMilli() - config.intentLease().toMillis()) {
          rollForward(u.bucket(), u.rows(), null, u.row(), u.version(), u.intent(), null, attempt);
        } else {
          waitBusy(attempt, start, "the upload stayed busy");
        }
        continue;
      }
      long oldBytes = u.parts().values().stream().mapToLong(Part::size).sum();
      long bytes = parts.stream().mapToLong(Part::size).sum();
      boolean exists = u.upload() != null;
      Usage delta = partBytes(bytes - oldBytes).plus(exists ? Usage.ZERO : ONE_UPLOAD);
      Mutation m = Mutation.create();
      Bt.set(m, Bt.DATA, UPLOAD, Codec.bytes(Codec.upload(upload)));
      Bt.clear(m, Bt.DATA, COMPLETING);
      java.util.Set<Integer> kept = new java.util.HashSet<>();
      for (Part p : parts) {
        Part stored = p.lastModified() == null ? p.withLastModified(upload.initiated()) : p;
        kept.add(p.partNumber());
        Bt.set(m, Bt.DATA, Rows.partColumn(p.partNumber()), Codec.bytes(Codec.part(stored)));
      }
      for (Integer old : u.parts().keySet()) {
        if (!kept.contains(old)) {
          Bt.clear(m, Bt.DATA, Rows.partColumn(old));
        }
      }
      UploadRow target = new UploadRow(u.bucket(), u.rows(), u.row(), u.version(), upload,
          u.parts(), null, null);
      if (writeUpload(target, m, delta, List.of(), false, attempt)) {
        return;
      }
    }
  }

  @Override
  protected GarbagePage doListGarbage(String after, int limit) {
    if (after != null && gcRow(after) == null) {
      throw new InvalidArgumentException("after", "not a cursor this store returned: \"" + after
          + "\"");
    }
    List<GcRow> got = new ArrayList<>();
    String from = after;
    while (got.size() <= limit) {
      GcBatch batch = gcBatch(from, null, Math.min(limit + 1, 1000));
      got.addAll(batch.rows());
      if (batch.next() == null) {
        break;
      }
      from = batch.next();
    }
    boolean more = got.size() > limit;
    List<GcRow> page = more ? got.subList(0, limit) : got;
    List<GarbageRecord> out = new ArrayList<>(page.size());
    for (GcRow g : page) {
      out.add(g.record());
    }
    return new GarbagePage(out, more, more ? idOf(page.get(page.size() - 1).row()) : null);
  }

  @Override
  protected int doRestoreGarbage(List<GarbageRecord> records) {
    int added = 0;
    for (GarbageRecord r : records) {
      String id = String.format("%019d", nanos(r.deletedAt())) + "-o:" + r.id();
      GarbageRecord mine = new GarbageRecord(id, r.kind(), r.bucket(), r.bucketId(), r.key(),
          r.versionId(), r.partNumber(), r.size(), r.dataLocations(), r.deletedAt());
      Mutation m = Mutation.create();
      Bt.set(m, Bt.META, Bt.VERSION, Codec.version(1));
      Bt.set(m, Bt.DATA, RECORD, Codec.bytes(Codec.garbage(mine)));
      if (bt.cas(gc, gcRow(id), null, m)) {
        added++;
      }
    }
    return added;
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
    return repair(config.intentLease());
  }

  /** As {@link #repair()}, for intents older than {@code age} (tests: zero). */
  int repair(Duration age) {
    long cutoff = now().toEpochMilli() - age.toMillis();
    int n = 0;
    Filters.Filter withIntent = FILTERS.chain().filter(FILTERS.family().exactMatch(Bt.META))
        .filter(FILTERS.qualifier().exactMatch(INTENT)).filter(Bt.NOT_EMPTY);
    for (Bucket b : allBuckets()) {
      Rows rows = new Rows(b.id());
      liftStaleClose(rows, cutoff);
      for (ByteString[] range : List.of(new ByteString[] {rows.keysStart(), rows.keysEnd()},
          new ByteString[] {rows.uploadsStart(), rows.uploadsEnd()})) {
        for (Row hit : bt.scan(Query.create(objects).range(range[0], range[1]), withIntent)) {
          boolean isKey = range[0].equals(rows.keysStart());
          Row r = bt.read(objects, hit.getKey());
          ByteString i = Bt.cell(r, Bt.META, INTENT);
          if (i == null) {
            continue;
          }
          Intent intent = Intent.decode(i);
          if (intent.since() > cutoff) {
            continue;
          }
          String key = isKey ? rows.keyOf(r.getKey()) : null;
          ObjectVersion current = isKey ? keyRow(rows, key).history(key).current() : null;
          if (rollForward(null, rows, key, r.getKey(), Bt.version(r), intent, current, 0)) {
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
  private void liftStaleClose(Rows rows, long cutoffMs) {
    for (Row r : bt.scan(Query.create(objects).range(rows.countersStart(), rows.countersEnd()),
        FILTERS.chain().filter(FILTERS.family().exactMatch(Bt.COUNT))
            .filter(FILTERS.qualifier().exactMatch(CLOSED)))) {
      ByteString c = Bt.cell(r, Bt.COUNT, CLOSED);
      long v = c == null ? 0 : Codec.version(c);
      if (v > 0 && v <= cutoffMs) {
        bt.rmw(ReadModifyWriteRow.create(objects, r.getKey()).increment(Bt.COUNT, CLOSED, -v));
      }
    }
  }

  /**
   * GC records still held although their write is over: released when the write finished (its
   * intent is gone), removed when a bucket delete did not happen (the bucket is still there).
   */
  private void settleHolds(long cutoffMs) {
    Filters.Filter held = FILTERS.chain().filter(FILTERS.family().exactMatch(Bt.META))
        .filter(FILTERS.qualifier().exactMatch(HELD)).filter(Bt.NOT_EMPTY);
    for (Row hit : bt.scan(Query.create(gc), held)) {
      GcRow g = gcRecord(bt.read(gc, hit.getKey()));
      if (g == null || g.held() == null || g.record().deletedAt().toEpochMilli() > cutoffMs) {
        continue;
      }
      List<ObjectNode> one = List.of(Codec.garbage(g.record()));
      if (g.holder().startsWith("k:")) {
        ByteString row = ByteString.copyFrom(java.util.Base64.getDecoder()
            .decode(g.holder().substring(2)));
        ByteString i = Bt.cell(bt.read(objects, row), Bt.META, INTENT);
        if (i == null || !Intent.decode(i).tag().equals(g.held())) {
          releaseGarbage(one);
        }
      } else if (g.holder().startsWith("b:")) {
        String[] parts = g.holder().split(":", 3);
        Row b = bt.read(buckets, bucketRow(parts[2]));
        ByteString json = Bt.cell(b, Bt.META, BUCKET);
        if (json != null && Codec.json(json).get("id").asText().equals(parts[1])) {
          removeGarbage(one);
        } else {
          releaseGarbage(one);
        }
      }
    }
  }
}
