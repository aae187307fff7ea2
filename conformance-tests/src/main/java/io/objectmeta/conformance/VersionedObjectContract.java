package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.MethodNotAllowedException;
import io.objectmeta.api.error.NoSuchKeyException;
import io.objectmeta.api.error.NoSuchVersionException;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.DeleteResult;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Objects in a bucket with versioning enabled: every put a new version, deletes add markers. */
public interface VersionedObjectContract extends StoreScenario {

  @Test
  default void eachPutMintsANewVersionThatBecomesTheLatest() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    ObjectVersion v2 = put(b, "k", "v2");
    assertThat(v1.versionId()).isNotEqualTo("null").isNotEqualTo(v2.versionId());
    assertThat(v1.nullVersion()).isFalse();
    assertThat(v2.latest()).isTrue();
    assertThat(store().getObject(b, "k").versionId()).isEqualTo(v2.versionId());
    assertThat(versionIdsOf(b, "k")).containsExactly(v2.versionId(), v1.versionId());
  }

  @Test
  default void olderVersionsStayReadableAndAreNotLatest() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    put(b, "k", "v2");
    ObjectVersion old = store().getObjectVersion(b, "k", v1.versionId());
    assertThat(old.metadata()).isEqualTo(v1.metadata());
    assertThat(old.latest()).isFalse();
  }

  @Test
  default void anOverwriteInAVersionedBucketQueuesNothing() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "k", "v1");
    put(b, "k", "v2");
    assertThat(gcQueue(b)).isEmpty();
  }

  @Test
  default void versionIdsOfOneKeyAreUniqueAcrossManyPuts() {
    String b = newBucket(VersioningState.ENABLED);
    for (int i = 0; i < 50; i++) {
      put(b, "k", "v" + i);
    }
    List<String> ids = versionIdsOf(b, "k");
    assertThat(ids).hasSize(50).doesNotHaveDuplicates();
    assertThat(ids.get(0)).isEqualTo(store().getObject(b, "k").versionId());
  }

  @Test
  default void aDeleteAddsADeleteMarkerOnTop() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    DeleteResult d = store().deleteObject(b, "k");
    assertThat(d.deleteMarker()).isTrue();
    assertThat(d.key()).isEqualTo("k");
    assertThat(d.versionId()).isNotEqualTo("null").isNotEqualTo(v1.versionId());
    List<ObjectVersion> vs = versionsOf(b, "k");
    assertThat(vs).extracting(ObjectVersion::versionId).containsExactly(d.versionId(), v1.versionId());
    assertThat(vs.get(0).deleteMarker()).isTrue();
    assertThat(vs.get(0).latest()).isTrue();
    assertThat(vs.get(1).latest()).isFalse();
    assertThat(gcQueue(b)).isEmpty();
  }

  @Test
  default void getOfAKeyUnderADeleteMarkerSaysSoWithTheMarkersId() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "k", "v1");
    String marker = store().deleteObject(b, "k").versionId();
    NoSuchKeyException e = catchThrowableOfType(NoSuchKeyException.class, () -> store().getObject(b, "k"));
    assertThat(e).isNotNull();
    assertThat(e.deleteMarker()).isTrue();
    assertThat(e.versionId()).isEqualTo(marker);
  }

  @Test
  default void eachDeleteAddsAnotherMarkerEvenForAnAbsentKey() {
    String b = newBucket(VersioningState.ENABLED);
    DeleteResult d1 = store().deleteObject(b, "never");
    DeleteResult d2 = store().deleteObject(b, "never");
    assertThat(d1.deleteMarker()).isTrue();
    assertThat(d2.deleteMarker()).isTrue();
    assertThat(d1.versionId()).isNotEqualTo(d2.versionId());
    assertThat(versionIdsOf(b, "never")).containsExactly(d2.versionId(), d1.versionId());
    assertThat(currentKeys(b)).isEmpty();
  }

  @Test
  default void readingADeleteMarkerByIdIsMethodNotAllowed() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "k", "v1");
    String marker = store().deleteObject(b, "k").versionId();
    assertThatThrownBy(() -> store().getObjectVersion(b, "k", marker))
        .isInstanceOf(MethodNotAllowedException.class);
  }

  @Test
  default void anUnknownVersionIdFailsWithNoSuchVersion() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    put(b, "other", "o");
    assertThatThrownBy(() -> store().getObjectVersion(b, "other", v1.versionId()))
        .isInstanceOf(NoSuchVersionException.class);
  }

  @Test
  default void theNullVersionOfAKeyWithoutOneIsNoSuchVersion() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "k", "v1");
    assertThatThrownBy(() -> store().getObjectVersion(b, "k", "null"))
        .isInstanceOf(NoSuchVersionException.class);
  }

  @Test
  default void aMalformedVersionIdFailsWithInvalidArgument() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "k", "v1");
    assertThatThrownBy(() -> store().getObjectVersion(b, "k", "0123"))
        .isInstanceOf(InvalidArgumentException.class);
    assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().deleteObjectVersion(b, "k", "ZZZZZZZZZZZZZZZZZZZZZZZ!"));
  }

  @Test
  default void deletingTheLatestVersionPromotesTheNextOne() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1", 5);
    ObjectVersion v2 = put(b, "k", "v2", 6);
    DeleteResult d = store().deleteObjectVersion(b, "k", v2.versionId());
    assertThat(d).isEqualTo(new DeleteResult("k", v2.versionId(), false));
    ObjectVersion current = store().getObject(b, "k");
    assertThat(current.versionId()).isEqualTo(v1.versionId());
    assertThat(current.latest()).isTrue();
    assertThat(versionsOf(b, "k")).singleElement().satisfies(v -> assertThat(v.latest()).isTrue());
  }

  @Test
  default void aVersionRemovedForGoodGoesToTheGcQueue() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1", 5);
    put(b, "k", "v2", 6);
    store().deleteObjectVersion(b, "k", v1.versionId());
    assertThat(gcQueue(b)).singleElement().satisfies(r -> {
      assertThat(r.kind()).isEqualTo(GarbageRecord.Kind.OBJECT_VERSION);
      assertThat(r.key()).isEqualTo("k");
      assertThat(r.versionId()).isEqualTo(v1.versionId());
      assertThat(r.size()).isEqualTo(5);
      assertThat(r.dataLocations()).containsExactly(Sample.location("v1", 0, 5));
    });
    assertThatThrownBy(() -> store().getObjectVersion(b, "k", v1.versionId()))
        .isInstanceOf(NoSuchVersionException.class);
  }

  @Test
  default void deletingANonLatestVersionLeavesTheLatest() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    ObjectVersion v2 = put(b, "k", "v2");
    store().deleteObjectVersion(b, "k", v1.versionId());
    assertThat(store().getObject(b, "k").versionId()).isEqualTo(v2.versionId());
  }

  @Test
  default void deletingTheDeleteMarkerMakesTheObjectReappear() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    String marker = store().deleteObject(b, "k").versionId();
    DeleteResult d = store().deleteObjectVersion(b, "k", marker);
    assertThat(d).isEqualTo(new DeleteResult("k", marker, true));
    assertThat(store().getObject(b, "k").versionId()).isEqualTo(v1.versionId());
    assertThat(currentKeys(b)).containsExactly("k");
    assertThat(gcQueue(b)).as("a delete marker has no data to free").isEmpty();
  }

  @Test
  default void removingAMarkerBelowTheLatestChangesNoCurrentObject() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "k", "v1");
    String marker = store().deleteObject(b, "k").versionId();
    ObjectVersion v3 = put(b, "k", "v3");
    store().deleteObjectVersion(b, "k", marker);
    assertThat(store().getObject(b, "k").versionId()).isEqualTo(v3.versionId());
    assertThat(versionsOf(b, "k")).hasSize(2).noneMatch(ObjectVersion::deleteMarker);
  }

  @Test
  default void deletingTheOnlyVersionLeavesNoKey() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    store().deleteObjectVersion(b, "k", v1.versionId());
    NoSuchKeyException e = catchThrowableOfType(NoSuchKeyException.class, () -> store().getObject(b, "k"));
    assertThat(e).isNotNull();
    assertThat(e.deleteMarker()).isFalse();
    assertThat(versions(b)).isEmpty();
  }

  @Test
  default void deletingAnUnknownVersionFailsWithNoSuchVersion() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    store().deleteObjectVersion(b, "k", v1.versionId());
    assertRefusedAndUnchanged(NoSuchVersionException.class,
        () -> store().deleteObjectVersion(b, "k", v1.versionId()));
  }

  @Test
  default void theLatestIsTheNewestEvenAfterManyRemovals() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    ObjectVersion v2 = put(b, "k", "v2");
    String m = store().deleteObject(b, "k").versionId();
    ObjectVersion v4 = put(b, "k", "v4");
    store().deleteObjectVersion(b, "k", v4.versionId());
    NoSuchKeyException e = catchThrowableOfType(NoSuchKeyException.class, () -> store().getObject(b, "k"));
    assertThat(e.versionId()).isEqualTo(m);
    store().deleteObjectVersion(b, "k", m);
    assertThat(store().getObject(b, "k").versionId()).isEqualTo(v2.versionId());
    store().deleteObjectVersion(b, "k", v2.versionId());
    assertThat(store().getObject(b, "k").versionId()).isEqualTo(v1.versionId());
  }

  @Test
  default void enablingVersioningKeepsTheExistingNullVersion() {
    String b = newBucket();
    ObjectVersion nul = put(b, "k", "v0");
    setVersioning(b, VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    assertThat(versionIdsOf(b, "k")).containsExactly(v1.versionId(), "null");
    assertThat(store().getObjectVersion(b, "k", "null").metadata()).isEqualTo(nul.metadata());
    assertThat(gcQueue(b)).isEmpty();
  }

  @Test
  default void deletingTheVersionAboveTheNullVersionPromotesIt() {
    String b = newBucket();
    put(b, "k", "v0");
    setVersioning(b, VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    store().deleteObjectVersion(b, "k", v1.versionId());
    ObjectVersion current = store().getObject(b, "k");
    assertThat(current.versionId()).isEqualTo("null");
    assertThat(current.latest()).isTrue();
  }

  @Test
  default void aDeleteOnAnEnabledBucketAboveANullVersionKeepsIt() {
    String b = newBucket();
    put(b, "k", "v0");
    setVersioning(b, VersioningState.ENABLED);
    DeleteResult d = store().deleteObject(b, "k");
    assertThat(d.versionId()).isNotEqualTo("null");
    assertThat(versionIdsOf(b, "k")).containsExactly(d.versionId(), "null");
    assertThat(gcQueue(b)).isEmpty();
  }
}
