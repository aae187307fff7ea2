package io.objectmeta.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.Json;
import io.objectmeta.api.model.ObjectMetadata;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonValue;

/**
 * The MongoDB backend's document ids and document shapes, written out again for the raw
 * baseline ({@code io.objectmeta.mongo} keeps its own package-private), so the baseline stores
 * byte for byte the documents the backend stores: the same ids, field names, field order and
 * BSON types. Used only while preparing a run (never timed). Keys must be plain (no NUL, nothing
 * at or above U+D7FF): the backend stores those unescaped, and the bench's keys are ASCII.
 */
final class MongoShapes {
  private MongoShapes() {}

  static final String METASTORE = "__metastore";
  static final String GC = "__gcqueue";
  static final String SHARED = "objects";
  static final int SHARDS = 8;

  /** One bucket's namespace: its collection, id prefix (shared layout) and key format. */
  record Ns(String bucket, String bucketId, String collection, String prefix, boolean v1) {

    static Ns of(String bucket, String bucketId, boolean shared, boolean v1) {
      return new Ns(bucket, bucketId, shared ? SHARED : "objects." + bucketId,
          shared ? bucketId : "", v1);
    }

    String master(String key) {
      return prefix + (v1 ? "\u007fM" : "") + plain(key);
    }

    String lock(String key) {
      return prefix + "\uD7FF\u0002" + plain(key);
    }

    String versionsOf(String key) {
      return prefix + (v1 ? "\u007fV" : "") + plain(key) + "\0\0";
    }

    String version(String key, String revision) {
      return versionsOf(key) + revision;
    }

    String versionsEnd(String key) {
      return prefix + (v1 ? "\u007fV" : "") + plain(key) + "\0\u0001";
    }

    String usage(int shard) {
      return prefix + "\uD7FF\0u" + shard;
    }
  }

  private static String plain(String key) {
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c == 0 || c >= '\uD7FF' || (i == 0 && c == '\u007f')) {
        throw new IllegalArgumentException("the baseline takes plain keys only: " + key);
      }
    }
    return key;
  }

  static int shardOf(String key) {
    return Math.floorMod(key.hashCode(), SHARDS);
  }

  /** The backend's intent tag: a random UUID's two halves in hex. */
  static String newTag() {
    UUID u = UUID.randomUUID();
    return Long.toHexString(u.getMostSignificantBits()) + Long.toHexString(u.getLeastSignificantBits());
  }

  static long nanos(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
  }

  // ------------------------------------------------------------------------------ documents

  static BsonDocument metadata(ObjectMetadata m) {
    return toBson(Json.MAPPER.valueToTree(m)).asDocument();
  }

  static BsonDocument version(String id, boolean nullVersion, boolean marker, ObjectMetadata m) {
    BsonDocument d = new BsonDocument("_id", new BsonString(id)).append("t", new BsonString("v"))
        .append("n", BsonBoolean.valueOf(nullVersion))
        .append("dm", BsonBoolean.valueOf(marker));
    if (m != null) {
      d.append("md", metadata(m));
    }
    return d;
  }

  static BsonDocument master(String id, String revision, boolean nullVersion, ObjectMetadata m) {
    BsonDocument d = new BsonDocument("_id", new BsonString(id)).append("t", new BsonString("m"))
        .append("v", new BsonString(revision)).append("n", BsonBoolean.valueOf(nullVersion));
    if (m == null) {
      d.append("dm", BsonBoolean.TRUE);
    } else {
      d.append("md", metadata(m));
    }
    return d;
  }

  static BsonDocument placeholder(String id, String fence) {
    return new BsonDocument("_id", new BsonString(id)).append("t", new BsonString("m"))
        .append("phd", new BsonString(fence));
  }

  static BsonArray locations(List<DataLocation> ls) {
    BsonArray a = new BsonArray();
    for (DataLocation l : ls) {
      a.add(new BsonDocument("s", new BsonString(l.store())).append("k", new BsonString(l.key()))
          .append("o", new BsonInt64(l.offset())).append("z", new BsonInt64(l.size())));
    }
    return a;
  }

  /** A GC record of an object version, as an overwrite or a delete by version id queues it. */
  static BsonDocument garbage(String id, String bucket, String bucketId, String key,
      String versionId, long size, List<DataLocation> locations, Instant deletedAt) {
    return new BsonDocument("_id", new BsonString(id))
        .append("at", new BsonInt64(nanos(deletedAt)))
        .append("da", new BsonString(deletedAt.toString()))
        .append("k", new BsonString("OBJECT_VERSION")).append("b", new BsonString(bucket))
        .append("bi", new BsonString(bucketId)).append("pn", new BsonInt32(0))
        .append("sz", new BsonInt64(size)).append("dl", locations(locations))
        .append("key", new BsonString(key)).append("vid", new BsonString(versionId));
  }

  /** Counter deltas in the backend's order, zeros left out: co, cb, no, nb, dm, up, pb. */
  static BsonDocument usageDelta(long... c) {
    String[] names = {"co", "cb", "no", "nb", "dm", "up", "pb"};
    BsonDocument d = new BsonDocument();
    for (int i = 0; i < c.length; i++) {
      if (c[i] != 0) {
        d.append(names[i], new BsonInt64(c[i]));
      }
    }
    return d;
  }

  // --------------------------------------------------------------------------------- intents

  private static final List<String> FIELDS = List.of("v", "n", "dm", "md", "phd", "deleted",
      "pn", "sz", "e", "at", "dl");

  /** A whole document written as the backend writes it: an update of every field, upserted. */
  static org.bson.conversions.Bson replacement(BsonDocument doc) {
    List<org.bson.conversions.Bson> u = new java.util.ArrayList<>();
    for (Map.Entry<String, BsonValue> e : doc.entrySet()) {
      if (!e.getKey().equals("_id")) {
        u.add(com.mongodb.client.model.Updates.set(e.getKey(), e.getValue()));
      }
    }
    for (String f : FIELDS) {
      if (!doc.containsKey(f)) {
        u.add(com.mongodb.client.model.Updates.unset(f));
      }
    }
    return com.mongodb.client.model.Updates.combine(u);
  }

  static BsonDocument putStep(BsonDocument doc) {
    return new BsonDocument("t", new BsonString("put")).append("d", doc);
  }

  static BsonDocument delStep(String id) {
    return new BsonDocument("t", new BsonString("del")).append("id", new BsonString(id));
  }

  static BsonDocument phdStep(String id, String fence) {
    return new BsonDocument("t", new BsonString("phd")).append("id", new BsonString(id))
        .append("p", new BsonString(fence));
  }

  static BsonDocument fixStep(String id, String fence) {
    return new BsonDocument("t", new BsonString("fix")).append("id", new BsonString(id))
        .append("p", new BsonString(fence));
  }

  /** The intent as the lock document records it. */
  static BsonDocument intent(String tag, long atMs, int shard, List<BsonDocument> ops,
      List<BsonDocument> garbage, boolean drop, BsonDocument usage) {
    return new BsonDocument("op", new BsonString(tag)).append("at", new BsonInt64(atMs))
        .append("sh", new BsonInt32(shard)).append("ops", new BsonArray(ops))
        .append("gc", new BsonArray(garbage)).append("drop", BsonBoolean.valueOf(drop))
        .append("use", usage);
  }

  // -------------------------------------------------------------------------------- JSON tree

  /** A JSON tree as the backend stores it (its numbers keep their kind; names escaped). */
  static BsonValue toBson(JsonNode n) {
    if (n == null || n.isNull() || n.isMissingNode()) {
      return BsonNull.VALUE;
    }
    switch (n.getNodeType()) {
      case OBJECT: {
        BsonDocument d = new BsonDocument();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> e = it.next();
          d.put(escapeName(e.getKey()), toBson(e.getValue()));
        }
        return d;
      }
      case ARRAY: {
        BsonArray a = new BsonArray();
        for (JsonNode e : n) {
          a.add(toBson(e));
        }
        return a;
      }
      case STRING:
        return new BsonString(n.textValue());
      case BOOLEAN:
        return BsonBoolean.valueOf(n.booleanValue());
      case NUMBER:
        if (n.isInt()) {
          return new BsonInt32(n.intValue());
        }
        if (n.isLong()) {
          return new BsonInt64(n.longValue());
        }
        if (n.isIntegralNumber() || n.isBigDecimal()) {
          throw new IllegalArgumentException("the baseline's metadata has no big numbers");
        }
        return new BsonDouble(n.doubleValue());
      default:
        return new BsonString(n.asText());
    }
  }

  private static String escapeName(String name) {
    StringBuilder b = new StringBuilder(name.length() + 6);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      switch (c) {
        case '%' -> b.append("%25");
        case '$' -> b.append("%24");
        case '.' -> b.append("%2E");
        case 0 -> b.append("%00");
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}
