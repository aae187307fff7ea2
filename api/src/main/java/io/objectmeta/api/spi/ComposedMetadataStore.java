package io.objectmeta.api.spi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbagePage;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.gc.GcQueueStats;
import io.objectmeta.api.listing.Cursor;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.CompletedPart;
import io.objectmeta.api.model.DeleteResult;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectMetadataUpdate;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.model.WriteCondition;
import java.time.Duration;
import java.util.Collection;
import java.util.List;

/**
 * A store made of one part per concern, as Oak splits a document store: the {@code do*}
 * primitives of {@link AbstractMetadataStore}, grouped by what they touch, each group implemented
 * by a class of the backend's own ({@link Buckets}, {@link Keys}, {@link Uploads}, {@link Scans},
 * {@link GcQueue}); this class hands each primitive to its part, so that no backend writes that
 * dispatch again. Each primitive's contract is the one {@link AbstractMetadataStore} states.
 */
public abstract class ComposedMetadataStore extends AbstractMetadataStore {

  /** Buckets: create, read, change, delete, list, restore. */
  public interface Buckets {
    Bucket doCreateBucket(String name, String owner, ObjectNode attributes);

    Bucket doGetBucket(String name);

    Bucket doUpdateBucket(String name, BucketUpdate update);

    void doDeleteBucket(String name);

    List<Bucket> doListBuckets(String owner, String after, int limit);

    Bucket doRestoreBucket(Bucket bucket);
  }

  /** Keys: every write and read of one key's history. */
  public interface Keys {
    ObjectVersion doPutObject(String bucket, String key, ObjectMetadata metadata,
        WriteCondition condition);

    ObjectVersion doGetObject(String bucket, String key);

    ObjectVersion doGetObjectVersion(String bucket, String key, String versionId);

    ObjectVersion doUpdateObjectMetadata(String bucket, String key, String versionId,
        ObjectMetadataUpdate update);

    DeleteResult doDeleteObject(String bucket, String key);

    DeleteResult doDeleteObjectVersion(String bucket, String key, String versionId);

    void doRestoreKey(String bucket, String key, List<ObjectVersion> versions);
  }

  /** Multipart uploads. */
  public interface Uploads {
    MultipartUpload doInitiateMultipartUpload(String bucket, String key, ObjectMetadata metadata);

    Part doPutPart(String bucket, String key, String uploadId, Part part);

    ObjectVersion doCompleteMultipartUpload(String bucket, String key, String uploadId,
        List<CompletedPart> parts);

    void doAbortMultipartUpload(String bucket, String key, String uploadId);

    List<Part> doListParts(String bucket, String key, String uploadId, int after, int limit);

    void doRestoreUpload(String bucket, MultipartUpload upload, List<Part> parts);
  }

  /** The three scans the shared listing engine pages through. */
  public interface Scans {
    Cursor<ObjectVersion> currentObjects(Bucket bucket);

    Cursor<ObjectVersion> versions(Bucket bucket);

    Cursor<MultipartUpload> uploads(Bucket bucket);
  }

  /** The GC queue. */
  public interface GcQueue {
    GarbageClaim doClaimGarbage(int max, Duration gracePeriod, Duration lease);

    int doAcknowledgeGarbage(String claimId, Collection<String> recordIds);

    int doReleaseGarbage(String claimId, Collection<String> recordIds);

    int doRenewGarbage(String claimId, Collection<String> recordIds, Duration lease);

    GcQueueStats gcQueueStats();

    GarbagePage doListGarbage(String after, int limit);

    int doRestoreGarbage(List<GarbageRecord> records);
  }

  private Buckets buckets;
  private Keys keys;
  private Uploads multipart;
  private Scans scans;
  private GcQueue gcQueue;

  /**
   * Gives the store its parts; a backend's constructor calls it first (the parts may hold the
   * store, so they cannot be passed to the constructor of this class).
   */
  protected final void parts(Buckets buckets, Keys keys, Uploads multipart, Scans scans,
      GcQueue gcQueue) {
    this.buckets = java.util.Objects.requireNonNull(buckets, "buckets");
    this.keys = java.util.Objects.requireNonNull(keys, "keys");
    this.multipart = java.util.Objects.requireNonNull(multipart, "multipart");
    this.scans = java.util.Objects.requireNonNull(scans, "scans");
    this.gcQueue = java.util.Objects.requireNonNull(gcQueue, "gcQueue");
  }

  @Override
  protected Bucket doCreateBucket(String name, String owner, ObjectNode attributes) {
    return buckets.doCreateBucket(name, owner, attributes);
  }

  @Override
  protected Bucket doGetBucket(String name) {
    return buckets.doGetBucket(name);
  }

  @Override
  protected Bucket doUpdateBucket(String name, BucketUpdate update) {
    return buckets.doUpdateBucket(name, update);
  }

  @Override
  protected void doDeleteBucket(String name) {
    buckets.doDeleteBucket(name);
  }

  @Override
  protected List<Bucket> doListBuckets(String owner, String after, int limit) {
    return buckets.doListBuckets(owner, after, limit);
  }

  @Override
  protected Bucket doRestoreBucket(Bucket bucket) {
    return buckets.doRestoreBucket(bucket);
  }

  @Override
  protected ObjectVersion doPutObject(String bucket, String key, ObjectMetadata metadata,
      WriteCondition condition) {
    return keys.doPutObject(bucket, key, metadata, condition);
  }

  @Override
  protected ObjectVersion doGetObject(String bucket, String key) {
    return keys.doGetObject(bucket, key);
  }

  @Override
  protected ObjectVersion doGetObjectVersion(String bucket, String key, String versionId) {
    return keys.doGetObjectVersion(bucket, key, versionId);
  }

  @Override
  protected ObjectVersion doUpdateObjectMetadata(String bucket, String key, String versionId,
      ObjectMetadataUpdate update) {
    return keys.doUpdateObjectMetadata(bucket, key, versionId, update);
  }

  @Override
  protected DeleteResult doDeleteObject(String bucket, String key) {
    return keys.doDeleteObject(bucket, key);
  }

  @Override
  protected DeleteResult doDeleteObjectVersion(String bucket, String key, String versionId) {
    return keys.doDeleteObjectVersion(bucket, key, versionId);
  }

  @Override
  protected void doRestoreKey(String bucket, String key, List<ObjectVersion> versions) {
    keys.doRestoreKey(bucket, key, versions);
  }

  @Override
  protected MultipartUpload doInitiateMultipartUpload(String bucket, String key,
      ObjectMetadata metadata) {
    return multipart.doInitiateMultipartUpload(bucket, key, metadata);
  }

  @Override
  protected Part doPutPart(String bucket, String key, String uploadId, Part part) {
    return multipart.doPutPart(bucket, key, uploadId, part);
  }

  @Override
  protected ObjectVersion doCompleteMultipartUpload(String bucket, String key, String uploadId,
      List<CompletedPart> parts) {
    return multipart.doCompleteMultipartUpload(bucket, key, uploadId, parts);
  }

  @Override
  protected void doAbortMultipartUpload(String bucket, String key, String uploadId) {
    multipart.doAbortMultipartUpload(bucket, key, uploadId);
  }

  @Override
  protected List<Part> doListParts(String bucket, String key, String uploadId, int after,
      int limit) {
    return multipart.doListParts(bucket, key, uploadId, after, limit);
  }

  @Override
  protected void doRestoreUpload(String bucket, MultipartUpload upload, List<Part> parts) {
    multipart.doRestoreUpload(bucket, upload, parts);
  }

  @Override
  protected Cursor<ObjectVersion> currentObjects(Bucket bucket) {
    return scans.currentObjects(bucket);
  }

  @Override
  protected Cursor<ObjectVersion> versions(Bucket bucket) {
    return scans.versions(bucket);
  }

  @Override
  protected Cursor<MultipartUpload> uploads(Bucket bucket) {
    return scans.uploads(bucket);
  }

  @Override
  protected GarbageClaim doClaimGarbage(int max, Duration gracePeriod, Duration lease) {
    return gcQueue.doClaimGarbage(max, gracePeriod, lease);
  }

  @Override
  protected int doAcknowledgeGarbage(String claimId, Collection<String> recordIds) {
    return gcQueue.doAcknowledgeGarbage(claimId, recordIds);
  }

  @Override
  protected int doReleaseGarbage(String claimId, Collection<String> recordIds) {
    return gcQueue.doReleaseGarbage(claimId, recordIds);
  }

  @Override
  protected int doRenewGarbage(String claimId, Collection<String> recordIds, Duration lease) {
    return gcQueue.doRenewGarbage(claimId, recordIds, lease);
  }

  @Override
  public GcQueueStats gcQueueStats() {
    return gcQueue.gcQueueStats();
  }

  @Override
  protected GarbagePage doListGarbage(String after, int limit) {
    return gcQueue.doListGarbage(after, limit);
  }

  @Override
  protected int doRestoreGarbage(List<GarbageRecord> records) {
    return gcQueue.doRestoreGarbage(records);
  }
}
