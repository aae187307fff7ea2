package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.error.MethodNotAllowedException;
import io.objectmeta.api.error.NoSuchKeyException;
import io.objectmeta.api.error.NoSuchVersionException;
import io.objectmeta.api.model.Json;
import io.objectmeta.api.model.ObjectMetadataUpdate;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** In-place metadata updates: no new version, same id and last-modified, no GC record. */
public interface MetadataUpdateContract extends StoreScenario {

  @Test
  default void tagsAreReplacedInPlaceWithoutANewVersion() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v = put(b, "k", "v1");
    ObjectVersion u = store().updateObjectMetadata(b, "k", null, ObjectMetadataUpdate.tags(Map.of("a", "1")));
    assertThat(u.versionId()).isEqualTo(v.versionId());
    assertThat(u.lastModified()).isEqualTo(v.lastModified());
    assertThat(u.metadata().tags()).isEqualTo(Map.of("a", "1"));
    assertThat(u.metadata().etag()).isEqualTo(v.metadata().etag());
    assertThat(versionsOf(b, "k")).hasSize(1);
    assertThat(gcQueue(b)).isEmpty();
  }

  @Test
  default void anUpdateToTheValuesAlreadyStoredSucceedsAndChangesNothing() {
    for (VersioningState state : VersioningState.values()) {
      String b = newBucket(state);
      ObjectVersion v = store().putObject(b, "k", Sample.object("v1").toBuilder().tags(Map.of("t", "x")).build());
      StoreSnapshot before = snapshot();
      ObjectVersion u = store().updateObjectMetadata(b, "k", null, ObjectMetadataUpdate.tags(Map.of("t", "x")));
      ObjectVersion w = store().updateObjectMetadata(b, "k", v.versionId(), ObjectMetadataUpdate.tags(Map.of("t", "x")));
      assertThat(u).as("in a bucket %s", state).isEqualTo(v);
      assertThat(w).as("in a bucket %s", state).isEqualTo(v);
      assertThat(snapshot()).as("in a bucket %s", state).isEqualTo(before);
    }
  }

  @Test
  default void theLatestViewFollowsTheUpdate() {
    String b = newBucket();
    put(b, "k", "v1");
    store().updateObjectMetadata(b, "k", null, ObjectMetadataUpdate.replicationStatus("COMPLETED"));
    assertThat(store().getObject(b, "k").metadata().replicationStatus()).isEqualTo("COMPLETED");
    assertThat(store().getObjectVersion(b, "k", "null").metadata().replicationStatus()).isEqualTo("COMPLETED");
    assertThat(versions(b).get(0).metadata().replicationStatus()).isEqualTo("COMPLETED");
  }

  @Test
  default void anAclUpdateLeavesTheOtherFields() {
    String b = newBucket();
    ObjectVersion v = store().putObject(b, "k", Sample.object("v1").toBuilder().tags(Map.of("t", "x")).build());
    ObjectVersion u = store().updateObjectMetadata(b, "k", null,
        ObjectMetadataUpdate.acl(Json.object("{\"owner\":\"o\"}")));
    assertThat(u.metadata().acl()).isEqualTo(Json.object("{\"owner\":\"o\"}"));
    assertThat(u.metadata().tags()).isEqualTo(Map.of("t", "x"));
    assertThat(u.metadata().size()).isEqualTo(v.metadata().size());
  }

  @Test
  default void attributesAreReplacedWhole() {
    String b = newBucket();
    store().putObject(b, "k", Sample.object("v1").toBuilder().attributes(Json.object("{\"a\":1}")).build());
    store().updateObjectMetadata(b, "k", null, ObjectMetadataUpdate.attributes(Json.object("{\"b\":2}")));
    assertThat(store().getObject(b, "k").metadata().attributes()).isEqualTo(Json.object("{\"b\":2}"));
  }

  @Test
  default void anOlderVersionCanBeUpdatedAndStaysNonCurrent() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    ObjectVersion v2 = put(b, "k", "v2");
    ObjectVersion u = store().updateObjectMetadata(b, "k", v1.versionId(), ObjectMetadataUpdate.tags(Map.of("old", "yes")));
    assertThat(u.latest()).isFalse();
    assertThat(store().getObjectVersion(b, "k", v1.versionId()).metadata().tags()).containsEntry("old", "yes");
    assertThat(store().getObject(b, "k").versionId()).isEqualTo(v2.versionId());
    assertThat(store().getObject(b, "k").metadata().tags()).isEmpty();
  }

  @Test
  default void theNullVersionCanBeUpdatedById() {
    String b = newBucket();
    put(b, "k", "v1");
    setVersioning(b, VersioningState.ENABLED);
    put(b, "k", "v2");
    store().updateObjectMetadata(b, "k", "null", ObjectMetadataUpdate.tags(Map.of("n", "1")));
    assertThat(store().getObjectVersion(b, "k", "null").metadata().tags()).containsEntry("n", "1");
    assertThat(versionIdsOf(b, "k")).hasSize(2);
  }

  @Test
  default void updatingADeleteMarkerIsMethodNotAllowed() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "k", "v1");
    String m = store().deleteObject(b, "k").versionId();
    assertRefusedAndUnchanged(MethodNotAllowedException.class,
        () -> store().updateObjectMetadata(b, "k", m, ObjectMetadataUpdate.tags(Map.of("a", "b"))));
  }

  @Test
  default void updatingTheCurrentObjectOfADeleteMarkedKeyIsNoSuchKey() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "k", "v1");
    store().deleteObject(b, "k");
    assertRefusedAndUnchanged(NoSuchKeyException.class,
        () -> store().updateObjectMetadata(b, "k", null, ObjectMetadataUpdate.tags(Map.of("a", "b"))));
  }

  @Test
  default void updatingAnAbsentKeyIsNoSuchKey() {
    String b = newBucket();
    assertRefusedAndUnchanged(NoSuchKeyException.class,
        () -> store().updateObjectMetadata(b, "absent", null, ObjectMetadataUpdate.tags(Map.of("a", "b"))));
  }

  @Test
  default void updatingAnUnknownVersionIsNoSuchVersion() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v = put(b, "k", "v1");
    put(b, "j", "j1");
    assertRefusedAndUnchanged(NoSuchVersionException.class,
        () -> store().updateObjectMetadata(b, "j", v.versionId(), ObjectMetadataUpdate.tags(Map.of("a", "b"))));
  }

  @Test
  default void anUpdateChangesNoUsage() {
    String b = newBucket();
    put(b, "k", "v1", 100);
    var before = store().bucketUsage(b);
    store().updateObjectMetadata(b, "k", null, ObjectMetadataUpdate.tags(Map.of("a", "b")));
    assertThat(store().bucketUsage(b)).isEqualTo(before);
  }
}
