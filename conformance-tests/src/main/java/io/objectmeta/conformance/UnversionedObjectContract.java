package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.error.NoSuchKeyException;
import io.objectmeta.api.error.NoSuchVersionException;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.listing.ListObjectsRequest;
import io.objectmeta.api.listing.ListObjectsV2Request;
import io.objectmeta.api.listing.ListVersionsRequest;
import io.objectmeta.api.model.DeleteResult;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectMetadataUpdate;
import io.objectmeta.api.model.ObjectRef;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Objects in a bucket that was never versioned: one null version per key, overwritten in place. */
public interface UnversionedObjectContract extends StoreScenario {

  @Test
  default void aPutWritesTheNullVersionAsTheLatest() {
    String b = newBucket();
    ObjectVersion v = put(b, "k", "v1", 42);
    assertThat(v.key()).isEqualTo("k");
    assertThat(v.versionId()).isEqualTo("null");
    assertThat(v.nullVersion()).isTrue();
    assertThat(v.latest()).isTrue();
    assertThat(v.deleteMarker()).isFalse();
    assertThat(v.metadata()).isEqualTo(Sample.object("v1", 42));
  }

  @Test
  default void getReturnsWhatWasPut() {
    String b = newBucket();
    ObjectMetadata m = Sample.object("v1", 42).toBuilder()
        .userMetadata(Map.of("color", "blue")).tags(Map.of("t", "1"))
        .acl(io.objectmeta.api.model.Json.object("{\"grants\":[]}")).storageClass("GLACIER")
        .replicationStatus("PENDING").attributes(io.objectmeta.api.model.Json.object("{\"x\":[1,2]}"))
        .build();
    ObjectVersion written = store().putObject(b, "k", m);
    ObjectVersion read = store().getObject(b, "k");
    assertThat(read.metadata()).isEqualTo(m);
    assertThat(read).isEqualTo(written);
  }

  @Test
  default void theLastModifiedIsTheTimeOfTheWrite() {
    String b = newBucket();
    java.time.Instant before = java.time.Instant.now().minusSeconds(5);
    ObjectVersion v = put(b, "k", "v1");
    assertThat(v.lastModified()).isBetween(before, java.time.Instant.now().plusSeconds(5));
  }

  @Test
  default void aPutOverwritesTheObjectAndQueuesTheOldOne() {
    String b = newBucket();
    put(b, "k", "v1", 11);
    put(b, "k", "v2", 22);
    assertThat(store().getObject(b, "k").metadata().etag()).isEqualTo(Sample.md5Hex("v2"));
    assertThat(versions(b)).singleElement().satisfies(v -> {
      assertThat(v.versionId()).isEqualTo("null");
      assertThat(v.size()).isEqualTo(22);
    });
    assertThat(gcQueue(b)).singleElement().satisfies(r -> {
      assertThat(r.kind()).isEqualTo(GarbageRecord.Kind.OBJECT_VERSION);
      assertThat(r.key()).isEqualTo("k");
      assertThat(r.versionId()).isEqualTo("null");
      assertThat(r.size()).isEqualTo(11);
      assertThat(r.dataLocations()).containsExactly(Sample.location("v1", 0, 11));
      assertThat(r.bucketId()).isEqualTo(store().getBucket(b).id());
    });
  }

  @Test
  default void getOfAnAbsentKeyFailsWithNoSuchKeyWithoutMarker() {
    String b = newBucket();
    NoSuchKeyException e = org.assertj.core.api.Assertions.catchThrowableOfType(
        NoSuchKeyException.class, () -> store().getObject(b, "absent"));
    assertThat(e).isNotNull();
    assertThat(e.deleteMarker()).isFalse();
    assertThat(e.versionId()).isNull();
  }

  @Test
  default void theNullVersionCanBeReadById() {
    String b = newBucket();
    ObjectVersion v = put(b, "k", "v1");
    assertThat(store().getObjectVersion(b, "k", "null")).isEqualTo(v);
  }

  @Test
  default void anUnknownVersionIdFailsWithNoSuchVersion() {
    String b = newBucket(VersioningState.ENABLED);
    String minted = put(b, "other", "x").versionId();
    String u = newBucket();
    put(u, "k", "v1");
    assertThatThrownBy(() -> store().getObjectVersion(u, "k", minted))
        .isInstanceOf(NoSuchVersionException.class);
  }

  @Test
  default void aMalformedVersionIdFailsWithInvalidArgument() {
    String b = newBucket();
    put(b, "k", "v1");
    assertThatThrownBy(() -> store().getObjectVersion(b, "k", "not-a-version"))
        .isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  default void aDeleteRemovesTheObjectAndQueuesIt() {
    String b = newBucket();
    put(b, "k", "v1", 7);
    DeleteResult d = store().deleteObject(b, "k");
    assertThat(d).isEqualTo(new DeleteResult("k", null, false));
    assertThatThrownBy(() -> store().getObject(b, "k")).isInstanceOf(NoSuchKeyException.class);
    assertThat(versions(b)).isEmpty();
    assertThat(gcQueue(b)).singleElement().satisfies(r -> {
      assertThat(r.kind()).isEqualTo(GarbageRecord.Kind.OBJECT_VERSION);
      assertThat(r.key()).isEqualTo("k");
      assertThat(r.size()).isEqualTo(7);
    });
  }

  @Test
  default void deletingAnAbsentKeyFailsWithNoSuchKey() {
    String b = newBucket();
    put(b, "other", "v");
    assertRefusedAndUnchanged(NoSuchKeyException.class, () -> store().deleteObject(b, "absent"));
  }

  @Test
  default void theNullVersionCanBeDeletedById() {
    String b = newBucket();
    put(b, "k", "v1");
    DeleteResult d = store().deleteObjectVersion(b, "k", "null");
    assertThat(d.versionId()).isEqualTo("null");
    assertThat(d.deleteMarker()).isFalse();
    assertThat(versions(b)).isEmpty();
    assertThat(gcQueue(b)).hasSize(1);
  }

  @Test
  default void deletingTheNullVersionOfAnAbsentKeyFailsWithNoSuchVersion() {
    String b = newBucket();
    assertRefusedAndUnchanged(NoSuchVersionException.class,
        () -> store().deleteObjectVersion(b, "absent", "null"));
  }

  @Test
  default void aDeletedKeyCanBeWrittenAgain() {
    String b = newBucket();
    put(b, "k", "v1");
    store().deleteObject(b, "k");
    put(b, "k", "v2");
    assertThat(store().getObject(b, "k").metadata().etag()).isEqualTo(Sample.md5Hex("v2"));
  }

  @Test
  default void keysAreIndependent() {
    String b = newBucket();
    put(b, "a", "va");
    put(b, "b", "vb");
    store().deleteObject(b, "a");
    assertThat(store().getObject(b, "b").metadata().etag()).isEqualTo(Sample.md5Hex("vb"));
    assertThat(currentKeys(b)).containsExactly("b");
  }

  @Test
  default void bucketsAreIndependent() {
    String b1 = newBucket();
    String b2 = newBucket();
    put(b1, "k", "one");
    assertThatThrownBy(() -> store().getObject(b2, "k")).isInstanceOf(NoSuchKeyException.class);
    put(b2, "k", "two");
    assertThat(store().getObject(b1, "k").metadata().etag()).isEqualTo(Sample.md5Hex("one"));
  }

  @Test
  default void anEmptyObjectIsAnObject() {
    String b = newBucket();
    put(b, "empty", "e", 0);
    assertThat(store().getObject(b, "empty").size()).isZero();
    assertThat(currentKeys(b)).containsExactly("empty");
  }

  @Test
  default void putOnAMissingBucketFailsWithNoSuchBucket() {
    assertRefusedAndUnchanged(NoSuchBucketException.class, () -> put(BucketNames.next(), "k", "v"));
  }

  @Test
  default void getOnAMissingBucketFailsWithNoSuchBucket() {
    assertThatThrownBy(() -> store().getObject(BucketNames.next(), "k"))
        .isInstanceOf(NoSuchBucketException.class);
    assertThatThrownBy(() -> store().getObjectVersion(BucketNames.next(), "k", "null"))
        .isInstanceOf(NoSuchBucketException.class);
  }

  @Test
  default void deleteOnAMissingBucketFailsWithNoSuchBucket() {
    assertRefusedAndUnchanged(NoSuchBucketException.class,
        () -> store().deleteObject(BucketNames.next(), "k"));
    assertRefusedAndUnchanged(NoSuchBucketException.class,
        () -> store().deleteObjectVersion(BucketNames.next(), "k", "null"));
  }

  @Test
  default void listingsOfAMissingBucketFailWithNoSuchBucket() {
    String missing = BucketNames.next();
    assertThatThrownBy(() -> store().listObjects(ListObjectsRequest.of(missing)))
        .isInstanceOf(NoSuchBucketException.class);
    assertThatThrownBy(() -> store().listObjectsV2(ListObjectsV2Request.of(missing)))
        .isInstanceOf(NoSuchBucketException.class);
    assertThatThrownBy(() -> store().listObjectVersions(ListVersionsRequest.of(missing)))
        .isInstanceOf(NoSuchBucketException.class);
  }

  @Test
  default void metadataUpdateAndBatchOnAMissingBucketFailWithNoSuchBucket() {
    String missing = BucketNames.next();
    assertRefusedAndUnchanged(NoSuchBucketException.class,
        () -> store().updateObjectMetadata(missing, "k", null, ObjectMetadataUpdate.tags(Map.of())));
    assertRefusedAndUnchanged(NoSuchBucketException.class,
        () -> store().getObjects(missing, List.of(ObjectRef.latest("k"))));
    assertRefusedAndUnchanged(NoSuchBucketException.class,
        () -> store().deleteObjects(missing, List.of(ObjectRef.latest("k"))));
  }
}
