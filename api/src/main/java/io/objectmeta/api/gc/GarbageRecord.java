package io.objectmeta.api.gc;

import io.objectmeta.api.model.DataLocation;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A record in the GC queue: something whose data may now be freed.
 *
 * @param id the record id, unique in the store
 * @param kind what left
 * @param bucket the bucket name
 * @param bucketId the bucket incarnation id
 * @param key the object key (null for a bucket)
 * @param versionId the version id of a removed version, or the upload id of a part (null for a
 *     bucket)
 * @param partNumber the part number (0 unless a part)
 * @param size bytes of data to free
 * @param dataLocations the data to free
 * @param deletedAt when it left (queue order, grace period)
 */
public record GarbageRecord(String id, Kind kind, String bucket, String bucketId, String key,
    String versionId, int partNumber, long size, List<DataLocation> dataLocations,
    Instant deletedAt) {

  /** What kind of thing left. */
  public enum Kind {
    /** An object version was replaced or removed. */
    OBJECT_VERSION,
    /** A part was replaced, aborted, or left out of a completion. */
    PART,
    /** A bucket incarnation was deleted. */
    BUCKET
  }

  public GarbageRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(deletedAt, "deletedAt");
    dataLocations = dataLocations == null ? List.of() : List.copyOf(dataLocations);
  }

  /** The record of an object version whose data left with a key change. */
  public static GarbageRecord ofVersion(String id, io.objectmeta.api.model.Bucket bucket,
      io.objectmeta.api.model.ObjectVersion v, Instant at) {
    return new GarbageRecord(id, Kind.OBJECT_VERSION, bucket.name(), bucket.id(), v.key(),
        v.versionId(), 0, v.size(), v.metadata().dataLocations(), at);
  }

  /** The record of a part replaced, aborted or left out of a completion. */
  public static GarbageRecord ofPart(String id, io.objectmeta.api.model.Bucket bucket,
      io.objectmeta.api.model.MultipartUpload upload, io.objectmeta.api.model.Part p, Instant at) {
    return new GarbageRecord(id, Kind.PART, bucket.name(), bucket.id(), upload.key(),
        upload.uploadId(), p.partNumber(), p.size(), p.dataLocations(), at);
  }

  /** The record of a deleted bucket incarnation. */
  public static GarbageRecord ofBucket(String id, String bucket, String bucketId, Instant at) {
    return new GarbageRecord(id, Kind.BUCKET, bucket, bucketId, null, null, 0, 0, List.of(), at);
  }

  /** This record under another id and time (a backend's queue order). */
  public GarbageRecord as(String newId, Instant at) {
    return new GarbageRecord(newId, kind, bucket, bucketId, key, versionId, partNumber, size,
        dataLocations, at);
  }
}
