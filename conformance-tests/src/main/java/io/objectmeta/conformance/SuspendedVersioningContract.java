package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.objectmeta.api.error.MethodNotAllowedException;
import io.objectmeta.api.error.NoSuchKeyException;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.DeleteResult;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import org.junit.jupiter.api.Test;

/**
 * Suspended versioning and the transitions unversioned → enabled → suspended → enabled: puts and
 * deletes replace the key's null version wherever it stands; other versions stay.
 */
public interface SuspendedVersioningContract extends StoreScenario {

  @Test
  default void aSuspendedPutWritesTheNullVersionAsTheLatest() {
    String b = newBucket(VersioningState.SUSPENDED);
    ObjectVersion v = put(b, "k", "v1");
    assertThat(v.versionId()).isEqualTo("null");
    assertThat(v.nullVersion()).isTrue();
    assertThat(v.latest()).isTrue();
    assertThat(store().getObject(b, "k").versionId()).isEqualTo("null");
  }

  @Test
  default void aSuspendedPutKeepsTheVersionsMadeWhileEnabled() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    setVersioning(b, VersioningState.SUSPENDED);
    put(b, "k", "n1");
    assertThat(versionIdsOf(b, "k")).containsExactly("null", v1.versionId());
    assertThat(gcQueue(b)).isEmpty();
  }

  @Test
  default void aSuspendedPutReplacesTheNullVersionOnTopAndQueuesIt() {
    String b = newBucket(VersioningState.SUSPENDED);
    put(b, "k", "n1", 3);
    put(b, "k", "n2", 4);
    assertThat(versionsOf(b, "k")).singleElement()
        .satisfies(v -> assertThat(v.metadata().etag()).isEqualTo(Sample.md5Hex("n2")));
    assertThat(gcQueue(b)).singleElement().satisfies(r -> {
      assertThat(r.kind()).isEqualTo(GarbageRecord.Kind.OBJECT_VERSION);
      assertThat(r.versionId()).isEqualTo("null");
      assertThat(r.size()).isEqualTo(3);
      assertThat(r.dataLocations()).containsExactly(Sample.location("n1", 0, 3));
    });
  }

  @Test
  default void aSuspendedPutReplacesANullVersionBuriedUnderNewerVersions() {
    String b = newBucket();
    put(b, "k", "n0", 9);
    setVersioning(b, VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    setVersioning(b, VersioningState.SUSPENDED);
    put(b, "k", "n1");
    assertThat(versionIdsOf(b, "k")).containsExactly("null", v1.versionId());
    assertThat(store().getObjectVersion(b, "k", "null").metadata().etag()).isEqualTo(Sample.md5Hex("n1"));
    assertThat(gcQueue(b)).singleElement().satisfies(r -> {
      assertThat(r.versionId()).isEqualTo("null");
      assertThat(r.size()).isEqualTo(9);
    });
  }

  @Test
  default void theNullVersionStaysInItsPlaceWhenVersioningIsReEnabled() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    setVersioning(b, VersioningState.SUSPENDED);
    put(b, "k", "n1");
    setVersioning(b, VersioningState.ENABLED);
    ObjectVersion v3 = put(b, "k", "v3");
    assertThat(versionIdsOf(b, "k")).containsExactly(v3.versionId(), "null", v1.versionId());
    assertThat(versionsOf(b, "k").get(1).latest()).isFalse();
  }

  @Test
  default void aSuspendedDeleteWritesANullDeleteMarker() {
    String b = newBucket(VersioningState.SUSPENDED);
    DeleteResult d = store().deleteObject(b, "k");
    assertThat(d).isEqualTo(new DeleteResult("k", "null", true));
    ObjectVersion marker = versionsOf(b, "k").get(0);
    assertThat(marker.deleteMarker()).isTrue();
    assertThat(marker.nullVersion()).isTrue();
    assertThat(marker.latest()).isTrue();
  }

  @Test
  default void aSuspendedDeleteReplacesTheNullVersionAndQueuesIt() {
    String b = newBucket(VersioningState.SUSPENDED);
    put(b, "k", "n1", 12);
    store().deleteObject(b, "k");
    assertThat(versionsOf(b, "k")).singleElement().satisfies(v -> {
      assertThat(v.deleteMarker()).isTrue();
      assertThat(v.versionId()).isEqualTo("null");
    });
    assertThat(gcQueue(b)).singleElement().satisfies(r -> assertThat(r.size()).isEqualTo(12));
  }

  @Test
  default void aSuspendedDeleteKeepsOlderNonNullVersions() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    setVersioning(b, VersioningState.SUSPENDED);
    store().deleteObject(b, "k");
    assertThat(versionIdsOf(b, "k")).containsExactly("null", v1.versionId());
    NoSuchKeyException e = catchThrowableOfType(NoSuchKeyException.class, () -> store().getObject(b, "k"));
    assertThat(e.deleteMarker()).isTrue();
    assertThat(e.versionId()).isEqualTo("null");
    assertThat(gcQueue(b)).isEmpty();
  }

  @Test
  default void aSecondSuspendedDeleteReplacesTheNullMarkerWithoutAGcRecord() {
    String b = newBucket(VersioningState.SUSPENDED);
    store().deleteObject(b, "k");
    store().deleteObject(b, "k");
    assertThat(versionsOf(b, "k")).singleElement().satisfies(v -> assertThat(v.deleteMarker()).isTrue());
    assertThat(gcQueue(b)).isEmpty();
  }

  @Test
  default void aSuspendedPutReplacesTheNullDeleteMarker() {
    String b = newBucket(VersioningState.SUSPENDED);
    store().deleteObject(b, "k");
    put(b, "k", "n1");
    assertThat(versionsOf(b, "k")).singleElement().satisfies(v -> {
      assertThat(v.deleteMarker()).isFalse();
      assertThat(v.versionId()).isEqualTo("null");
    });
    assertThat(gcQueue(b)).isEmpty();
  }

  @Test
  default void readingTheNullDeleteMarkerByIdIsMethodNotAllowed() {
    String b = newBucket(VersioningState.SUSPENDED);
    store().deleteObject(b, "k");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> store().getObjectVersion(b, "k", "null"))
        .isInstanceOf(MethodNotAllowedException.class);
  }

  @Test
  default void removingTheNullDeleteMarkerMakesTheOlderVersionReappear() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    setVersioning(b, VersioningState.SUSPENDED);
    store().deleteObject(b, "k");
    assertThat(store().deleteObjectVersion(b, "k", "null")).isEqualTo(new DeleteResult("k", "null", true));
    assertThat(store().getObject(b, "k").versionId()).isEqualTo(v1.versionId());
  }

  @Test
  default void anEnabledPutAfterSuspensionIsANewNonNullVersion() {
    String b = newBucket(VersioningState.SUSPENDED);
    put(b, "k", "n1");
    setVersioning(b, VersioningState.ENABLED);
    ObjectVersion v = put(b, "k", "v2");
    assertThat(v.versionId()).isNotEqualTo("null");
    assertThat(versionIdsOf(b, "k")).containsExactly(v.versionId(), "null");
  }

  @Test
  default void theWholeCycleUnversionedEnabledSuspendedEnabledKeepsTheRightHistory() {
    String b = newBucket();
    put(b, "k", "u1", 1);
    put(b, "k", "u2", 2); // replaces u1 (unversioned)
    setVersioning(b, VersioningState.ENABLED);
    ObjectVersion e1 = put(b, "k", "e1", 3);
    setVersioning(b, VersioningState.SUSPENDED);
    put(b, "k", "s1", 4); // replaces the null version u2 below e1
    setVersioning(b, VersioningState.ENABLED);
    ObjectVersion e2 = put(b, "k", "e2", 5);

    assertThat(versionsOf(b, "k")).extracting(ObjectVersion::versionId, v -> v.metadata().etag())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(e2.versionId(), Sample.md5Hex("e2")),
            org.assertj.core.groups.Tuple.tuple("null", Sample.md5Hex("s1")),
            org.assertj.core.groups.Tuple.tuple(e1.versionId(), Sample.md5Hex("e1")));
    assertThat(gcQueue(b)).extracting(GarbageRecord::size).containsExactlyInAnyOrder(1L, 2L);
  }

  @Test
  default void deletingTheLatestPromotesTheNullVersionWrittenWhileSuspended() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    setVersioning(b, VersioningState.SUSPENDED);
    put(b, "k", "n1");
    setVersioning(b, VersioningState.ENABLED);
    ObjectVersion v3 = put(b, "k", "v3");
    store().deleteObjectVersion(b, "k", v3.versionId());
    assertThat(store().getObject(b, "k").versionId()).isEqualTo("null");
    store().deleteObjectVersion(b, "k", "null");
    assertThat(store().getObject(b, "k").versionId()).isEqualTo(v1.versionId());
  }
}
