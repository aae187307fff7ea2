package io.objectmeta.api.spi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.objectmeta.api.Capability;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.InvalidPartOrderException;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.error.NotImplementedException;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbagePage;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.listing.BucketPage;
import io.objectmeta.api.listing.ContinuationToken;
import io.objectmeta.api.listing.Cursor;
import io.objectmeta.api.listing.Cursors;
import io.objectmeta.api.listing.LifecyclePage;
import io.objectmeta.api.listing.LifecycleRequest;
import io.objectmeta.api.listing.ListBucketsRequest;
import io.objectmeta.api.listing.ListObjectsRequest;
import io.objectmeta.api.listing.ListObjectsResult;
import io.objectmeta.api.listing.ListObjectsV2Request;
import io.objectmeta.api.listing.ListObjectsV2Result;
import io.objectmeta.api.listing.ListPartsRequest;
import io.objectmeta.api.listing.ListPartsResult;
import io.objectmeta.api.listing.ListUploadsRequest;
import io.objectmeta.api.listing.ListUploadsResult;
import io.objectmeta.api.listing.ListVersionsRequest;
import io.objectmeta.api.listing.ListVersionsResult;
import io.objectmeta.api.listing.Listings;
import io.objectmeta.api.model.BatchEntry;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.CompletedPart;
import io.objectmeta.api.model.DeleteResult;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.NonCurrentVersion;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectMetadataUpdate;
import io.objectmeta.api.model.ObjectRef;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.WriteCondition;
import io.objectmeta.api.validation.Validation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The semantic operations of {@link MetadataStore}, written once: every input validated before a
 * backend sees it, listings run by the shared engine over the backend's scans, batch calls as
 * sequences of single calls, capabilities enforced. A backend extends this and supplies storage
 * primitives (the {@code do*} methods and three scans), as JuiceFS's base does for its engines.
 * A backend may override a public method for a native fast path; the conformance suite holds it
 * to the same output.
 */
public abstract class AbstractMetadataStore implements MetadataStore {

  // ------------------------------------------------------------------------ backend primitives

  /** Creates a bucket (name free) or throws BucketAlreadyExists, atomically. */
  protected abstract Bucket doCreateBucket(String name, String owner, ObjectNode attributes);

  /** The live bucket, or throws NoSuchBucket. */
  protected abstract Bucket doGetBucket(String name);

  /** Applies {@link io.objectmeta.api.versioning.BucketRules#apply} atomically. */
  protected abstract Bucket doUpdateBucket(String name, BucketUpdate update);

  /**
   * Deletes the empty bucket atomically with respect to writes into it: a write that committed
   * first makes it BucketNotEmpty, a write that comes after fails NoSuchBucket (never lands in the
   * deleted incarnation unseen). Its uploads' parts and a BUCKET record join the GC queue in the
   * same step; the name is free at once.
   */
  protected abstract void doDeleteBucket(String name);

  /** Up to {@code limit} live buckets with names after {@code after} (null: from the start). */
  protected abstract List<Bucket> doListBuckets(String owner, String after, int limit);

  /**
   * Applies {@link io.objectmeta.api.versioning.KeyWrites#put} to the key's history in one
   * atomic step (the condition checked in it), with the change's GC records and usage delta; a
   * reader sees the history before or after, never between.
   */
  protected abstract ObjectVersion doPutObject(String bucket, String key, ObjectMetadata metadata,
      WriteCondition condition);

  /**
   * {@link io.objectmeta.api.versioning.KeyWrites#current} of the key's history as of one
   * instant: the latest version if it is an object, else NoSuchKey (carrying a marker's id).
   */
  protected abstract ObjectVersion doGetObject(String bucket, String key);

  /**
   * {@link io.objectmeta.api.versioning.KeyWrites#version} of the key's history: the named version
   * (id checked by the caller's validation, "null" included) with its latest flag.
   */
  protected abstract ObjectVersion doGetObjectVersion(String bucket, String key, String versionId);

  /** Applies {@link io.objectmeta.api.versioning.KeyWrites#update} atomically, as a put. */
  protected abstract ObjectVersion doUpdateObjectMetadata(String bucket, String key,
      String versionId, ObjectMetadataUpdate update);

  /**
   * Applies {@link io.objectmeta.api.versioning.KeyWrites#delete} in the bucket's versioning state
   * atomically, as a put; answers {@link io.objectmeta.api.versioning.KeyChange#deleteResult()}.
   */
  protected abstract DeleteResult doDeleteObject(String bucket, String key);

  /**
   * Applies {@link io.objectmeta.api.versioning.KeyWrites#deleteVersion} atomically, as a put;
   * answers {@link io.objectmeta.api.versioning.KeyChange#versionDeleteResult()}.
   */
  protected abstract DeleteResult doDeleteObjectVersion(String bucket, String key, String versionId);

  /**
   * Records a new upload with a fresh, oldest-first ordered id, counting
   * {@link io.objectmeta.api.versioning.MultipartRules#initiate()} in the bucket's usage in the
   * same step; NoSuchBucket if the bucket is gone.
   */
  protected abstract MultipartUpload doInitiateMultipartUpload(String bucket, String key,
      ObjectMetadata metadata);

  /**
   * Stores the part (last-modified set now) and applies
   * {@link io.objectmeta.api.versioning.MultipartRules#putPart} (usage, the replaced part freed)
   * atomically; NoSuchUpload if the upload is gone or being completed.
   */
  protected abstract Part doPutPart(String bucket, String key, String uploadId, Part part);

  /**
   * Writes {@link io.objectmeta.api.versioning.MultipartRules#complete} as a put and removes the
   * upload with {@link io.objectmeta.api.versioning.MultipartRules#completion} (usage, parts left
   * out freed), all or nothing: a refused completion (InvalidPart…) leaves the upload as it was.
   * While it runs, the upload is gone for parts and aborts.
   */
  protected abstract ObjectVersion doCompleteMultipartUpload(String bucket, String key,
      String uploadId, List<CompletedPart> parts);

  /**
   * Removes the upload with {@link io.objectmeta.api.versioning.MultipartRules#abort} (usage,
   * every part freed) atomically; NoSuchUpload if it is gone.
   */
  protected abstract void doAbortMultipartUpload(String bucket, String key, String uploadId);

  /** Up to {@code limit} parts numbered above {@code after}; NoSuchUpload if there is none. */
  protected abstract List<Part> doListParts(String bucket, String key, String uploadId, int after,
      int limit);

  /** Current objects (latest versions that are not delete markers), one per key, key order. */
  protected abstract Cursor<ObjectVersion> currentObjects(Bucket bucket);

  /** All versions and delete markers: keys in order, each key's newest first. */
  protected abstract Cursor<ObjectVersion> versions(Bucket bucket);

  /** In-progress uploads: keys in order, each key's oldest first. */
  protected abstract Cursor<MultipartUpload> uploads(Bucket bucket);

  /** The bucket's usage counters as kept by its writes (never a recount); NoSuchBucket if none. */
  protected abstract Usage doBucketUsage(String bucket);

  /**
   * Leases up to {@code max} records older than the grace period, oldest first, that no live
   * lease holds, to one new claim id: two claims never hold a record at once. Arguments checked.
   */
  protected abstract GarbageClaim doClaimGarbage(int max, Duration gracePeriod, Duration lease);

  /** Removes the records this claim still holds (lease live); returns how many. */
  protected abstract int doAcknowledgeGarbage(String claimId, Collection<String> recordIds);

  /** Ends this claim's lease on the records it still holds, so they can be claimed again. */
  protected abstract int doReleaseGarbage(String claimId, Collection<String> recordIds);

  /** {@link #renewGarbage}, arguments checked; {@code lease} is positive and at most a day. */
  protected abstract int doRenewGarbage(String claimId, Collection<String> recordIds, Duration lease);

  /**
   * Creates the bucket as given, or applies {@link io.objectmeta.api.versioning.BucketRules#restore}
   * to the live bucket of its name, atomically; BucketAlreadyExists if another live bucket has
   * the id.
   */
  protected abstract Bucket doRestoreBucket(Bucket bucket);

  /**
   * Applies {@link io.objectmeta.api.versioning.KeyWrites#restore} to the key's whole history
   * atomically, with its usage delta (versions validated, newest first).
   */
  protected abstract void doRestoreKey(String bucket, String key, List<ObjectVersion> versions);

  /** Replaces the upload of that id (or adds it) with its parts and usage, atomically. */
  protected abstract void doRestoreUpload(String bucket, MultipartUpload upload, List<Part> parts);

  /** Up to {@code limit} records after the cursor (null: from the start), queue order. */
  protected abstract GarbagePage doListGarbage(String after, int limit);

  /** Adds the records whose origin (given id) is not queued yet; returns how many. */
  protected abstract int doRestoreGarbage(List<GarbageRecord> records);

  // ------------------------------------------------------------------------------------ buckets

  @Override
  public final Bucket createBucket(String name, String owner, ObjectNode attributes) {
    Validation.bucketName(name);
    Validation.owner("owner", owner);
    Validation.json("attributes", attributes);
    return guard(() -> doCreateBucket(name, owner, attributes));
  }

  @Override
  public final Bucket getBucket(String name) {
    Validation.bucketName(name);
    return guard(() -> doGetBucket(name));
  }

  @Override
  public final Bucket updateBucket(String name, BucketUpdate update) {
    Validation.bucketName(name);
    Validation.notNull("update", update);
    if (update.owner() != null) {
      Validation.owner("update.owner", update.owner());
    }
    Validation.json("update.attributes", update.attributes());
    return guard(() -> doUpdateBucket(name, update));
  }

  @Override
  public final void deleteBucket(String name) {
    Validation.bucketName(name);
    guardRun(() -> doDeleteBucket(name));
  }

  @Override
  public BucketPage listBuckets(ListBucketsRequest r) {
    Validation.notNull("request", r);
    if (r.owner() != null) {
      Validation.owner("owner", r.owner());
    }
    Validation.maxKeys("maxBuckets", r.maxBuckets());
    if (r.maxBuckets() == 0) {
      return new BucketPage(List.of(), false, null);
    }
    List<Bucket> got = guard(() -> doListBuckets(r.owner(), r.marker(), r.maxBuckets() + 1));
    boolean truncated = got.size() > r.maxBuckets();
    List<Bucket> page = truncated ? got.subList(0, r.maxBuckets()) : got;
    return new BucketPage(List.copyOf(page), truncated,
        truncated ? page.get(page.size() - 1).name() : null);
  }

  // ------------------------------------------------------------------------------------ objects

  @Override
  public final ObjectVersion putObject(String bucket, String key, ObjectMetadata metadata,
      WriteCondition condition) {
    objectArgs(bucket, key);
    Validation.metadata(metadata);
    Validation.notNull("condition", condition);
    if (condition.ifMatchVersionId() != null) {
      Validation.versionId("ifMatchVersionId", condition.ifMatchVersionId());
    }
    int kinds = (condition.ifNoneMatch() ? 1 : 0) + (condition.ifMatchEtag() != null ? 1 : 0)
        + (condition.ifMatchVersionId() != null ? 1 : 0);
    if (kinds > 1) {
      throw new InvalidArgumentException("condition", "at most one of ifNoneMatch, ifMatchEtag,"
          + " ifMatchVersionId");
    }
    return guard(() -> doPutObject(bucket, key, metadata, condition));
  }

  @Override
  public final ObjectVersion getObject(String bucket, String key) {
    objectArgs(bucket, key);
    return guard(() -> doGetObject(bucket, key));
  }

  @Override
  public final ObjectVersion getObjectVersion(String bucket, String key, String versionId) {
    objectArgs(bucket, key);
    Validation.versionId("versionId", versionId);
    return guard(() -> doGetObjectVersion(bucket, key, versionId));
  }

  @Override
  public final ObjectVersion updateObjectMetadata(String bucket, String key, String versionId,
      ObjectMetadataUpdate update) {
    objectArgs(bucket, key);
    if (versionId != null) {
      Validation.versionId("versionId", versionId);
    }
    Validation.metadataUpdate(update);
    return guard(() -> doUpdateObjectMetadata(bucket, key, versionId, update));
  }

  @Override
  public final DeleteResult deleteObject(String bucket, String key) {
    objectArgs(bucket, key);
    return guard(() -> doDeleteObject(bucket, key));
  }

  @Override
  public final DeleteResult deleteObjectVersion(String bucket, String key, String versionId) {
    objectArgs(bucket, key);
    Validation.versionId("versionId", versionId);
    return guard(() -> doDeleteObjectVersion(bucket, key, versionId));
  }

  @Override
  public List<BatchEntry<ObjectVersion>> getObjects(String bucket, List<ObjectRef> refs) {
    return batch(bucket, refs, ref -> ref.versionId() == null
        ? doGetObject(bucket, ref.key()) : doGetObjectVersion(bucket, ref.key(), ref.versionId()));
  }

  @Override
  public List<BatchEntry<DeleteResult>> deleteObjects(String bucket, List<ObjectRef> refs) {
    return batch(bucket, refs, ref -> ref.versionId() == null
        ? doDeleteObject(bucket, ref.key()) : doDeleteObjectVersion(bucket, ref.key(), ref.versionId()));
  }

  private <T> List<BatchEntry<T>> batch(String bucket, List<ObjectRef> refs,
      Function<ObjectRef, T> op) {
    Validation.bucketName(bucket);
    Validation.batchSize("refs", refs);
    for (int i = 0; i < refs.size(); i++) {
      ObjectRef ref = Validation.notNull("refs[" + i + "]", refs.get(i));
      Validation.key("refs[" + i + "].key", ref.key());
      if (ref.versionId() != null) {
        Validation.versionId("refs[" + i + "].versionId", ref.versionId());
      }
    }
    guardRun(() -> doGetBucket(bucket));
    List<BatchEntry<T>> out = new ArrayList<>(refs.size());
    for (ObjectRef ref : refs) {
      try {
        out.add(BatchEntry.success(ref, guard(() -> op.apply(ref))));
      } catch (MetadataException e) {
        out.add(BatchEntry.failure(ref, e));
      }
    }
    return out;
  }

  // ---------------------------------------------------------------------------------- multipart

  @Override
  public final MultipartUpload initiateMultipartUpload(String bucket, String key,
      ObjectMetadata metadata) {
    require(Capability.MULTIPART_UPLOADS);
    objectArgs(bucket, key);
    Validation.metadata(metadata);
    return guard(() -> doInitiateMultipartUpload(bucket, key, metadata));
  }

  @Override
  public final Part putPart(String bucket, String key, String uploadId, Part part) {
    require(Capability.MULTIPART_UPLOADS);
    objectArgs(bucket, key);
    Validation.uploadId(uploadId);
    Validation.part("part", part);
    return guard(() -> doPutPart(bucket, key, uploadId, part));
  }

  @Override
  public final ObjectVersion completeMultipartUpload(String bucket, String key, String uploadId,
      List<CompletedPart> parts) {
    require(Capability.MULTIPART_UPLOADS);
    objectArgs(bucket, key);
    Validation.uploadId(uploadId);
    if (parts == null || parts.isEmpty() || parts.size() > Validation.MAX_PART_NUMBER) {
      throw new InvalidArgumentException("parts", "must name 1 to " + Validation.MAX_PART_NUMBER
          + " parts");
    }
    int last = 0;
    for (int i = 0; i < parts.size(); i++) {
      CompletedPart c = Validation.notNull("parts[" + i + "]", parts.get(i));
      Validation.partNumber("parts[" + i + "].partNumber", c.partNumber());
      Validation.notNull("parts[" + i + "].etag", c.etag());
      Validation.headerValue("parts[" + i + "].etag", c.etag());
      if (c.partNumber() <= last) {
        throw new InvalidPartOrderException("parts: part numbers must be strictly ascending; "
            + c.partNumber() + " follows " + last);
      }
      last = c.partNumber();
    }
    return guard(() -> doCompleteMultipartUpload(bucket, key, uploadId, List.copyOf(parts)));
  }

  @Override
  public final void abortMultipartUpload(String bucket, String key, String uploadId) {
    require(Capability.MULTIPART_UPLOADS);
    objectArgs(bucket, key);
    Validation.uploadId(uploadId);
    guardRun(() -> doAbortMultipartUpload(bucket, key, uploadId));
  }

  @Override
  public ListPartsResult listParts(ListPartsRequest r) {
    require(Capability.MULTIPART_UPLOADS);
    Validation.notNull("request", r);
    objectArgs(r.bucket(), r.key());
    Validation.uploadId(r.uploadId());
    if (r.partNumberMarker() < 0 || r.partNumberMarker() > Validation.MAX_PART_NUMBER) {
      throw new InvalidArgumentException("partNumberMarker", "must be 0 to "
          + Validation.MAX_PART_NUMBER + ", got " + r.partNumberMarker());
    }
    Validation.maxKeys("maxParts", r.maxParts());
    if (r.maxParts() == 0) {
      // NoSuchUpload still
      guardRun(() -> doListParts(r.bucket(), r.key(), r.uploadId(), r.partNumberMarker(), 1));
      return new ListPartsResult(List.of(), false, 0);
    }
    List<Part> got = guard(() -> doListParts(r.bucket(), r.key(), r.uploadId(),
        r.partNumberMarker(), r.maxParts() + 1));
    boolean truncated = got.size() > r.maxParts();
    List<Part> page = truncated ? got.subList(0, r.maxParts()) : got;
    return new ListPartsResult(List.copyOf(page), truncated,
        truncated ? page.get(page.size() - 1).partNumber() : 0);
  }

  @Override
  public ListUploadsResult listMultipartUploads(ListUploadsRequest r) {
    require(Capability.MULTIPART_UPLOADS);
    Validation.notNull("request", r);
    listingArgs(r.bucket(), r.prefix(), r.delimiter(), "keyMarker", r.keyMarker(), r.maxUploads(),
        "maxUploads");
    Bucket b = guard(() -> doGetBucket(r.bucket()));
    return guard(() -> {
      try (Cursor<MultipartUpload> c = uploads(b)) {
        return Listings.uploads(c, r);
      }
    });
  }

  // ------------------------------------------------------------------------------------ faults

  /**
   * The typed error for a failure of the backend's database client that reached this class
   * untyped (a driver's timeout or lost connection thrown from deep inside a call), or null when
   * {@code e} is no such failure (a bug: it is thrown as it is). Every call of the contract goes
   * through here, so no driver exception escapes to callers that only know the contract's errors.
   */
  protected MetadataException fault(RuntimeException e) {
    return null;
  }

  private <T> T guard(java.util.function.Supplier<T> call) {
    try {
      return call.get();
    } catch (MetadataException e) {
      throw e;
    } catch (RuntimeException e) {
      MetadataException typed = fault(e);
      if (typed == null) {
        throw e;
      }
      throw typed;
    }
  }

  private void guardRun(Runnable call) {
    guard(() -> {
      call.run();
      return null;
    });
  }

  // ----------------------------------------------------------------------------------- listings

  @Override
  public ListObjectsResult listObjects(ListObjectsRequest r) {
    Validation.notNull("request", r);
    listingArgs(r.bucket(), r.prefix(), r.delimiter(), "marker", r.marker(), r.maxKeys(), "maxKeys");
    Bucket b = guard(() -> doGetBucket(r.bucket()));
    return guard(() -> {
      try (Cursor<ObjectVersion> c = current(b, r.asOf())) {
        return Listings.v1(c, r);
      }
    });
  }

  @Override
  public ListObjectsV2Result listObjectsV2(ListObjectsV2Request r) {
    Validation.notNull("request", r);
    listingArgs(r.bucket(), r.prefix(), r.delimiter(), "startAfter", r.startAfter(), r.maxKeys(),
        "maxKeys");
    Bucket b = guard(() -> doGetBucket(r.bucket()));
    return guard(() -> {
      try (Cursor<ObjectVersion> c = current(b, r.asOf())) {
        return Listings.v2(c, r, continuationTokens(), b.id());
      }
    });
  }

  @Override
  public ListVersionsResult listObjectVersions(ListVersionsRequest r) {
    Validation.notNull("request", r);
    listingArgs(r.bucket(), r.prefix(), r.delimiter(), "keyMarker", r.keyMarker(), r.maxKeys(),
        "maxKeys");
    Bucket b = guard(() -> doGetBucket(r.bucket()));
    return guard(() -> {
      try (Cursor<ObjectVersion> c = versions(b)) {
        return Listings.versions(c, r);
      }
    });
  }

  @Override
  public LifecyclePage<ObjectVersion> listCurrentOlderThan(LifecycleRequest r) {
    Bucket b = lifecycleArgs(r);
    return guard(() -> {
      try (Cursor<ObjectVersion> c = currentObjects(b)) {
        return Listings.currentOlderThan(c, r);
      }
    });
  }

  @Override
  public LifecyclePage<NonCurrentVersion> listNonCurrentVersions(LifecycleRequest r) {
    Bucket b = lifecycleArgs(r);
    return guard(() -> {
      try (Cursor<ObjectVersion> c = versions(b)) {
        return Listings.nonCurrent(c, r);
      }
    });
  }

  @Override
  public LifecyclePage<ObjectVersion> listOrphanDeleteMarkers(LifecycleRequest r) {
    Bucket b = lifecycleArgs(r);
    return guard(() -> {
      try (Cursor<ObjectVersion> c = versions(b)) {
        return Listings.orphanDeleteMarkers(c, r);
      }
    });
  }

  private volatile ContinuationToken tokens;

  /** This store's continuation tokens, keyed by its UUID (read once: it never changes). */
  private ContinuationToken continuationTokens() {
    ContinuationToken t = tokens;
    if (t == null) {
      t = ContinuationToken.forStore(getUUID());
      tokens = t;
    }
    return t;
  }

  private Cursor<ObjectVersion> current(Bucket b, Instant asOf) {
    if (asOf == null) {
      return currentObjects(b);
    }
    require(Capability.POINT_IN_TIME_LISTING);
    if (!b.versioning().versioned()) {
      throw new InvalidArgumentException("asOf", "bucket \"" + b.name()
          + "\" is unversioned: it keeps no history to list as of a time");
    }
    return Cursors.asOf(versions(b), asOf);
  }

  private Bucket lifecycleArgs(LifecycleRequest r) {
    require(Capability.LIFECYCLE_LISTINGS);
    Validation.notNull("request", r);
    listingArgs(r.bucket(), r.prefix(), null, "keyMarker", r.keyMarker(), r.maxKeys(), "maxKeys");
    return guard(() -> doGetBucket(r.bucket()));
  }

  // --------------------------------------------------------------------------------- management

  @Override
  public final Usage bucketUsage(String bucket) {
    Validation.bucketName(bucket);
    return guard(() -> doBucketUsage(bucket));
  }

  // ----------------------------------------------------------------------------------- GC queue

  @Override
  public final GarbageClaim claimGarbage(int max, Duration gracePeriod, Duration lease) {
    Validation.claim(max, gracePeriod, lease);
    return guard(() -> doClaimGarbage(max, gracePeriod, lease));
  }

  @Override
  public final int acknowledgeGarbage(String claimId, Collection<String> recordIds) {
    Validation.notNull("claimId", claimId);
    Validation.notNull("recordIds", recordIds);
    return recordIds.isEmpty() ? 0 : guard(() -> doAcknowledgeGarbage(claimId, recordIds));
  }

  @Override
  public final int releaseGarbage(String claimId, Collection<String> recordIds) {
    Validation.notNull("claimId", claimId);
    Validation.notNull("recordIds", recordIds);
    return recordIds.isEmpty() ? 0 : guard(() -> doReleaseGarbage(claimId, recordIds));
  }

  @Override
  public final int renewGarbage(String claimId, Collection<String> recordIds, Duration lease) {
    Validation.notNull("claimId", claimId);
    Validation.notNull("recordIds", recordIds);
    Validation.lease("lease", lease);
    return recordIds.isEmpty() ? 0 : guard(() -> doRenewGarbage(claimId, recordIds, lease));
  }

  // ------------------------------------------------------------------------------------ restore

  @Override
  public final Bucket restoreBucket(Bucket bucket) {
    Validation.restoredBucket(bucket);
    return guard(() -> doRestoreBucket(bucket));
  }

  @Override
  public final void restoreKey(String bucket, String key, List<ObjectVersion> versions) {
    objectArgs(bucket, key);
    Validation.restoredVersions(key, versions);
    guardRun(() -> doRestoreKey(bucket, key, List.copyOf(versions)));
  }

  @Override
  public final void restoreUpload(String bucket, MultipartUpload upload, List<Part> parts) {
    require(Capability.MULTIPART_UPLOADS);
    Validation.bucketName(bucket);
    Validation.restoredUpload(upload, parts);
    guardRun(() -> doRestoreUpload(bucket, upload, List.copyOf(parts)));
  }

  @Override
  public final GarbagePage listGarbage(String after, int limit) {
    Validation.garbageListing(after, limit);
    return guard(() -> doListGarbage(after, limit));
  }

  @Override
  public final int restoreGarbage(List<GarbageRecord> records) {
    Validation.garbageRecords(records);
    return guard(() -> doRestoreGarbage(List.copyOf(records)));
  }

  // ------------------------------------------------------------------------------------ helpers

  /** Every capability; a backend that lacks one overrides this (and its fixture says why). */
  @Override
  public Set<Capability> capabilities() {
    return java.util.EnumSet.allOf(Capability.class);
  }

  /** Throws NotImplemented unless the backend declares the capability. */
  protected final void require(Capability c) {
    if (!capabilities().contains(c)) {
      throw new NotImplementedException(c + ": not supported by " + getClass().getSimpleName());
    }
  }

  private static void objectArgs(String bucket, String key) {
    Validation.bucketName(bucket);
    Validation.key(key);
  }

  private static void listingArgs(String bucket, String prefix, String delimiter,
      String markerField, String marker, int max, String maxField) {
    Validation.bucketName(bucket);
    Validation.optionalKeyLike("prefix", prefix);
    Validation.optionalKeyLike("delimiter", delimiter);
    Validation.optionalKeyLike(markerField, marker);
    Validation.maxKeys(maxField, max);
  }
}
