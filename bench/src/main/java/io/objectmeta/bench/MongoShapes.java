package io.objectmeta.bench;

import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.version.VersionId;
import io.objectmeta.mongo.Docs;
import io.objectmeta.mongo.Ids;
import io.objectmeta.mongo.Intent;
import io.objectmeta.mongo.KeyFormat;
import java.time.Instant;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.conversions.Bson;

/**
 * The MongoDB backend's ids and documents for the raw baseline, through the backend's own
 * public codec ({@link Ids}, {@link Docs}, {@link Intent}), so the baseline stores byte for byte
 * the documents the backend stores. Used only while preparing a run (never timed). Keys must be
 * plain (the bench's are ASCII).
 */
final class MongoShapes {
  private MongoShapes() {}

  static final String METASTORE = "__metastore";
  static final String GC = "__gcqueue";
  static final String SHARED = "objects";
  static final int SHARDS = Ids.SHARDS;

  /** One bucket's namespace: its collection, id prefix (shared layout) and key format. */
  record Ns(String bucket, String bucketId, String collection, String prefix, boolean v1, Ids ids) {

    static Ns of(String bucket, String bucketId, boolean shared, boolean v1) {
      String prefix = shared ? bucketId : "";
      return new Ns(bucket, bucketId, shared ? SHARED : "objects." + bucketId, prefix, v1,
          new Ids(prefix, v1 ? KeyFormat.V1 : KeyFormat.V0));
    }

    String master(String key) {
      return ids.master(key);
    }

    String lock(String key) {
      return ids.lock(key);
    }

    String versionsOf(String key) {
      return ids.versionsOf(key);
    }

    String version(String key, String revision) {
      return ids.version(key, VersionId.decode(revision, "revision"));
    }

    String versionsEnd(String key) {
      return ids.versionsEnd(key);
    }

    String usage(int shard) {
      return ids.usage(shard);
    }
  }

  static int shardOf(String key) {
    return Ids.shardOf(key);
  }

  static String newTag() {
    return Intent.newTag();
  }

  static long nanos(Instant t) {
    return Docs.nanos(t);
  }

  static BsonDocument version(String id, boolean nullVersion, boolean marker, ObjectMetadata m) {
    return Docs.version(id, nullVersion, marker ? null : m);
  }

  static BsonDocument master(String id, String revision, boolean nullVersion, ObjectMetadata m) {
    return Docs.master(id, revision, nullVersion, m);
  }

  static BsonDocument placeholder(String id, String fence) {
    return Docs.placeholder(id, fence);
  }

  /** A GC record of an object version, as an overwrite or a delete by version id queues it. */
  static BsonDocument garbage(String id, String bucket, String bucketId, String key,
      String versionId, long size, List<DataLocation> locations, Instant deletedAt) {
    return Docs.garbage(new GarbageRecord(id, GarbageRecord.Kind.OBJECT_VERSION, bucket, bucketId,
        key, versionId, 0, size, locations, deletedAt));
  }

  /** Counter deltas in the backend's order: co, cb, no, nb, dm, up, pb (missing: 0). */
  static BsonDocument usageDelta(long... c) {
    long[] a = java.util.Arrays.copyOf(c, 7);
    return Docs.usageDelta(new Usage(a[0], a[1], a[2], a[3], a[4], a[5], a[6]));
  }

  static Bson replacement(BsonDocument doc) {
    return Intent.replacement(doc);
  }

  static BsonDocument putStep(BsonDocument doc) {
    return Intent.put(doc);
  }

  static BsonDocument delStep(String id) {
    return Intent.delete(id);
  }

  static BsonDocument phdStep(String id, String fence) {
    return Intent.placeholder(id, fence);
  }

  static BsonDocument fixStep(String id, String fence) {
    return Intent.repair(id, fence, null);
  }

  /** The intent as the lock document records it. */
  static BsonDocument intent(String tag, long atMs, int shard, List<BsonDocument> ops,
      List<BsonDocument> garbage, boolean drop, BsonDocument usage) {
    return new Intent(tag, atMs, usage, shard, ops, garbage, drop).toBson();
  }
}
