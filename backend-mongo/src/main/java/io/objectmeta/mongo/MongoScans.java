package io.objectmeta.mongo;

import static io.objectmeta.mongo.MongoMetadataStore.LIVE;

import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Sorts;
import io.objectmeta.api.listing.Cursor;
import io.objectmeta.api.listing.Cursors;
import io.objectmeta.api.listing.PagedCursor;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectVersion;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.conversions.Bson;

/**
 * The three scans the shared listing engine pages through on MongoDB: masters (current objects),
 * versions and uploads, each a range of document ids in key order; a bucket a migration moves from
 * the v0 to the v1 key format is read in both, merged.
 */
final class MongoScans implements io.objectmeta.api.spi.ComposedMetadataStore.Scans {
  private final MongoMetadataStore s;

  MongoScans(MongoMetadataStore s) {
    this.s = s;
  }

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
  public Cursor<ObjectVersion> currentObjects(Bucket bucket) {
    MongoMetadataStore.Row r = rowOf(bucket);
    if (r.migrating()) {
      return Cursors.union(currentIn(s.ns(r).withFormat(r.format())),
          currentIn(s.ns(r).withFormat(r.legacy())),
          (x, y) -> io.objectmeta.api.listing.KeyOrder.compare(x.key(), y.key()));
    }
    return currentIn(s.ns(r));
  }

  /** The bucket's row, or (deleted meanwhile) a row that lists it empty. */
  private MongoMetadataStore.Row rowOf(Bucket b) {
    BsonDocument d = s.meta.find(Filters.and(Filters.eq("_id", b.name()), LIVE)).first();
    if (d != null && d.getString("id").getValue().equals(b.id())) {
      return MongoMetadataStore.row(d);
    }
    return new MongoMetadataStore.Row(b, s.config.keyFormat(), s.config.keyFormat(), 0);
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
          ObjectVersion latest = s.keys.newest(ns, key);
          s.keys.repairPlaceholder(ns, key, d, latest);
          return latest == null || latest.deleteMarker() ? null : latest;
        });
  }

  @Override
  public Cursor<ObjectVersion> versions(Bucket bucket) {
    MongoMetadataStore.Row r = rowOf(bucket);
    if (r.migrating()) {
      return Cursors.withLatestFlags(Cursors.union(versionsIn(s.ns(r).withFormat(r.format())),
          versionsIn(s.ns(r).withFormat(r.legacy())), (x, y) -> {
            int c = io.objectmeta.api.listing.KeyOrder.compare(x.key(), y.key());
            return c != 0 ? c : x.revision().compareTo(y.revision());
          }));
    }
    return Cursors.withLatestFlags(versionsIn(s.ns(r)));
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
  public Cursor<MultipartUpload> uploads(Bucket bucket) {
    Namespace ns = s.ns(rowOf(bucket));
    return new RangeCursor<>(ns, ns.ids().uploadsEnd(), Filters.eq("t", "u"),
        ns.ids()::uploadFrom, u -> ns.ids().upload(u.key(), u.uploadId()), d -> {
          if (s.uploads.completing(d)) {
            return null;
          }
          String id = d.getString("_id").getValue();
          return Docs.upload(ns.ids().keyOfUpload(id), ns.ids().uploadIdOf(id), d);
        });
  }
}
