package io.objectmeta.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbagePage;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.gc.GcQueueStats;
import io.objectmeta.api.listing.BucketPage;
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
import io.objectmeta.api.model.StoreUsage;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.WriteCondition;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The metadata of an S3-style object store: buckets, object versions, delete markers, multipart
 * upload records, listings, usage, and the queue of records whose data may be freed (the GC queue).
 * Applications get one from {@link MetadataStores#open(String)}; every backend keeps this contract,
 * and the conformance suite checks each rule on each backend.
 *
 * <h2>Atomicity</h2>
 * Each call is atomic per key: a reader sees a key's state before or after a write, never between
 * (a backend whose write takes several steps repairs intermediate states before any reader can
 * observe them). Nothing is atomic across keys or buckets: a batch call is a sequence of
 * single-key calls, each with its own result. Bucket-level calls are atomic per bucket.
 *
 * <h2>Several stores on one database</h2>
 * Production runs many processes on one database, each with a store of its own. Their calls
 * behave as calls on one store would: a call that begins after another returned sees its effect,
 * whichever store made it, bucket state included. A put through one store after versioning was
 * enabled through another adds a version (the null version stays); after a bucket was deleted and
 * created again through another, it goes to the new bucket. A backend may offer a cache of bucket
 * state that relaxes this, off by default and named with its window in the backend's options
 * (Bigtable's {@code bucketCacheMs}) and declared by the store ({@link #bucketStateWindow()}):
 * with it on, a call may follow a bucket's state up to that old, never older. The conformance
 * suite checks this across two stores opened separately on one database, each store held to
 * the window it declares.
 *
 * <h2>Failures</h2>
 * Every failure is a {@link io.objectmeta.api.error.MetadataException} subtype carrying its S3
 * error code. Input is validated before anything reaches a database: a call rejected with
 * {@code InvalidArgument}, {@code InvalidBucketName} or {@code KeyTooLongError} has changed
 * nothing. So have {@code NoSuchBucket}, {@code NoSuchKey}, {@code NoSuchVersion},
 * {@code NoSuchUpload}, {@code PreconditionFailed}, {@code MethodNotAllowed},
 * {@code BucketAlreadyExists}, {@code BucketNotEmpty}, {@code InvalidPart} and
 * {@code InvalidPartOrder}: they are decided atomically with the write they refuse.
 * {@link io.objectmeta.api.error.ServiceUnavailableException} (retryable) means the outcome is
 * unknown: the write may or may not have taken effect, and the caller must read to find out or
 * repeat the call. Repeating a put makes a second version in a versioned bucket; every other
 * write is idempotent in its effect on what readers see. A write that failed this way never
 * leaves a half-written version visible, and never loses a GC record of data it removed.
 *
 * <h2>Keys and names</h2>
 * Keys are 1 to 1024 bytes of UTF-8 and may contain any character, NUL, {@code \x7f} and the
 * characters a backend uses as separators included. Keys are ordered by their UTF-8 bytes in
 * every listing and marker ({@link io.objectmeta.api.listing.KeyOrder}). Bucket names follow S3's
 * rules ({@link io.objectmeta.api.validation.Validation}). Version ids are opaque strings; the
 * null version's id is {@code "null"}. A bucket incarnation's id is a random UUID in canonical
 * lower-case text, whichever backend minted it (restores carry ids from store to store).
 *
 * <h2>Versioning states</h2>
 * <ul>
 *   <li><b>Unversioned</b> (never enabled): a key has at most one version, the null version. A put
 *       replaces it (the replaced version goes to the GC queue); a delete removes it (GC queue).
 *   <li><b>Enabled</b>: a put adds a new version, which becomes the latest; older versions stay.
 *       A delete without version id adds a delete marker as the latest version.
 *   <li><b>Suspended</b>: a put writes a new null version as the latest, replacing the key's
 *       previous null version wherever it stood (to the GC queue); other versions stay. A delete
 *       without version id writes a null delete marker the same way.
 * </ul>
 * In every state, a delete with a version id removes that version for good (to the GC queue), and
 * if it was the latest, the newest remaining version becomes the latest. The latest
 * version of a key is always its newest (by revision); when it is a delete marker the key has no
 * current object.
 *
 * <h2>The GC queue</h2>
 * Every record whose data may be freed is queued with the time it left: a version replaced or
 * removed (objects only; delete markers have no data), a part replaced, aborted or left out of a
 * completion, and a deleted bucket. It is queued atomically with the change that removed it.
 * Records are claimed in batches under a lease ({@link #claimGarbage}), then acknowledged
 * (removed for good) or released. Claims are exclusive between concurrent callers; a lease that
 * expires returns its records to the queue; a record is never lost and never acknowledged twice.
 *
 * <h2>Restores</h2>
 * A second group of writes copies a store into another, as a migration does: {@link #restoreBucket},
 * {@link #restoreKey}, {@link #restoreUpload} and {@link #restoreGarbage} write records as a source
 * store reports them (bucket ids, version ids, null-version flags, delete markers, metadata,
 * upload ids and times kept), where the other writes mint ids and take the store's clock.
 * Each is idempotent: repeating a call (a migration resumed after an interruption redoes its
 * last batch) leaves the store as one call did. They queue nothing for GC (a copy frees no data)
 * and keep usage counters exactly as if the records had been written by the other calls. Times
 * are kept at least to the millisecond (a backend may drop finer digits: PostgreSQL keeps
 * microseconds). {@link #listGarbage} reads the GC queue without claiming, to copy it.
 *
 * <h2>Retries</h2>
 * A backend whose writes are optimistic (MongoDB's and Bigtable's compare-and-set, through the
 * one write loop of {@link io.objectmeta.api.spi.IntentProtocol}) restarts a write that lost a
 * race with another writer of the same bucket, key or upload, through one
 * {@link io.objectmeta.api.spi.RetryPolicy}: at most {@code maxRetries} restarts (a store option,
 * default 100) with jittered backoff, then the retryable ServiceUnavailable saying how many
 * attempts it made over how long. The methods that may retry say so (every write: bucket
 * updates and deletes, object and upload writes, restores); reads, listings and the GC queue's
 * calls do not. A wait for another writer's unfinished write (its intent) is bounded by time
 * instead: twice the intent lease, after which that write is rolled forward or the same error is
 * thrown. No loop is unbounded. PostgreSQL writes take locks and do not restart; nothing retries
 * a call that failed for any other reason: the caller decides.
 *
 * <p>Implementations are thread-safe.
 */
public interface MetadataStore extends AutoCloseable {

  // ------------------------------------------------------------------------------------ buckets

  /**
   * Creates a bucket, unversioned, with a new incarnation id.
   *
   * @param name the bucket name
   * @param owner the owner's canonical id (1 to 256 characters)
   * @param attributes free-form JSON kept with the bucket (null for none)
   * @return the new bucket
   * @throws io.objectmeta.api.error.BucketAlreadyExistsException a live bucket has that name
   *     (whoever owns it; two concurrent creates: exactly one wins)
   */
  Bucket createBucket(String name, String owner, ObjectNode attributes);

  /**
   * The live bucket of that name.
   *
   * @throws io.objectmeta.api.error.NoSuchBucketException none exists
   */
  Bucket getBucket(String name);

  /**
   * Changes a bucket's versioning state, owner or attributes (each non-null field of the update).
   * Versioning may go UNVERSIONED → ENABLED ⇄ SUSPENDED, never back to UNVERSIONED; setting the
   * current state again is allowed and changes nothing. Existing versions are never touched.
   *
   * @return the updated bucket
   * @throws io.objectmeta.api.error.NoSuchBucketException no such bucket
   * @throws io.objectmeta.api.error.InvalidArgumentException UNVERSIONED asked of a bucket that
   *     has been versioned
   * @throws io.objectmeta.api.error.ServiceUnavailableException (retryable) an optimistic backend
   *     lost {@code maxRetries} races, or waited out another writer's intent, for this write (see
   *     Retries in the class comment)
   */
  Bucket updateBucket(String name, BucketUpdate update);

  /**
   * Deletes an empty bucket. A bucket holding any version or delete marker is not empty;
   * in-progress multipart uploads do not count and are aborted with it (their parts go to the GC
   * queue). A GC record of kind BUCKET is queued. The name is free at once; a bucket created
   * again under it is a new incarnation.
   *
   * @throws io.objectmeta.api.error.NoSuchBucketException no such bucket
   * @throws io.objectmeta.api.error.BucketNotEmptyException it holds versions or delete markers
   * @throws io.objectmeta.api.error.ServiceUnavailableException (retryable) an optimistic backend
   *     lost {@code maxRetries} races, or waited out another writer's intent, for this write (see
   *     Retries in the class comment)
   */
  void deleteBucket(String name);

  /** Live buckets in name order, all or one owner's, paged by name. */
  BucketPage listBuckets(ListBucketsRequest request);

  // ------------------------------------------------------------------------------------ objects

  /**
   * Writes an object version; see the class comment for what each versioning state does. The
   * version's last-modified is the time of the write (the store's clock). A condition is checked
   * atomically with the write; if it fails, nothing changes.
   *
   * @param metadata the object's metadata (validated: see Validation for the limits)
   * @param condition a precondition, or {@link WriteCondition#none()}
   * @return the version written, {@code latest} true
   * @throws io.objectmeta.api.error.NoSuchBucketException no such bucket
   * @throws io.objectmeta.api.error.PreconditionFailedException if-none-match and the key has a
   *     current object; if-match and the current object's etag or version id differs
   * @throws io.objectmeta.api.error.NoSuchKeyException if-match and the key has no current object
   * @throws io.objectmeta.api.error.ServiceUnavailableException (retryable) an optimistic backend
   *     lost {@code maxRetries} races, or waited out another writer's intent, for this write (see
   *     Retries in the class comment)
   */
  ObjectVersion putObject(String bucket, String key, ObjectMetadata metadata,
      WriteCondition condition);

  /** {@link #putObject(String, String, ObjectMetadata, WriteCondition)} without a condition. */
  default ObjectVersion putObject(String bucket, String key, ObjectMetadata metadata) {
    return putObject(bucket, key, metadata, WriteCondition.none());
  }

  /**
   * The current object of a key: its latest version.
   *
   * @throws io.objectmeta.api.error.NoSuchBucketException no such bucket
   * @throws io.objectmeta.api.error.NoSuchKeyException no version, or the latest is a delete
   *     marker (then the exception says so and carries the marker's version id)
   */
  ObjectVersion getObject(String bucket, String key);

  /**
   * One version of a key, by id ({@code "null"} for the null version); {@code latest} says whether
   * it is the newest.
   *
   * @throws io.objectmeta.api.error.NoSuchBucketException no such bucket
   * @throws io.objectmeta.api.error.NoSuchVersionException the key has no such version
   * @throws io.objectmeta.api.error.MethodNotAllowedException the version is a delete marker
   * @throws io.objectmeta.api.error.InvalidArgumentException the id is not one this library mints
   */
  ObjectVersion getObjectVersion(String bucket, String key, String versionId);

  /**
   * Changes an existing version's tags, ACL, replication status or attributes in place: no new
   * version, same version id and last-modified, no GC record. A null version id means the
   * current object.
   *
   * @return the updated version
   * @throws io.objectmeta.api.error.NoSuchKeyException no current object (versionId null)
   * @throws io.objectmeta.api.error.NoSuchVersionException no such version
   * @throws io.objectmeta.api.error.MethodNotAllowedException the version is a delete marker
   * @throws io.objectmeta.api.error.ServiceUnavailableException (retryable) an optimistic backend
   *     lost {@code maxRetries} races, or waited out another writer's intent, for this write (see
   *     Retries in the class comment)
   */
  ObjectVersion updateObjectMetadata(String bucket, String key, String versionId,
      ObjectMetadataUpdate update);

  /**
   * Deletes without a version id:
   * <ul>
   *   <li>unversioned: removes the object (GC record); result has a null version id;
   *   <li>enabled: adds a delete marker as the latest version, whether or not the key exists;
   *   <li>suspended: writes a null delete marker as the latest version, replacing the key's null
   *       version (GC record if it was an object).
   * </ul>
   *
   * @throws io.objectmeta.api.error.NoSuchBucketException no such bucket
   * @throws io.objectmeta.api.error.NoSuchKeyException unversioned bucket, key absent
   * @throws io.objectmeta.api.error.ServiceUnavailableException (retryable) an optimistic backend
   *     lost {@code maxRetries} races, or waited out another writer's intent, for this write (see
   *     Retries in the class comment)
   */
  DeleteResult deleteObject(String bucket, String key);

  /**
   * Removes one version for good, in any state (GC record if it was an object). If it was the
   * latest, the next newest version becomes the latest (removing a delete marker on top makes
   * the object reappear).
   *
   * @return the removed version's id, and whether it was a delete marker
   * @throws io.objectmeta.api.error.NoSuchBucketException no such bucket
   * @throws io.objectmeta.api.error.NoSuchVersionException the key has no such version
   * @throws io.objectmeta.api.error.ServiceUnavailableException (retryable) an optimistic backend
   *     lost {@code maxRetries} races, or waited out another writer's intent, for this write (see
   *     Retries in the class comment)
   */
  DeleteResult deleteObjectVersion(String bucket, String key, String versionId);

  /**
   * Reads up to 1000 keys or versions; each entry fails or succeeds on its own, with the error
   * {@link #getObject} or {@link #getObjectVersion} gives. Not a snapshot across keys.
   *
   * @throws io.objectmeta.api.error.NoSuchBucketException no such bucket (for the whole call)
   * @throws io.objectmeta.api.error.InvalidArgumentException more than 1000 refs, or a ref is
   *     invalid (nothing is read)
   */
  List<BatchEntry<ObjectVersion>> getObjects(String bucket, List<ObjectRef> refs);

  /**
   * Deletes up to 1000 keys or versions, one after the other, each with the outcome
   * {@link #deleteObject} or {@link #deleteObjectVersion} gives.
   *
   * @throws io.objectmeta.api.error.NoSuchBucketException no such bucket (nothing deleted)
   * @throws io.objectmeta.api.error.InvalidArgumentException more than 1000 refs, or a ref is
   *     invalid (nothing deleted)
   * @throws io.objectmeta.api.error.ServiceUnavailableException (retryable) an optimistic backend
   *     lost {@code maxRetries} races, or waited out another writer's intent, for this write (see
   *     Retries in the class comment)
   */
  List<BatchEntry<DeleteResult>> deleteObjects(String bucket, List<ObjectRef> refs);

  // ---------------------------------------------------------------------------------- multipart

  /**
   * Starts a multipart upload of {@code key}; its metadata becomes the object's at completion.
   *
   * @throws io.objectmeta.api.error.NoSuchBucketException no such bucket
   * @throws io.objectmeta.api.error.ServiceUnavailableException (retryable) an optimistic backend
   *     lost {@code maxRetries} races, or waited out another writer's intent, for this write (see
   *     Retries in the class comment)
   */
  MultipartUpload initiateMultipartUpload(String bucket, String key, ObjectMetadata metadata);

  /**
   * Records a part (1 to 10000). A part with the same number replaces the earlier one, which
   * goes to the GC queue.
   *
   * @return the part as stored (last-modified set)
   * @throws io.objectmeta.api.error.NoSuchUploadException no such upload for that key
   * @throws io.objectmeta.api.error.ServiceUnavailableException (retryable) an optimistic backend
   *     lost {@code maxRetries} races, or waited out another writer's intent, for this write (see
   *     Retries in the class comment)
   */
  Part putPart(String bucket, String key, String uploadId, Part part);

  /**
   * Completes an upload: the named parts, in ascending part-number order, with the etags the
   * client saw, become one object written as {@link #putObject} would (same versioning rules,
   * GC records for what it replaces). Its size is the sum of the parts, its data locations the
   * parts' in order (offsets shifted), its etag S3's multipart etag (hex MD5 of the parts' binary
   * MD5s, then "-" and the count). Parts not named go to the GC queue; the upload is gone.
   *
   * @throws io.objectmeta.api.error.NoSuchUploadException no such upload
   * @throws io.objectmeta.api.error.InvalidPartOrderException part numbers not strictly ascending
   * @throws io.objectmeta.api.error.InvalidPartException a part is missing or its etag differs
   * @throws io.objectmeta.api.error.ServiceUnavailableException (retryable) an optimistic backend
   *     lost {@code maxRetries} races, or waited out another writer's intent, for this write (see
   *     Retries in the class comment)
   */
  ObjectVersion completeMultipartUpload(String bucket, String key, String uploadId,
      List<CompletedPart> parts);

  /**
   * Aborts an upload: it is gone, its parts go to the GC queue.
   *
   * @throws io.objectmeta.api.error.NoSuchUploadException no such upload
   * @throws io.objectmeta.api.error.ServiceUnavailableException (retryable) an optimistic backend
   *     lost {@code maxRetries} races, or waited out another writer's intent, for this write (see
   *     Retries in the class comment)
   */
  void abortMultipartUpload(String bucket, String key, String uploadId);

  /**
   * The parts of an upload, by part number.
   *
   * @throws io.objectmeta.api.error.NoSuchUploadException no such upload
   */
  ListPartsResult listParts(ListPartsRequest request);

  /** In-progress uploads, S3's ListMultipartUploads. */
  ListUploadsResult listMultipartUploads(ListUploadsRequest request);

  // ----------------------------------------------------------------------------------- listings

  /**
   * ListObjects (V1): the current objects (latest versions that are not delete markers), with S3's
   * prefix, delimiter, marker and truncation rules ({@link io.objectmeta.api.listing.ListingEngine}).
   * A prefix whose every key is delete-marked is not a common prefix. With {@code asOf}: the
   * current objects as they were at that instant, reconstructed from the version history
   * (versions removed for good since then, and null versions replaced since then, are gone from
   * it); on an unversioned bucket {@code asOf} is InvalidArgument.
   *
   * @throws io.objectmeta.api.error.NoSuchBucketException no such bucket
   */
  ListObjectsResult listObjects(ListObjectsRequest request);

  /**
   * ListObjectsV2: as {@link #listObjects}, with start-after and continuation tokens. A
   * continuation token wins over start-after. Tokens are opaque, at most
   * {@link io.objectmeta.api.listing.ContinuationToken#MAX_LENGTH} characters, and valid on every
   * store of the same deployment (another process's too) for the listing that returned them only:
   * the same bucket incarnation, prefix, delimiter and as-of time (max-keys may change between
   * pages). Any other token, one from a bucket since deleted and created again, or one changed in
   * any byte, is an {@link io.objectmeta.api.error.InvalidArgumentException} naming
   * {@code continuationToken}.
   */
  ListObjectsV2Result listObjectsV2(ListObjectsV2Request request);

  /**
   * ListObjectVersions: every version and delete marker; the null version is listed with id
   * "null" in its place by revision.
   */
  ListVersionsResult listObjectVersions(ListVersionsRequest request);

  /** Lifecycle: current objects last modified before {@code request.before()}. */
  LifecyclePage<ObjectVersion> listCurrentOlderThan(LifecycleRequest request);

  /** Lifecycle: non-current versions (markers included) with the time they became non-current. */
  LifecyclePage<NonCurrentVersion> listNonCurrentVersions(LifecycleRequest request);

  /** Lifecycle: delete markers that are the only version of their key (expired object markers). */
  LifecyclePage<ObjectVersion> listOrphanDeleteMarkers(LifecycleRequest request);

  // --------------------------------------------------------------------------------- management

  /**
   * The store's UUID: created on first use, race-free (concurrent first calls agree), and the
   * same for the store's lifetime.
   */
  UUID getUUID();

  /**
   * A bucket's usage, kept incrementally.
   *
   * @throws io.objectmeta.api.error.NoSuchBucketException no such bucket
   */
  Usage bucketUsage(String bucket);

  /** Item counts of the whole store. */
  StoreUsage usage();

  // ----------------------------------------------------------------------------------- GC queue

  /**
   * Claims up to {@code max} GC records queued at least {@code gracePeriod} ago, oldest first,
   * that no live lease holds. They stay queued, hidden from other claims until the lease ends.
   *
   * @param max 1 to 10000
   * @param gracePeriod only records older than this (0 to {@code MAX_GRACE_PERIOD} of
   *     {@link io.objectmeta.api.validation.Validation}, 100 years)
   * @param lease how long the claim holds (more than 0, at most a day:
   *     {@link #renewGarbage} keeps a longer job's claim)
   * @return the claim (possibly with no records)
   */
  GarbageClaim claimGarbage(int max, Duration gracePeriod, Duration lease);

  /**
   * Extends the lease of the named records this claim still holds, to {@code lease} from now, so
   * that a sink slower than one lease keeps its batch: while a lease is live no other claim gets
   * its records. A record whose lease already ended is not renewed (another claim may have it,
   * or may get it, and acknowledging it is refused the same way): the caller has lost it and must
   * not count it as freed.
   *
   * @param lease as for {@link #claimGarbage}
   * @return how many of the named records are held, now until {@code lease} from now
   */
  int renewGarbage(String claimId, Collection<String> recordIds, Duration lease);

  /**
   * Removes claimed records for good. Only records still held by this claim (its lease not
   * expired, not re-claimed) are removed; others are ignored.
   *
   * @return how many records were removed
   */
  int acknowledgeGarbage(String claimId, Collection<String> recordIds);

  /** Returns claimed records to the queue at once (they keep their queue time). */
  int releaseGarbage(String claimId, Collection<String> recordIds);

  /** Queue length, oldest record, records under lease. */
  GcQueueStats gcQueueStats();

  // ------------------------------------------------------------------------------------ restore

  /**
   * Creates a bucket as another store reports it: its name, incarnation id, owner, creation time,
   * versioning state and attributes, where {@link #createBucket} mints an id and starts
   * unversioned. Idempotent: if a live bucket of that name has the same id, it is brought to the
   * given owner, versioning state and attributes by the rules of {@link #updateBucket} (its
   * creation time stays), so a resumed copy ends with the source's latest settings; its keys
   * are not touched.
   *
   * @return the bucket as stored
   * @throws io.objectmeta.api.error.BucketAlreadyExistsException a live bucket of that name has
   *     another id, or a live bucket of another name has this id
   * @throws io.objectmeta.api.error.InvalidArgumentException the id is not a canonical UUID; or
   *     UNVERSIONED given for an existing incarnation that has been versioned
   * @throws io.objectmeta.api.error.ServiceUnavailableException (retryable) an optimistic backend
   *     lost {@code maxRetries} races, or waited out another writer's intent, for this write (see
   *     Retries in the class comment)
   */
  Bucket restoreBucket(Bucket bucket);

  /**
   * Replaces a key's whole history with exactly {@code versions}: their revisions (version ids),
   * null-version flags, delete markers and metadata as given, whatever the key held before (its
   * other versions are gone, without GC records: a restore frees no data; on a resumed copy that
   * is the key as the interrupted run left it). The first version is the latest ({@code latest}
   * on input is ignored); reads, listings and later writes see the key exactly as if it had been
   * written version by version, and the bucket's usage counts it so. Repeating the call changes
   * nothing.
   *
   * @param versions the key's versions, newest first by revision, without duplicates, at most
   *     one null version, at least one; in an unversioned bucket exactly one, the null version,
   *     not a delete marker
   * @throws io.objectmeta.api.error.NoSuchBucketException no such bucket
   * @throws io.objectmeta.api.error.InvalidArgumentException a rule above is broken (naming the
   *     offending {@code versions[i]}); nothing changed
   * @throws io.objectmeta.api.error.ServiceUnavailableException (retryable) an optimistic backend
   *     lost {@code maxRetries} races, or waited out another writer's intent, for this write (see
   *     Retries in the class comment)
   */
  void restoreKey(String bucket, String key, List<ObjectVersion> versions);

  /**
   * Creates an in-progress multipart upload as another store reports it: its key, upload id,
   * initiation time and metadata, and its part records with their numbers, sizes, etags,
   * last-modified times and data locations. Idempotent by upload id: an upload of that id and
   * key is replaced with exactly this one and these parts (no GC records), and usage counts it
   * once.
   *
   * @param parts the parts, part numbers strictly ascending (possibly none), each with its
   *     last-modified time
   * @throws io.objectmeta.api.error.NoSuchBucketException no such bucket
   * @throws io.objectmeta.api.error.InvalidArgumentException a rule above is broken; nothing
   *     changed
   * @throws io.objectmeta.api.error.NotImplementedException no MULTIPART_UPLOADS capability
   * @throws io.objectmeta.api.error.ServiceUnavailableException (retryable) an optimistic backend
   *     lost {@code maxRetries} races, or waited out another writer's intent, for this write (see
   *     Retries in the class comment)
   */
  void restoreUpload(String bucket, MultipartUpload upload, List<Part> parts);

  /**
   * Reads the GC queue in queue order (oldest {@code deletedAt} first; ties in an order of the
   * store's own), leased records included, claiming nothing. The cursor a page returns stays
   * valid across calls and across acknowledgements of the records before it; records queued
   * meanwhile with a later queue time are read by later pages.
   *
   * @param after null for the start, or a page's {@code next}
   * @param limit 1 to 10000 records
   * @throws io.objectmeta.api.error.InvalidArgumentException the cursor is not one this store
   *     returned, or the limit is out of range
   */
  GarbagePage listGarbage(String after, int limit);

  /**
   * Adds GC records as another store reports them: kind, bucket name and incarnation id, key,
   * version (or upload) id, part number, size, data locations and {@code deletedAt} kept, so
   * they are claimed in their place by queue time and after their grace period. Each gets a
   * record id of this store; the given id is remembered as the record's origin, and a record
   * whose origin is still queued here is not added again (so a resumed copy adds each record
   * once). Origins are compared as given: a caller copying several stores into one makes them
   * unique across those stores (a migration prefixes the source store's UUID).
   *
   * @param records 1 to 10000 records (see {@code Validation.garbageRecords} for the fields
   *     each kind has)
   * @return how many records were added (those already present are not counted)
   * @throws io.objectmeta.api.error.InvalidArgumentException a record is malformed; nothing added
   */
  int restoreGarbage(List<GarbageRecord> records);

  // ------------------------------------------------------------------------------------- store

  /** What this backend supports; a call outside it throws NotImplemented. */
  Set<Capability> capabilities();

  /**
   * How old a bucket's state (existence, incarnation, versioning) a call of this store may follow
   * when another store on the same database changed it: zero (the default, and every backend's
   * default) means a call that begins after the change returned sees it. A backend with an opt-in
   * bucket cache returns its window here; the conformance suite holds it to it.
   */
  default Duration bucketStateWindow() {
    return Duration.ZERO;
  }

  /** Releases connections and threads. */
  @Override
  void close();
}
