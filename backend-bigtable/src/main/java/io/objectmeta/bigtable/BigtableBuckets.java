package io.objectmeta.bigtable;

import static io.objectmeta.bigtable.BigtableMetadataStore.bucketRow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.bigtable.data.v2.models.Mutation;
import com.google.cloud.bigtable.data.v2.models.Query;
import com.google.cloud.bigtable.data.v2.models.ReadModifyWriteRow;
import com.google.cloud.bigtable.data.v2.models.Row;
import com.google.protobuf.ByteString;
import io.objectmeta.api.error.BucketAlreadyExistsException;
import io.objectmeta.api.error.BucketNotEmptyException;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.error.ServiceUnavailableException;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.spi.IntentProtocol;
import io.objectmeta.api.versioning.BucketRules;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import static io.objectmeta.bigtable.Cells.*;

/**
 * Buckets on Bigtable: one row per live bucket in the {@code buckets} table (its version cell the
 * check-and-mutate token), the bucket delete that closes the usage counter shards so no write
 * lands in a deleted incarnation unseen, and a write's wait for such a delete to decide.
 */
final class BigtableBuckets implements io.objectmeta.api.spi.ComposedMetadataStore.Buckets {
  private final BigtableMetadataStore s;

  BigtableBuckets(BigtableMetadataStore s) {
    this.s = s;
  }

  @Override
  public Bucket doCreateBucket(String name, String owner, ObjectNode attributes) {
    Bucket b = Bucket.newIncarnation(name, owner, s.now(), attributes);
    if (!insertBucket(b)) {
      throw new BucketAlreadyExistsException("bucket: \"" + name + "\" exists");
    }
    return b;
  }

  boolean insertBucket(Bucket b) {
    long v = Bt.firstVersion();
    Mutation m = Mutation.create();
    Bt.set(m, Bt.META, Bt.VERSION, Codec.version(v));
    Bt.set(m, Bt.META, BUCKET, Codec.bytes(Codec.bucket(b)));
    if (!s.bt.cas(s.buckets, bucketRow(b.name()), null, m)) {
      return false;
    }
    s.cache.put(b.name(), new BigtableMetadataStore.BucketRow(b, v));
    return true;
  }

  boolean casBucket(BigtableMetadataStore.BucketRow r, Bucket after) {
    Mutation m = Mutation.create();
    Bt.set(m, Bt.META, Bt.VERSION, Codec.version(r.version() + 1));
    Bt.set(m, Bt.META, BUCKET, Codec.bytes(Codec.bucket(after)));
    if (s.bt.cas(s.buckets, bucketRow(after.name()), r.version(), m)) {
      s.cache.put(after.name(), new BigtableMetadataStore.BucketRow(after, r.version() + 1));
      return true;
    }
    return false;
  }

  @Override
  public Bucket doGetBucket(String name) {
    return s.bucket(name).bucket();
  }

  @Override
  public Bucket doUpdateBucket(String name, BucketUpdate update) {
    return s.retry.untilWon("the bucket kept changing", () -> {
      BigtableMetadataStore.BucketRow r = s.freshBucket(name);
      Bucket after = BucketRules.apply(r.bucket(), update);
      return casBucket(r, after) ? after : null;
    });
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
  public void doDeleteBucket(String name) {
    long start = System.nanoTime();
    for (int attempt = 0; ; attempt++) {
      BigtableMetadataStore.BucketRow r = s.freshBucket(name);
      Rows rows = r.rows();
      long since = s.now().toEpochMilli();
      setClosed(rows, since);
      boolean done = false;
      try {
        s.step("close");
        if (!s.bt.scan(Query.create(s.objects).range(rows.keysStart(), rows.keysEnd()).limit(1))
            .isEmpty()) {
          throw new BucketNotEmptyException("bucket: \"" + name
              + "\" holds versions or delete markers");
        }
        Instant at = s.now();
        String tag = Intent.newTag();
        List<ObjectNode> garbage = new ArrayList<>();
        for (Row u : s.bt.scan(Query.create(s.objects).range(rows.uploadsStart(), rows.uploadsEnd()))) {
          String[] ku = rows.uploadOf(u.getKey());
          for (Part p : BigtableUploads.parts(u).values()) {
            garbage.add(Codec.garbage(GarbageRecord.ofPart(gcId(at, tag, garbage.size()),
                r.bucket(), new MultipartUpload(ku[0], ku[1], at, null), p, at)));
          }
        }
        garbage.add(Codec.garbage(GarbageRecord.ofBucket(gcId(at, tag, garbage.size()), name,
            r.bucket().id(), at)));
        String holder = "b:" + r.bucket().id() + ":" + name;
        s.queue.insertGarbage(garbage, tag, holder);
        s.step("garbage");
        if (!s.bt.cas(s.buckets, bucketRow(name), r.version(), Mutation.create().deleteRow())) {
          s.queue.removeGarbage(garbage);
          s.retry.backoff(attempt, start, "the bucket kept changing");
          continue;
        }
        s.cache.invalidate(name);
        done = true;
        s.step("bucket");
        s.queue.releaseGarbage(garbage);
        s.step("release");
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
  void setClosed(Rows rows, long since) {
    List<com.google.api.core.ApiFuture<Row>> all = new ArrayList<>();
    for (int i = 0; i < Rows.SHARDS; i++) {
      all.add(s.client.readModifyWriteRowAsync(ReadModifyWriteRow.create(s.objects, rows.counter(i))
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
  void awaitBucket(BigtableMetadataStore.BucketRow r, IntentProtocol.Waits waits, long since) {
    long cutoff = s.lease.cutoffMillis();
    BigtableMetadataStore.BucketRow now = s.freshBucket(r.bucket().name()); // NoSuchBucket if the delete went through
    if (!now.bucket().id().equals(r.bucket().id())) {
      throw NoSuchBucketException.of(r.bucket().name());
    }
    // (two deletes at once add their times up: a close far in the future, taken back by each)
    if (since <= cutoff) {
      s.repairs.liftStaleClose(r.rows(), cutoff);
      return;
    }
    waits.pause("the bucket is being deleted");
  }

  @Override
  public List<Bucket> doListBuckets(String owner, String after, int limit) {
    List<Bucket> out = new ArrayList<>();
    ByteString from = after == null ? ByteString.copyFromUtf8(BUCKET_ROWS)
        : Rows.successor(bucketRow(after));
    ByteString end = Rows.after(ByteString.copyFromUtf8(BUCKET_ROWS));
    while (out.size() < limit) {
      int want = owner == null ? limit - out.size() : 500;
      List<Row> got = s.bt.scan(Query.create(s.buckets).range(from, end).limit(want));
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

  List<Bucket> allBuckets() {
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

  @Override
  public Bucket doRestoreBucket(Bucket bucket) {
    return s.retry.untilWon("the bucket kept changing", () -> {
      BigtableMetadataStore.BucketRow r;
      try {
        r = s.freshBucket(bucket.name());
      } catch (NoSuchBucketException e) {
        for (Bucket other : allBuckets()) {
          if (other.id().equals(bucket.id())) {
            throw new BucketAlreadyExistsException("bucket.id: " + bucket.id() + " is the id of"
                + " bucket \"" + other.name() + "\"");
          }
        }
        return insertBucket(bucket) ? bucket : null;
      }
      Bucket after = BucketRules.restore(r.bucket(), bucket);
      return casBucket(r, after) ? after : null;
    });
  }

}
