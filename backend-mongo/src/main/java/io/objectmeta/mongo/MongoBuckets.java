package io.objectmeta.mongo;

import static io.objectmeta.mongo.MongoMetadataStore.LIVE;
import static io.objectmeta.mongo.MongoMetadataStore.SHARDS;
import static io.objectmeta.mongo.MongoMetadataStore.range;
import static io.objectmeta.mongo.MongoMetadataStore.unavailable;

import io.objectmeta.api.spi.IntentProtocol;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.mongodb.MongoWriteException;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import com.mongodb.client.model.WriteModel;
import io.objectmeta.api.error.BucketAlreadyExistsException;
import io.objectmeta.api.error.BucketNotEmptyException;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.versioning.BucketRules;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.bson.BsonDocument;
import org.bson.conversions.Bson;

/**
 * Buckets on MongoDB: one document per live bucket in {@code __metastore} (its revision the
 * compare-and-set token, its key formats), the bucket delete that closes the usage counters so no
 * write lands in a deleted incarnation unseen, and a write's wait for such a delete to decide.
 */
final class MongoBuckets implements io.objectmeta.api.spi.ComposedMetadataStore.Buckets {
  private final MongoMetadataStore s;

  MongoBuckets(MongoMetadataStore s) {
    this.s = s;
  }

  @Override
  public Bucket doCreateBucket(String name, String owner, ObjectNode attributes) {
    Bucket b = Bucket.newIncarnation(name, owner, s.now(), attributes);
    insertBucket(b, s.config.keyFormat());
    return b;
  }

  void insertBucket(Bucket b, KeyFormat format) {
    try {
      s.meta.insertOne(Docs.bucket(b, format, format, 1));
    } catch (MongoWriteException e) {
      if (e.getError().getCode() == 11000) {
        throw new BucketAlreadyExistsException("bucket: \"" + b.name() + "\" exists");
      }
      throw unavailable(e);
    }
    Namespace ns = s.ns(b, format);
    s.ensureIndexes(ns);
    // every counter shard exists from the start, so a bucket delete can close them all
    List<WriteModel<BsonDocument>> shards = new ArrayList<>();
    for (int i = 0; i < SHARDS; i++) {
      shards.add(new UpdateOneModel<>(Filters.eq("_id", ns.ids().usage(i)),
          Updates.set("t", "c"), new UpdateOptions().upsert(true)));
    }
    ns.coll().bulkWrite(shards);
  }

  @Override
  public Bucket doGetBucket(String name) {
    return s.row(name).bucket();
  }

  @Override
  public Bucket doUpdateBucket(String name, BucketUpdate update) {
    return s.retry.untilWon("the bucket kept changing", () -> {
      MongoMetadataStore.Row r = s.row(name);
      Bucket after = BucketRules.apply(r.bucket(), update);
      return casBucket(r, after) ? after : null;
    });
  }

  boolean casBucket(MongoMetadataStore.Row r, Bucket after) {
    return s.meta.replaceOne(Filters.and(Filters.eq("_id", r.bucket().name()),
        Filters.eq("id", r.bucket().id()), Filters.eq("r", r.rev()), Filters.ne(Docs.DELETED, true)),
        Docs.bucket(after, r.format(), r.legacy(), r.rev() + 1)).getMatchedCount() == 1;
  }

  @Override
  public void doDeleteBucket(String name) {
    MongoMetadataStore.Row r = s.row(name);
    Namespace ns = s.ns(r);
    long closing = s.now().toEpochMilli();
    setClosing(ns, closing);
    boolean done = false;
    try {
      BsonDocument any = ns.coll().find(Filters.and(range(ns.ids().start(), ns.ids().end()),
          Filters.in("t", "k", "m", "v"))).projection(Projections.include("_id")).first();
      if (any != null) {
        throw new BucketNotEmptyException("bucket: \"" + name + "\" holds versions or delete markers");
      }
      Instant at = s.now();
      List<BsonDocument> garbage = new ArrayList<>();
      String tag = "b" + UUID.randomUUID().toString().replace("-", "");
      for (BsonDocument u : ns.coll().find(Filters.and(range(ns.ids().uploadsStart(),
          ns.ids().uploadsEnd()), Filters.eq("t", "p")))) {
        String uploadDoc = u.getString("_id").getValue();
        uploadDoc = uploadDoc.substring(0, uploadDoc.length() - 7);
        Part p = Docs.part(u);
        MultipartUpload upload = new MultipartUpload(ns.ids().keyOfUpload(uploadDoc),
            ns.ids().uploadIdOf(uploadDoc), at, null);
        garbage.add(Docs.garbage(GarbageRecord.ofPart(tag + "." + garbage.size(), r.bucket(),
            upload, p, at)));
      }
      // the bucket document leaves first (oplog-friendly), then its records join the queue
      Bson mine = Filters.and(Filters.eq("_id", name), Filters.eq("id", r.bucket().id()));
      s.meta.updateOne(mine, Updates.set(Docs.DELETED, true));
      s.meta.deleteOne(mine);
      garbage.add(Docs.garbage(GarbageRecord.ofBucket(tag + ".b", name, r.bucket().id(), at)));
      s.insertGarbage(garbage);
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

  /**
   * A write found the bucket's counters closed: the bucket is being deleted, or is gone. Waits
   * for the delete to finish or give up; a close older than the intent lease was left by a dead
   * process and is lifted.
   */
  void awaitBucket(MongoMetadataStore.Row r, IntentProtocol.Waits waits) {
    Namespace ns = s.ns(r);
    BsonDocument shard = ns.coll().find(Filters.and(range(ns.ids().usage(0), ns.ids().usage(SHARDS)),
        Filters.exists("del", true))).first();
    BsonDocument live = s.meta.find(Filters.and(Filters.eq("_id", r.bucket().name()),
        Filters.eq("id", r.bucket().id()), Filters.ne(Docs.DELETED, true))).first();
    if (live == null) {
      throw NoSuchBucketException.of(r.bucket().name());
    }
    if (shard != null && shard.containsKey("del") && shard.get("del").isInt64()
        && s.lease.expired(shard.getInt64("del").getValue())) {
      reopen(ns, shard.getInt64("del").getValue());
    }
    waits.pause("the bucket is being deleted");
  }

  @Override
  public List<Bucket> doListBuckets(String owner, String after, int limit) {
    List<Bson> f = new ArrayList<>();
    f.add(Filters.ne(Docs.DELETED, true));
    if (owner != null) {
      f.add(Filters.eq("owner", owner));
    }
    if (after != null) {
      f.add(Filters.gt("_id", after));
    }
    List<Bucket> out = new ArrayList<>();
    for (BsonDocument d : s.meta.find(Filters.and(f)).sort(Sorts.ascending("_id")).limit(limit)) {
      out.add(Docs.bucket(d));
    }
    return out;
  }

  @Override
  public Bucket doRestoreBucket(Bucket bucket) {
    return s.retry.untilWon("the bucket kept changing", () -> {
      MongoMetadataStore.Row r;
      try {
        r = s.row(bucket.name());
      } catch (NoSuchBucketException e) {
        BsonDocument other = s.meta.find(Filters.and(Filters.eq("id", bucket.id()),
            LIVE)).first();
        if (other != null) {
          throw new BucketAlreadyExistsException("bucket.id: " + bucket.id() + " is the id of"
              + " bucket \"" + other.getString("_id").getValue() + "\"");
        }
        try {
          insertBucket(bucket, s.config.keyFormat());
          return bucket;
        } catch (BucketAlreadyExistsException raced) {
          return null;
        }
      }
      Bucket after = BucketRules.restore(r.bucket(), bucket);
      return casBucket(r, after) ? after : null;
    });
  }

}
