package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.StoreUsage;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.VersioningState;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The store's UUID and the usage counters, kept incrementally: checked after each kind of write. */
public interface UsageContract extends StoreScenario {

  default void assertUsage(String bucket, Usage expected) {
    assertThat(store().bucketUsage(bucket)).isEqualTo(expected);
    assertThat(Recount.withoutUploads(store().bucketUsage(bucket)))
        .as("stored counters agree with a recount from the version listing")
        .isEqualTo(Recount.versions(store(), bucket));
  }

  @Test
  default void theUuidIsStable() {
    UUID first = store().getUUID();
    assertThat(first).isNotNull();
    newBucket();
    assertThat(store().getUUID()).isEqualTo(first);
  }

  @Test
  default void aNewBucketHasZeroUsage() {
    assertUsage(newBucket(), Usage.ZERO);
  }

  @Test
  default void unversionedPutsOverwritesAndDeletesCountCurrentObjects() {
    String b = newBucket();
    put(b, "a", "a1", 10);
    assertUsage(b, new Usage(1, 10, 0, 0, 0, 0, 0));
    put(b, "a", "a2", 25);
    assertUsage(b, new Usage(1, 25, 0, 0, 0, 0, 0));
    put(b, "b", "b1", 5);
    assertUsage(b, new Usage(2, 30, 0, 0, 0, 0, 0));
    store().deleteObject(b, "a");
    assertUsage(b, new Usage(1, 5, 0, 0, 0, 0, 0));
  }

  @Test
  default void versionedPutsMakeOlderVersionsNonCurrent() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "a", "a1", 10);
    put(b, "a", "a2", 20);
    put(b, "a", "a3", 30);
    assertUsage(b, new Usage(1, 30, 2, 30, 0, 0, 0));
  }

  @Test
  default void aDeleteMarkerMakesTheObjectNonCurrentAndCountsAsAMarker() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "a", "a1", 10);
    String m = store().deleteObject(b, "a").versionId();
    assertUsage(b, new Usage(0, 0, 1, 10, 1, 0, 0));
    store().deleteObjectVersion(b, "a", m);
    assertUsage(b, new Usage(1, 10, 0, 0, 0, 0, 0));
  }

  @Test
  default void removingVersionsForGoodUncountsThem() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "a", "a1", 10);
    ObjectVersion v2 = put(b, "a", "a2", 20);
    store().deleteObjectVersion(b, "a", v1.versionId());
    assertUsage(b, new Usage(1, 20, 0, 0, 0, 0, 0));
    store().deleteObjectVersion(b, "a", v2.versionId());
    assertUsage(b, Usage.ZERO);
  }

  @Test
  default void suspendedWritesReplaceTheNullVersionInTheCounts() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "a", "a1", 10);
    setVersioning(b, VersioningState.SUSPENDED);
    put(b, "a", "n1", 3);
    assertUsage(b, new Usage(1, 3, 1, 10, 0, 0, 0));
    put(b, "a", "n2", 4);
    assertUsage(b, new Usage(1, 4, 1, 10, 0, 0, 0));
    store().deleteObject(b, "a");
    assertUsage(b, new Usage(0, 0, 1, 10, 1, 0, 0));
  }

  @Test
  default void theStoreUsageCountsLiveBucketsAndSumsTheirUsage() {
    StoreUsage before = store().usage();
    String b1 = newBucket();
    String b2 = newBucket(VersioningState.ENABLED);
    put(b1, "a", "a", 10);
    put(b2, "a", "a1", 20);
    put(b2, "a", "a2", 30);
    store().deleteObject(b2, "x");
    StoreUsage after = store().usage();
    assertThat(after.buckets()).isEqualTo(before.buckets() + 2);
    assertThat(after.total()).isEqualTo(before.total()
        .plus(store().bucketUsage(b1)).plus(store().bucketUsage(b2)));
    assertThat(after.total().minus(before.total())).isEqualTo(new Usage(2, 40, 1, 20, 1, 0, 0));
  }

  @Test
  default void aDeletedBucketLeavesTheStoreUsage() {
    String b = newBucket();
    StoreUsage with = store().usage();
    store().deleteBucket(b);
    assertThat(store().usage().buckets()).isEqualTo(with.buckets() - 1);
  }

  @Test
  default void aRefusedWriteChangesNoCounter() {
    String b = newBucket();
    put(b, "a", "a", 10);
    Usage before = store().bucketUsage(b);
    try {
      store().putObject(b, "a", Sample.object("x"), io.objectmeta.api.model.WriteCondition.createOnly());
    } catch (io.objectmeta.api.error.PreconditionFailedException expected) {
      // the point of the test
    }
    assertThat(store().bucketUsage(b)).isEqualTo(before);
  }
}
