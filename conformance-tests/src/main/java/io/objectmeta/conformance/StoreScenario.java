package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.objectmeta.api.Capability;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.listing.ListVersionsRequest;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * What every scenario of the suite works with: the store under test, its fixture, and the reads
 * and writes the scenarios share. Scenario groups are interfaces extending this one; the suite's
 * nested classes implement them over the store of the current test.
 */
public interface StoreScenario {

  /** The store under test, fresh for this test. */
  MetadataStore store();

  /** The fixture that opened it. */
  ConformanceFixture fixture();

  /** The owner of the buckets the scenarios create. */
  String OWNER = "owner-1";

  /** A new unversioned bucket with a name no other test uses. */
  default String newBucket() {
    String name = BucketNames.next();
    store().createBucket(name, OWNER, null);
    return name;
  }

  /**
   * A new bucket in {@code state}: ENABLED is set once; SUSPENDED is reached through ENABLED, as
   * S3 allows.
   */
  default String newBucket(VersioningState state) {
    String name = newBucket();
    if (state != VersioningState.UNVERSIONED) {
      store().updateBucket(name, BucketUpdate.versioning(VersioningState.ENABLED));
    }
    if (state == VersioningState.SUSPENDED) {
      store().updateBucket(name, BucketUpdate.versioning(VersioningState.SUSPENDED));
    }
    return name;
  }

  default void setVersioning(String bucket, VersioningState state) {
    store().updateBucket(bucket, BucketUpdate.versioning(state));
  }

  /** Puts a sample object named {@code name} (its etag derives from it) of 10 bytes. */
  default ObjectVersion put(String bucket, String key, String name) {
    return store().putObject(bucket, key, Sample.object(name));
  }

  default ObjectVersion put(String bucket, String key, String name, long size) {
    return store().putObject(bucket, key, Sample.object(name, size));
  }

  /**
   * Queues {@code n} object records of sizes 1..n (keys k1..kn) in a fresh unversioned bucket,
   * oldest first; returns the bucket.
   */
  default String queueGarbage(int n) {
    String b = newBucket();
    for (int i = 1; i <= n; i++) {
      put(b, "k" + i, "v" + i, i);
      store().deleteObject(b, "k" + i);
    }
    return b;
  }

  /** Every version and delete marker of the bucket, in listing order. */
  default List<ObjectVersion> versions(String bucket) {
    return Walks.allVersions(store(), bucket);
  }

  /** Every version of one key, newest first. */
  default List<ObjectVersion> versionsOf(String bucket, String key) {
    return Walks.allVersions(store(), ListVersionsRequest.of(bucket).withPrefix(key)).stream()
        .filter(v -> v.key().equals(key)).toList();
  }

  /** The version ids of one key, newest first. */
  default List<String> versionIdsOf(String bucket, String key) {
    return versionsOf(bucket, key).stream().map(ObjectVersion::versionId).toList();
  }

  /** The keys of the current objects of a bucket. */
  default List<String> currentKeys(String bucket) {
    return Walks.allCurrent(store(), bucket).stream().map(ObjectVersion::key).toList();
  }

  /** The GC queue, oldest first, unchanged by looking. */
  default List<GarbageRecord> gcQueue() {
    return Walks.gcQueue(store());
  }

  /** The GC records of one bucket. */
  default List<GarbageRecord> gcQueue(String bucket) {
    return gcQueue().stream().filter(r -> bucket.equals(r.bucket())).toList();
  }

  /** See {@link Capabilities#require}. */
  default void requireCapability(Capability capability, ThrowingCallable probe) {
    Capabilities.require(store(), fixture(), capability, probe);
  }

  /** Everything observable of the store. */
  default StoreSnapshot snapshot() {
    return StoreSnapshot.of(store());
  }

  /**
   * Asserts that {@code call} fails with {@code type} and that the store looks exactly as before
   * (every bucket, version, upload, usage counter and GC record).
   */
  default <E extends MetadataException> E assertRefusedAndUnchanged(Class<E> type, ThrowingCallable call) {
    StoreSnapshot before = snapshot();
    E e = catchThrowableOfType(type, call);
    assertThat(e).as("expected %s", type.getSimpleName()).isNotNull();
    assertThat(snapshot()).as("the store after a call refused with %s", type.getSimpleName())
        .isEqualTo(before);
    return e;
  }
}
