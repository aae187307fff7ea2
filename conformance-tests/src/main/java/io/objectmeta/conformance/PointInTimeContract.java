package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.Capability;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.listing.ListObjectsRequest;
import io.objectmeta.api.listing.ListObjectsV2Request;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Listing a versioned bucket as it was at an instant (capability POINT_IN_TIME_LISTING). */
public interface PointInTimeContract extends StoreScenario {

  @BeforeEach
  default void requirePointInTime() {
    String b = newBucket(VersioningState.ENABLED);
    requireCapability(Capability.POINT_IN_TIME_LISTING,
        () -> store().listObjects(ListObjectsRequest.of(b).withAsOf(Instant.now())));
  }

  /** An instant after {@code v} was written and before anything written after this call. */
  default Instant instantAfter(ObjectVersion v) {
    Polling.clockPast(v.lastModified());
    Instant t = Instant.now();
    Polling.clockPast(t);
    return t;
  }

  default List<String> keysAsOf(String bucket, Instant t) {
    return store().listObjects(ListObjectsRequest.of(bucket).withAsOf(t)).contents().stream()
        .map(ObjectVersion::key).toList();
  }

  @Test
  default void aListingAsOfAnInstantSeesTheVersionCurrentThen() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    Instant t = instantAfter(v1);
    put(b, "k", "v2");
    assertThat(store().listObjects(ListObjectsRequest.of(b).withAsOf(t)).contents())
        .singleElement().satisfies(v -> {
          assertThat(v.versionId()).isEqualTo(v1.versionId());
          assertThat(v.metadata().etag()).isEqualTo(Sample.md5Hex("v1"));
        });
  }

  @Test
  default void aKeyWrittenAfterTheInstantIsNotListed() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion a = put(b, "a", "a");
    Instant t = instantAfter(a);
    put(b, "b", "b");
    assertThat(keysAsOf(b, t)).containsExactly("a");
  }

  @Test
  default void aKeyDeleteMarkedAfterTheInstantIsStillListedAsOfIt() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion a = put(b, "a", "a");
    Instant t = instantAfter(a);
    store().deleteObject(b, "a");
    assertThat(keysAsOf(b, t)).containsExactly("a");
    assertThat(currentKeys(b)).isEmpty();
  }

  @Test
  default void aKeyDeleteMarkedBeforeTheInstantIsNotListed() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "a", "a");
    store().deleteObject(b, "a");
    ObjectVersion c = put(b, "c", "c");
    Instant t = instantAfter(c);
    put(b, "a", "again");
    assertThat(keysAsOf(b, t)).containsExactly("c");
  }

  @Test
  default void aVersionRemovedForGoodIsGoneFromThePast() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    Instant t = instantAfter(v1);
    put(b, "k", "v2");
    store().deleteObjectVersion(b, "k", v1.versionId());
    assertThat(keysAsOf(b, t)).isEmpty();
  }

  @Test
  default void aReplacedNullVersionIsGoneFromThePast() {
    String b = newBucket(VersioningState.SUSPENDED);
    ObjectVersion n1 = put(b, "k", "n1");
    Instant t = instantAfter(n1);
    put(b, "k", "n2");
    assertThat(keysAsOf(b, t)).isEmpty();
  }

  @Test
  default void anInstantInTheFutureListsTheCurrentObjects() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "a", "a");
    put(b, "b", "b");
    store().deleteObject(b, "b");
    assertThat(keysAsOf(b, Instant.now().plusSeconds(3600))).containsExactly("a");
  }

  @Test
  default void anInstantBeforeEverythingListsNothing() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "a", "a");
    assertThat(keysAsOf(b, Instant.parse("2000-01-01T00:00:00Z"))).isEmpty();
  }

  @Test
  default void v2ListsAsOfAnInstantToo() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion a = put(b, "x/a", "a");
    Instant t = instantAfter(a);
    put(b, "y/b", "b");
    var r = store().listObjectsV2(ListObjectsV2Request.of(b).withDelimiter("/").withAsOf(t));
    assertThat(r.commonPrefixes()).containsExactly("x/");
    assertThat(r.contents()).isEmpty();
  }

  @Test
  default void asOfOnAnUnversionedBucketIsInvalidArgument() {
    String b = newBucket();
    put(b, "a", "a");
    assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().listObjects(ListObjectsRequest.of(b).withAsOf(Instant.now())));
    assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().listObjectsV2(ListObjectsV2Request.of(b).withAsOf(Instant.now())));
  }
}
