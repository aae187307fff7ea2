package io.objectmeta.memory;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.objectmeta.api.error.BucketAlreadyExistsException;
import io.objectmeta.api.error.BucketNotEmptyException;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.error.NoSuchUploadException;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbagePage;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.gc.GcQueueStats;
import io.objectmeta.api.listing.Cursor;
import io.objectmeta.api.listing.Cursors;
import io.objectmeta.api.listing.KeyOrder;
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
import io.objectmeta.api.model.WriteCondition;
import io.objectmeta.api.spi.AbstractMetadataStore;
import io.objectmeta.api.version.VersionId;
import io.objectmeta.api.version.VersionIdGenerator;
import io.objectmeta.api.versioning.BucketRules;
import io.objectmeta.api.versioning.KeyChange;
import io.objectmeta.api.versioning.KeyHistory;
import io.objectmeta.api.versioning.KeyWrites;
import io.objectmeta.api.versioning.MultipartRules;
import io.objectmeta.api.versioning.UploadChange;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Function;

/**
 * The reference store: the whole contract in memory, simple enough to be obviously right. It is
 * the oracle of the conformance suite's differential test and a test double for applications.
 *
 * <p>Every write holds one lock for the whole store and applies the shared rules
 * ({@link KeyWrites}, {@link BucketRules}, {@link MultipartRules}); its GC records and usage
 * counters change in the same critical section. Reads of a single key take the same lock;
 * listings iterate concurrent maps of immutable histories without it, so a listing sees each key
 * either before or after any write.
 */
public final class MemoryMetadataStore extends AbstractMetadataStore {

  private final Object lock = new Object();
  private final Clock clock;
  private final VersionIdGenerator ids;
  private final Map<String, BucketState> buckets = new TreeMap<>();
  /** The GC queue in queue order (deletedAt, then the order records were queued). */
  private final TreeMap<QueuePos, Queued> queue = new TreeMap<>();
  private final Map<String, Queued> garbage = new HashMap<>();
  /** Queued records that a restore added, by the id they had in their source store. */
  private final Map<String, Queued> origins = new HashMap<>();
  private long garbageSeq;
  private UUID uuid;

  /** A store on the system clock. */
  public MemoryMetadataStore() {
    this(Clock.systemUTC());
  }

  /** A store on the given clock (version ids, GC times and leases all read it). */
  public MemoryMetadataStore(Clock clock) {
    this.clock = clock;
    this.ids = new VersionIdGenerator(clock::millis, new VersionIdGenerator().writer());
  }

  private static final class BucketState {
    Bucket bucket;
    final ConcurrentSkipListMap<String, KeyHistory> keys = new ConcurrentSkipListMap<>(KeyOrder.UTF8);
    /** The current object of each key that has one: listings never step over delete markers. */
    final ConcurrentSkipListMap<String, ObjectVersion> current = new ConcurrentSkipListMap<>(KeyOrder.UTF8);
    final ConcurrentSkipListMap<String, TreeMap<String, Upload>> uploads =
        new ConcurrentSkipListMap<>(KeyOrder.UTF8);
    Usage usage = Usage.ZERO;

    BucketState(Bucket bucket) {
      this.bucket = bucket;
    }
  }

  private record Upload(MultipartUpload upload, TreeMap<Integer, Part> parts) {}

  /** A record's place in the queue; also the cursor of {@link #listGarbage}. */
  private record QueuePos(Instant deletedAt, long seq) implements Comparable<QueuePos> {
    @Override
    public int compareTo(QueuePos o) {
      int c = deletedAt.compareTo(o.deletedAt);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }

    String cursor() {
      return deletedAt.getEpochSecond() + "." + deletedAt.getNano() + "." + seq;
    }

    static QueuePos parse(String cursor) {
      String[] p = cursor.split("\\.", -1);
      try {
        if (p.length == 3) {
          return new QueuePos(Instant.ofEpochSecond(Long.parseLong(p[0]), Long.parseLong(p[1])),
              Long.parseLong(p[2]));
        }
      } catch (RuntimeException e) {
        // not a cursor of ours: as below
      }
      throw new InvalidArgumentException("after", "not a cursor this store returned: \"" + cursor
          + "\"");
    }
  }

  private static final class Queued {
    final GarbageRecord record;
    final QueuePos pos;
    final String origin;
    String claimId;
    Instant leaseUntil;

    Queued(GarbageRecord record, long seq, String origin) {
      this.record = record;
      this.pos = new QueuePos(record.deletedAt(), seq);
      this.origin = origin;
    }

    boolean leased(Instant now) {
      return claimId != null && leaseUntil.isAfter(now);
    }
  }

  @Override
  public void close() {}

  // ------------------------------------------------------------------------------------ buckets

  @Override
  protected Bucket doCreateBucket(String name, String owner, ObjectNode attributes) {
    synchronized (lock) {
      if (buckets.containsKey(name)) {
        throw new BucketAlreadyExistsException("bucket: \"" + name + "\" exists");
      }
      Bucket b = Bucket.newIncarnation(name, owner, clock.instant(), attributes);
      buckets.put(name, new BucketState(b));
      return b;
    }
  }

  @Override
  protected Bucket doGetBucket(String name) {
    synchronized (lock) {
      return state(name).bucket;
    }
  }

  @Override
  protected Bucket doUpdateBucket(String name, BucketUpdate update) {
    synchronized (lock) {
      BucketState s = state(name);
      s.bucket = BucketRules.apply(s.bucket, update);
      return s.bucket;
    }
  }

  @Override
  protected void doDeleteBucket(String name) {
    synchronized (lock) {
      BucketState s = state(name);
      if (!s.keys.isEmpty()) {
        throw new BucketNotEmptyException("bucket: \"" + name + "\" holds versions or delete markers");
      }
      for (TreeMap<String, Upload> perKey : s.uploads.values()) {
        for (Upload u : perKey.values()) {
          apply(s, u.upload(), MultipartRules.abort(u.parts()));
        }
      }
      buckets.remove(name);
      queue(GarbageRecord.ofBucket("-", name, s.bucket.id(), clock.instant()), null);
    }
  }

  @Override
  protected List<Bucket> doListBuckets(String owner, String after, int limit) {
    synchronized (lock) {
      List<Bucket> out = new ArrayList<>();
      for (BucketState s : buckets.values()) {
        if (out.size() == limit) {
          break;
        }
        if ((after == null || s.bucket.name().compareTo(after) > 0)
            && (owner == null || owner.equals(s.bucket.owner()))) {
          out.add(s.bucket);
        }
      }
      return out;
    }
  }

  // ------------------------------------------------------------------------------------ objects

  @Override
  protected ObjectVersion doPutObject(String bucket, String key, ObjectMetadata metadata,
      WriteCondition condition) {
    synchronized (lock) {
      BucketState s = state(bucket);
      return apply(s, KeyWrites.put(history(s, key), s.bucket.versioning(), metadata, condition,
          ids.next())).subject();
    }
  }

  @Override
  protected ObjectVersion doGetObject(String bucket, String key) {
    synchronized (lock) {
      return KeyWrites.current(history(state(bucket), key));
    }
  }

  @Override
  protected ObjectVersion doGetObjectVersion(String bucket, String key, String versionId) {
    synchronized (lock) {
      return KeyWrites.version(history(state(bucket), key), versionId);
    }
  }

  @Override
  protected ObjectVersion doUpdateObjectMetadata(String bucket, String key, String versionId,
      ObjectMetadataUpdate update) {
    synchronized (lock) {
      BucketState s = state(bucket);
      return apply(s, KeyWrites.update(history(s, key), versionId, update)).subject();
    }
  }

  @Override
  protected DeleteResult doDeleteObject(String bucket, String key) {
    synchronized (lock) {
      BucketState s = state(bucket);
      return apply(s, KeyWrites.delete(history(s, key), s.bucket.versioning(), ids.next()))
          .deleteResult();
    }
  }

  @Override
  protected DeleteResult doDeleteObjectVersion(String bucket, String key, String versionId) {
    synchronized (lock) {
      BucketState s = state(bucket);
      return apply(s, KeyWrites.deleteVersion(history(s, key), versionId)).versionDeleteResult();
    }
  }

  // ---------------------------------------------------------------------------------- multipart

  @Override
  protected MultipartUpload doInitiateMultipartUpload(String bucket, String key,
      ObjectMetadata metadata) {
    synchronized (lock) {
      BucketState s = state(bucket);
      VersionId id = ids.next();
      MultipartUpload u = MultipartUpload.initiate(key, id, metadata);
      s.uploads.computeIfAbsent(key, k -> new TreeMap<>()).put(u.uploadId(), new Upload(u, new TreeMap<>()));
      apply(s, u, MultipartRules.initiate());
      return u;
    }
  }

  @Override
  protected Part doPutPart(String bucket, String key, String uploadId, Part part) {
    synchronized (lock) {
      BucketState s = state(bucket);
      Upload u = upload(s, key, uploadId);
      Part stored = part.withLastModified(clock.instant());
      UploadChange c = MultipartRules.putPart(u.parts().get(part.partNumber()), stored);
      u.parts().put(part.partNumber(), stored);
      apply(s, u.upload(), c);
      return stored;
    }
  }

  @Override
  protected ObjectVersion doCompleteMultipartUpload(String bucket, String key, String uploadId,
      List<CompletedPart> parts) {
    synchronized (lock) {
      BucketState s = state(bucket);
      Upload u = upload(s, key, uploadId);
      ObjectMetadata m = MultipartRules.complete(u.upload().metadata(), u.parts(), parts);
      KeyChange c = apply(s, KeyWrites.put(history(s, key), s.bucket.versioning(), m,
          WriteCondition.none(), ids.next()));
      apply(s, u.upload(), MultipartRules.completion(u.parts(), parts));
      removeUpload(s, u);
      return c.subject();
    }
  }

  @Override
  protected void doAbortMultipartUpload(String bucket, String key, String uploadId) {
    synchronized (lock) {
      BucketState s = state(bucket);
      Upload u = upload(s, key, uploadId);
      apply(s, u.upload(), MultipartRules.abort(u.parts()));
      removeUpload(s, u);
    }
  }

  @Override
  protected List<Part> doListParts(String bucket, String key, String uploadId, int after, int limit) {
    synchronized (lock) {
      return upload(state(bucket), key, uploadId).parts().tailMap(after, false).values().stream()
          .limit(limit).toList();
    }
  }

  // ----------------------------------------------------------------------------------- listings

  @Override
  protected Cursor<ObjectVersion> currentObjects(Bucket bucket) {
    return Cursors.ofMap(live(bucket).current, List::of);
  }

  @Override
  protected Cursor<ObjectVersion> versions(Bucket bucket) {
    return Cursors.ofMap(live(bucket).keys, KeyHistory::versions);
  }

  @Override
  protected Cursor<MultipartUpload> uploads(Bucket bucket) {
    ConcurrentSkipListMap<String, TreeMap<String, Upload>> uploads = live(bucket).uploads;
    Function<TreeMap<String, Upload>, List<MultipartUpload>> entries;
    entries = perKey -> {
      synchronized (lock) {
        return perKey.values().stream().map(Upload::upload).toList();
      }
    };
    return Cursors.ofMap(uploads, entries);
  }

  // --------------------------------------------------------------------------------- management

  @Override
  public UUID getUUID() {
    synchronized (lock) {
      if (uuid == null) {
        uuid = UUID.randomUUID();
      }
      return uuid;
    }
  }

  @Override
  protected Usage doBucketUsage(String bucket) {
    synchronized (lock) {
      return state(bucket).usage;
    }
  }

  @Override
  public StoreUsage usage() {
    synchronized (lock) {
      Usage total = Usage.ZERO;
      for (BucketState s : buckets.values()) {
        total = total.plus(s.usage);
      }
      return new StoreUsage(buckets.size(), total);
    }
  }

  // ----------------------------------------------------------------------------------- GC queue

  @Override
  protected GarbageClaim doClaimGarbage(int max, Duration gracePeriod, Duration lease) {
    synchronized (lock) {
      Instant now = clock.instant();
      Instant cutoff = now.minus(gracePeriod);
      String claimId = UUID.randomUUID().toString();
      Instant until = now.plus(lease);
      List<GarbageRecord> out = new ArrayList<>();
      for (Queued q : queue.values()) {
        if (out.size() == max) {
          break;
        }
        if (!q.record.deletedAt().isAfter(cutoff) && !q.leased(now)) {
          q.claimId = claimId;
          q.leaseUntil = until;
          out.add(q.record);
        }
      }
      return new GarbageClaim(claimId, until, out);
    }
  }

  @Override
  protected int doAcknowledgeGarbage(String claimId, Collection<String> recordIds) {
    return eachHeld(claimId, recordIds, (q, now) -> unqueue(q));
  }

  @Override
  protected int doRenewGarbage(String claimId, Collection<String> recordIds, Duration lease) {
    return eachHeld(claimId, recordIds, (q, now) -> q.leaseUntil = now.plus(lease));
  }

  /** Applies {@code action} to each named record this claim holds under a live lease; how many. */
  private int eachHeld(String claimId, Collection<String> recordIds,
      java.util.function.BiConsumer<Queued, Instant> action) {
    synchronized (lock) {
      Instant now = clock.instant();
      int n = 0;
      for (String id : recordIds) {
        Queued q = garbage.get(id);
        if (q != null && claimId.equals(q.claimId) && q.leased(now)) {
          action.accept(q, now);
          n++;
        }
      }
      return n;
    }
  }

  @Override
  protected int doReleaseGarbage(String claimId, Collection<String> recordIds) {
    synchronized (lock) {
      int n = 0;
      for (String id : recordIds) {
        Queued q = garbage.get(id);
        if (q != null && claimId.equals(q.claimId)) {
          q.claimId = null;
          q.leaseUntil = null;
          n++;
        }
      }
      return n;
    }
  }

  @Override
  public GcQueueStats gcQueueStats() {
    synchronized (lock) {
      Instant now = clock.instant();
      long leased = 0;
      long bytes = 0;
      for (Queued q : queue.values()) {
        leased += q.leased(now) ? 1 : 0;
        bytes += q.record.size();
      }
      return new GcQueueStats(queue.size(), leased,
          queue.isEmpty() ? null : queue.firstKey().deletedAt(), bytes);
    }
  }

  // ------------------------------------------------------------------------------------ restore

  @Override
  protected Bucket doRestoreBucket(Bucket bucket) {
    synchronized (lock) {
      BucketState s = buckets.get(bucket.name());
      if (s == null) {
        for (BucketState other : buckets.values()) {
          if (other.bucket.id().equals(bucket.id())) {
            throw new BucketAlreadyExistsException("bucket.id: " + bucket.id() + " is the id of"
                + " bucket \"" + other.bucket.name() + "\"");
          }
        }
        buckets.put(bucket.name(), new BucketState(bucket));
        return bucket;
      }
      s.bucket = BucketRules.restore(s.bucket, bucket);
      return s.bucket;
    }
  }

  @Override
  protected void doRestoreKey(String bucket, String key, List<ObjectVersion> versions) {
    synchronized (lock) {
      BucketState s = state(bucket);
      apply(s, KeyWrites.restore(history(s, key), s.bucket.versioning(), versions));
    }
  }

  @Override
  protected void doRestoreUpload(String bucket, MultipartUpload upload, List<Part> parts) {
    synchronized (lock) {
      BucketState s = state(bucket);
      TreeMap<String, Upload> perKey = s.uploads.computeIfAbsent(upload.key(), k -> new TreeMap<>());
      TreeMap<Integer, Part> byNumber = new TreeMap<>();
      for (Part p : parts) {
        byNumber.put(p.partNumber(), p);
      }
      Upload old = perKey.put(upload.uploadId(), new Upload(upload, byNumber));
      if (old != null) {
        s.usage = s.usage.minus(MultipartRules.restore(old.parts().values()).usageDelta());
      }
      s.usage = s.usage.plus(MultipartRules.restore(parts).usageDelta());
    }
  }

  @Override
  protected GarbagePage doListGarbage(String after, int limit) {
    synchronized (lock) {
      Collection<Queued> rest = after == null ? queue.values()
          : queue.tailMap(QueuePos.parse(after), false).values();
      List<GarbageRecord> page = new ArrayList<>(Math.min(limit, queue.size()));
      Queued last = null;
      boolean more = false;
      for (Queued q : rest) {
        if (page.size() == limit) {
          more = true;
          break;
        }
        page.add(q.record);
        last = q;
      }
      return new GarbagePage(page, more, more ? last.pos.cursor() : null);
    }
  }

  @Override
  protected int doRestoreGarbage(List<GarbageRecord> records) {
    synchronized (lock) {
      int added = 0;
      for (GarbageRecord r : records) {
        if (!origins.containsKey(r.id())) {
          queue(r, r.id());
          added++;
        }
      }
      return added;
    }
  }

  // ------------------------------------------------------------------------------------ helpers

  private BucketState state(String name) {
    BucketState s = buckets.get(name);
    if (s == null) {
      throw NoSuchBucketException.of(name);
    }
    return s;
  }

  /** The state of this incarnation; a listing of a bucket deleted meanwhile sees it empty. */
  private BucketState live(Bucket bucket) {
    synchronized (lock) {
      BucketState s = buckets.get(bucket.name());
      return s != null && s.bucket.id().equals(bucket.id()) ? s : new BucketState(bucket);
    }
  }

  private static KeyHistory history(BucketState s, String key) {
    KeyHistory h = s.keys.get(key);
    return h == null ? KeyHistory.empty(key) : h;
  }

  /** Persists a key change with its GC records and usage delta (caller holds the lock). */
  private KeyChange apply(BucketState s, KeyChange c) {
    String key = c.after().key();
    if (c.after().isEmpty()) {
      s.keys.remove(key);
    } else {
      s.keys.put(key, c.after());
    }
    ObjectVersion current = c.after().current();
    if (current == null) {
      s.current.remove(key);
    } else {
      s.current.put(key, current);
    }
    Instant now = clock.instant();
    for (ObjectVersion v : c.garbage()) {
      queue(GarbageRecord.ofVersion("-", s.bucket, v, now), null);
    }
    s.usage = s.usage.plus(c.usageDelta());
    return c;
  }

  private Upload upload(BucketState s, String key, String uploadId) {
    TreeMap<String, Upload> perKey = s.uploads.get(key);
    Upload u = perKey == null ? null : perKey.get(uploadId);
    if (u == null) {
      throw NoSuchUploadException.of(key, uploadId);
    }
    return u;
  }

  private void removeUpload(BucketState s, Upload u) {
    String key = u.upload().key();
    TreeMap<String, Upload> perKey = s.uploads.get(key);
    perKey.remove(u.upload().uploadId());
    if (perKey.isEmpty()) {
      s.uploads.remove(key);
    }
  }

  /** Persists an upload change's usage delta and GC records (caller holds the lock). */
  private void apply(BucketState s, MultipartUpload u, UploadChange c) {
    for (GarbageRecord g : c.garbage(s.bucket, u, clock.instant(), "-")) {
      queue(g, null);
    }
    s.usage = s.usage.plus(c.usageDelta());
  }

  /**
   * Queues a record under the next id, at its own time;
   * {@code origin}: the source id of a restored record.
   */
  private void queue(GarbageRecord record, String origin) {
    long seq = ++garbageSeq;
    Queued q = new Queued(record.as("gc-" + seq, record.deletedAt()), seq, origin);
    queue.put(q.pos, q);
    garbage.put(q.record.id(), q);
    if (origin != null) {
      origins.put(origin, q);
    }
  }

  private void unqueue(Queued q) {
    queue.remove(q.pos);
    garbage.remove(q.record.id());
    if (q.origin != null) {
      origins.remove(q.origin);
    }
  }
}
