package io.objectmeta.mongo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.Json;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.version.VersionId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;

/**
 * The documents of the MongoDB backend and their model objects. Field names are short: they
 * are stored in every document.
 * <ul>
 *   <li>version: {@code {_id, t:"v", n: null version?, dm: delete marker?, md: metadata}}; the
 *       revision is the end of the id
 *   <li>master: {@code {_id, t:"m", v: revision, n, dm (v0 only), md}}; a placeholder (PHD) is
 *       {@code {_id, t:"m", phd: fencing id}}
 *   <li>lock of a key: {@code {_id, t:"k", s: sequence, p: pending since, i: intent}}
 *   <li>upload: {@code {_id, t:"u", s, p, i, at, md, cmp: completing since}}, part
 *       {@code {_id, t:"p", pn, sz, e, at, dl}}
 *   <li>usage counters, one of a few shards: {@code {_id, t:"c", co, cb, no, nb, dm, up, pb,
 *       a: {applied intents}, del: closing since}}
 * </ul>
 * Public as a part of the document format, for tools that read or write the same documents.
 */
public final class Docs {
  private Docs() {}

  static final String ID = "_id";
  static final String DELETED = "deleted";

  public static BsonDocument metadata(ObjectMetadata m) {
    ObjectNode tree = Json.MAPPER.valueToTree(m);
    return BsonJson.toBson(tree).asDocument();
  }

  static ObjectMetadata metadata(BsonDocument d) {
    try {
      return Json.MAPPER.treeToValue(BsonJson.toJsonObject(d), ObjectMetadata.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("unreadable metadata", e);
    }
  }

  static BsonDocument version(String id, ObjectVersion v) {
    return version(id, v.nullVersion(), v.metadata());
  }

  /** A version document; a null {@code metadata} is a delete marker. */
  public static BsonDocument version(String id, boolean nullVersion, ObjectMetadata metadata) {
    BsonDocument d = new BsonDocument(ID, new BsonString(id)).append("t", new BsonString("v"))
        .append("n", BsonBoolean.valueOf(nullVersion))
        .append("dm", BsonBoolean.valueOf(metadata == null));
    if (metadata != null) {
      d.append("md", metadata(metadata));
    }
    return d;
  }

  static BsonDocument master(String id, ObjectVersion v) {
    return master(id, v.revision().encode(), v.nullVersion(), v.metadata());
  }

  /** A master document; a null {@code metadata} is a delete marker (v0 only). */
  public static BsonDocument master(String id, String revision, boolean nullVersion,
      ObjectMetadata metadata) {
    BsonDocument d = new BsonDocument(ID, new BsonString(id)).append("t", new BsonString("m"))
        .append("v", new BsonString(revision))
        .append("n", BsonBoolean.valueOf(nullVersion));
    if (metadata == null) {
      d.append("dm", BsonBoolean.TRUE);
    } else {
      d.append("md", metadata(metadata));
    }
    return d;
  }

  public static BsonDocument placeholder(String id, String fence) {
    return new BsonDocument(ID, new BsonString(id)).append("t", new BsonString("m"))
        .append("phd", new BsonString(fence));
  }

  static boolean isPlaceholder(BsonDocument master) {
    return master.containsKey("phd");
  }

  static ObjectVersion fromVersion(String key, VersionId revision, BsonDocument d) {
    boolean dm = d.getBoolean("dm", BsonBoolean.FALSE).getValue();
    return new ObjectVersion(key, revision, d.getBoolean("n", BsonBoolean.FALSE).getValue(), dm,
        false, dm ? null : metadata(d.getDocument("md")));
  }

  static ObjectVersion fromMaster(String key, BsonDocument d) {
    return fromVersion(key, VersionId.decode(d.getString("v").getValue(), "versionId"), d)
        .withLatest(true);
  }

  /** Whether two versions are stored the same (the latest flag is not stored). */
  static boolean sameStored(ObjectVersion a, ObjectVersion b) {
    return a.revision().equals(b.revision()) && a.nullVersion() == b.nullVersion()
        && a.deleteMarker() == b.deleteMarker() && java.util.Objects.equals(a.metadata(), b.metadata());
  }

  // --------------------------------------------------------------------------------- buckets

  /** {@code fmt}: key format of new keys; {@code lf}: of keys whose lock names none. */
  static BsonDocument bucket(Bucket b, KeyFormat format, KeyFormat legacy, long rev) {
    return new BsonDocument(ID, new BsonString(b.name())).append("id", new BsonString(b.id()))
        .append("owner", new BsonString(b.owner()))
        .append("created", new BsonString(b.created().toString()))
        .append("ver", new BsonString(b.versioning().name()))
        .append("attrs", BsonJson.toBson(b.attributes()))
        .append("fmt", new BsonString(format.text()))
        .append("lf", new BsonString(legacy.text()))
        .append("r", new BsonInt64(rev));
  }

  static Bucket bucket(BsonDocument d) {
    return new Bucket(d.getString(ID).getValue(), d.getString("id").getValue(),
        d.getString("owner").getValue(), Instant.parse(d.getString("created").getValue()),
        VersioningState.valueOf(d.getString("ver").getValue()),
        BsonJson.toJsonObject(d.getDocument("attrs")));
  }

  // ---------------------------------------------------------------------------------- uploads

  static MultipartUpload upload(String key, String uploadId, BsonDocument d) {
    return new MultipartUpload(key, uploadId, Instant.parse(d.getString("at").getValue()),
        metadata(d.getDocument("md")));
  }

  static BsonDocument part(String id, Part p) {
    return new BsonDocument(ID, new BsonString(id)).append("t", new BsonString("p"))
        .append("pn", new BsonInt32(p.partNumber())).append("sz", new BsonInt64(p.size()))
        .append("e", p.etag() == null ? org.bson.BsonNull.VALUE : new BsonString(p.etag()))
        .append("at", new BsonString(p.lastModified().toString()))
        .append("dl", locations(p.dataLocations()));
  }

  static Part part(BsonDocument d) {
    BsonValue e = d.get("e");
    return new Part(d.getInt32("pn").getValue(), d.getInt64("sz").getValue(),
        e == null || e.isNull() ? null : e.asString().getValue(),
        Instant.parse(d.getString("at").getValue()), locations(d.getArray("dl")));
  }

  static BsonArray locations(List<DataLocation> ls) {
    BsonArray a = new BsonArray();
    for (DataLocation l : ls) {
      a.add(new BsonDocument("s", new BsonString(l.store())).append("k", new BsonString(l.key()))
          .append("o", new BsonInt64(l.offset())).append("z", new BsonInt64(l.size())));
    }
    return a;
  }

  static List<DataLocation> locations(BsonArray a) {
    List<DataLocation> out = new ArrayList<>(a.size());
    for (BsonValue v : a) {
      BsonDocument d = v.asDocument();
      out.add(new DataLocation(d.getString("s").getValue(), d.getString("k").getValue(),
          d.getInt64("o").getValue(), d.getInt64("z").getValue()));
    }
    return out;
  }

  // ------------------------------------------------------------------------------------ usage

  static final String[] COUNTERS = {"co", "cb", "no", "nb", "dm", "up", "pb"};

  static long[] counters(Usage u) {
    return new long[] {u.currentObjects(), u.currentBytes(), u.nonCurrentVersions(),
        u.nonCurrentBytes(), u.deleteMarkers(), u.uploads(), u.partBytes()};
  }

  static Usage usage(long[] c) {
    return new Usage(c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
  }

  public static BsonDocument usageDelta(Usage u) {
    long[] c = counters(u);
    BsonDocument d = new BsonDocument();
    for (int i = 0; i < c.length; i++) {
      if (c[i] != 0) {
        d.append(COUNTERS[i], new BsonInt64(c[i]));
      }
    }
    return d;
  }

  static Usage addUsage(Usage sum, BsonDocument shard) {
    long[] c = new long[COUNTERS.length];
    for (int i = 0; i < c.length; i++) {
      BsonValue v = shard.get(COUNTERS[i]);
      c[i] = v == null ? 0 : v.asNumber().longValue();
    }
    return sum.plus(usage(c));
  }

  // ------------------------------------------------------------------------------------- GC

  /** Nanoseconds since the epoch: the queue's sortable time. */
  public static long nanos(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
  }

  public static BsonDocument garbage(GarbageRecord r) {
    BsonDocument d = new BsonDocument(ID, new BsonString(r.id()))
        .append("at", new BsonInt64(nanos(r.deletedAt())))
        .append("da", new BsonString(r.deletedAt().toString()))
        .append("k", new BsonString(r.kind().name())).append("b", new BsonString(r.bucket()))
        .append("bi", new BsonString(r.bucketId())).append("pn", new BsonInt32(r.partNumber()))
        .append("sz", new BsonInt64(r.size())).append("dl", locations(r.dataLocations()));
    if (r.key() != null) {
      d.append("key", new BsonString(r.key()));
    }
    if (r.versionId() != null) {
      d.append("vid", new BsonString(r.versionId()));
    }
    return d;
  }

  static GarbageRecord garbage(BsonDocument d) {
    return new GarbageRecord(d.getString(ID).getValue(),
        GarbageRecord.Kind.valueOf(d.getString("k").getValue()), d.getString("b").getValue(),
        d.getString("bi").getValue(), d.containsKey("key") ? d.getString("key").getValue() : null,
        d.containsKey("vid") ? d.getString("vid").getValue() : null, d.getInt32("pn").getValue(),
        d.getInt64("sz").getValue(), locations(d.getArray("dl")),
        Instant.parse(d.getString("da").getValue()));
  }
}
