package io.objectmeta.mongo;

import static io.objectmeta.mongo.MongoMetadataStore.range;
import static io.objectmeta.mongo.MongoMetadataStore.unavailable;

import com.mongodb.MongoWriteException;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbagePage;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.gc.GcQueueStats;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.VersioningState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.conversions.Bson;

/**
 * The GC queue on MongoDB: {@code __gcqueue} documents in (deletion time, id) order, claimed under
 * a lease by a compare-and-set per record, held by the intent that queued them until it clears.
 */
final class MongoGcQueue implements io.objectmeta.api.spi.ComposedMetadataStore.GcQueue {
  private final MongoMetadataStore s;

  MongoGcQueue(MongoMetadataStore s) {
    this.s = s;
  }

  // ----------------------------------------------------------------------------------- GC queue

  private static final Bson RELEASED = Filters.exists("h", false);

  @Override
  public GarbageClaim doClaimGarbage(int max, Duration gracePeriod, Duration lease) {
    Instant now = s.now();
    long cutoff = Docs.nanos(now.minus(gracePeriod));
    long nowMs = now.toEpochMilli();
    Instant until = GarbageClaim.leaseEndInMillis(now, lease);
    String claim = UUID.randomUUID().toString();
    Bson free = Filters.or(Filters.exists("c", false), Filters.lte("u", nowMs));
    List<BsonValue> candidates = new ArrayList<>();
    for (BsonDocument d : s.gc.find(Filters.and(Filters.lte("at", cutoff), RELEASED, free))
        .sort(Sorts.ascending("at", "_id")).limit(max).projection(Projections.include("_id"))) {
      candidates.add(d.get("_id"));
    }
    List<GarbageRecord> out = new ArrayList<>();
    if (!candidates.isEmpty()) {
      s.gc.updateMany(Filters.and(Filters.in("_id", candidates), RELEASED, free),
          Updates.combine(Updates.set("c", claim), Updates.set("u", until.toEpochMilli())));
      for (BsonDocument d : s.gc.find(Filters.and(Filters.in("_id", candidates), Filters.eq("c", claim)))
          .sort(Sorts.ascending("at", "_id"))) {
        out.add(Docs.garbage(d));
      }
    }
    return new GarbageClaim(claim, until, out);
  }

  @Override
  public int doAcknowledgeGarbage(String claimId, Collection<String> recordIds) {
    Bson mine = Filters.and(Filters.in("_id", new ArrayList<>(recordIds)), Filters.eq("c", claimId),
        Filters.gt("u", s.now().toEpochMilli()));
    List<BsonDocument> buckets = new ArrayList<>();
    for (BsonDocument d : s.gc.find(Filters.and(mine, Filters.eq("k", "BUCKET")))) {
      buckets.add(d);
    }
    int n = (int) s.gc.deleteMany(mine).getDeletedCount();
    for (BsonDocument b : buckets) {
      dropNamespace(b.getString("bi").getValue(), b.getString("b").getValue());
    }
    return n;
  }

  /** A deleted bucket's namespace goes when its GC record is acknowledged. */
  private void dropNamespace(String bucketId, String name) {
    Bucket gone = new Bucket(name, bucketId, "-", Instant.EPOCH, VersioningState.UNVERSIONED, null);
    Namespace ns = s.ns(gone, s.config.keyFormat());
    if (s.config.layout() == MongoConfig.Layout.SHARED) {
      ns.coll().deleteMany(range(ns.ids().start(), ns.ids().end()));
    } else {
      ns.coll().drop();
      s.indexed.remove(ns.collectionName());
    }
  }

  @Override
  public int doRenewGarbage(String claimId, Collection<String> recordIds, Duration lease) {
    Instant now = s.now();
    return (int) s.gc.updateMany(Filters.and(Filters.in("_id", new ArrayList<>(recordIds)),
        Filters.eq("c", claimId), Filters.gt("u", now.toEpochMilli())),
        Updates.set("u", GarbageClaim.leaseEndInMillis(now, lease).toEpochMilli()))
        .getMatchedCount();
  }

  @Override
  public int doReleaseGarbage(String claimId, Collection<String> recordIds) {
    return (int) s.gc.updateMany(Filters.and(Filters.in("_id", new ArrayList<>(recordIds)),
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
    long nowMs = s.now().toEpochMilli();
    for (BsonDocument d : s.gc.find().projection(Projections.include("at", "da", "sz", "u"))) {
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

  @Override
  public GarbagePage doListGarbage(String after, int limit) {
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
    s.gc.find(from).sort(Sorts.ascending("at", "_id")).limit(limit + 1).into(docs);
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
  public int doRestoreGarbage(List<GarbageRecord> records) {
    int added = 0;
    for (GarbageRecord r : records) {
      BsonDocument d = Docs.garbage(r.as("o:" + r.id(), r.deletedAt()));
      try {
        s.gc.insertOne(d);
        added++;
      } catch (MongoWriteException e) {
        if (e.getError().getCode() != 11000) {
          throw unavailable(e);
        }
      }
    }
    return added;
  }
}
