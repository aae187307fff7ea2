package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectmeta.api.Capability;
import io.objectmeta.api.error.BucketAlreadyExistsException;
import io.objectmeta.api.error.BucketNotEmptyException;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.error.NoSuchKeyException;
import io.objectmeta.api.error.NoSuchUploadException;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.listing.BucketPage;
import io.objectmeta.api.listing.ListBucketsRequest;
import io.objectmeta.api.listing.ListObjectsRequest;
import io.objectmeta.api.listing.ListPartsRequest;
import io.objectmeta.api.listing.ListUploadsRequest;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.Json;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Buckets: create, get, update, delete, list, incarnations. */
public interface BucketContract extends StoreScenario {

  @Test
  default void aNewBucketIsUnversionedWithItsOwnerAndAttributes() {
    String name = BucketNames.next();
    Bucket b = store().createBucket(name, "alice", Json.object("{\"region\":\"eu\"}"));
    assertThat(b.name()).isEqualTo(name);
    assertThat(b.owner()).isEqualTo("alice");
    assertThat(b.versioning()).isEqualTo(VersioningState.UNVERSIONED);
    assertThat(b.attributes()).isEqualTo(Json.object("{\"region\":\"eu\"}"));
    assertThat(b.id()).isNotBlank();
    assertThat(store().getBucket(name)).isEqualTo(b);
  }

  @Test
  default void aBucketCreatedWithoutAttributesHasAnEmptyObject() {
    String name = newBucket();
    assertThat(store().getBucket(name).attributes()).isEqualTo(Json.object("{}"));
  }

  @Test
  default void creatingAnExistingBucketFailsWithBucketAlreadyExists() {
    String name = newBucket();
    assertRefusedAndUnchanged(BucketAlreadyExistsException.class,
        () -> store().createBucket(name, OWNER, null));
  }

  @Test
  default void creatingABucketAnotherOwnerHasFailsToo() {
    String name = newBucket();
    Bucket before = store().getBucket(name);
    assertThatThrownBy(() -> store().createBucket(name, "someone-else", Json.object("{\"x\":1}")))
        .isInstanceOf(BucketAlreadyExistsException.class);
    assertThat(store().getBucket(name)).isEqualTo(before);
  }

  @Test
  default void gettingAMissingBucketFailsWithNoSuchBucket() {
    assertThatThrownBy(() -> store().getBucket(BucketNames.next()))
        .isInstanceOf(NoSuchBucketException.class);
  }

  @Test
  default void versioningGoesFromUnversionedToEnabledToSuspendedAndBack() {
    String name = newBucket();
    assertThat(store().updateBucket(name, BucketUpdate.versioning(VersioningState.ENABLED)).versioning())
        .isEqualTo(VersioningState.ENABLED);
    assertThat(store().updateBucket(name, BucketUpdate.versioning(VersioningState.SUSPENDED)).versioning())
        .isEqualTo(VersioningState.SUSPENDED);
    assertThat(store().updateBucket(name, BucketUpdate.versioning(VersioningState.ENABLED)).versioning())
        .isEqualTo(VersioningState.ENABLED);
    assertThat(store().getBucket(name).versioning()).isEqualTo(VersioningState.ENABLED);
  }

  @Test
  default void unversionedIsForbiddenOnceVersioningWasEnabled() {
    String name = newBucket(VersioningState.ENABLED);
    assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().updateBucket(name, BucketUpdate.versioning(VersioningState.UNVERSIONED)));
    assertThat(store().getBucket(name).versioning()).isEqualTo(VersioningState.ENABLED);
  }

  @Test
  default void unversionedIsForbiddenOnASuspendedBucket() {
    String name = newBucket(VersioningState.SUSPENDED);
    assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().updateBucket(name, BucketUpdate.versioning(VersioningState.UNVERSIONED)));
    assertThat(store().getBucket(name).versioning()).isEqualTo(VersioningState.SUSPENDED);
  }

  @Test
  default void settingTheCurrentStateAgainChangesNothing() {
    String name = newBucket();
    Bucket before = store().getBucket(name);
    assertThat(store().updateBucket(name, BucketUpdate.versioning(VersioningState.UNVERSIONED)))
        .isEqualTo(before);
    setVersioning(name, VersioningState.ENABLED);
    Bucket enabled = store().getBucket(name);
    assertThat(store().updateBucket(name, BucketUpdate.versioning(VersioningState.ENABLED)))
        .isEqualTo(enabled);
  }

  @Test
  default void anOwnerUpdateLeavesVersioningAndAttributes() {
    String name = BucketNames.next();
    store().createBucket(name, "alice", Json.object("{\"a\":1}"));
    setVersioning(name, VersioningState.ENABLED);
    Bucket after = store().updateBucket(name, BucketUpdate.owner("bob"));
    assertThat(after.owner()).isEqualTo("bob");
    assertThat(after.versioning()).isEqualTo(VersioningState.ENABLED);
    assertThat(after.attributes()).isEqualTo(Json.object("{\"a\":1}"));
    assertThat(store().getBucket(name)).isEqualTo(after);
  }

  @Test
  default void anAttributesUpdateReplacesTheWholeObject() {
    String name = BucketNames.next();
    store().createBucket(name, "alice", Json.object("{\"a\":1,\"b\":2}"));
    Bucket after = store().updateBucket(name, BucketUpdate.attributes(Json.object("{\"c\":3}")));
    assertThat(after.attributes()).isEqualTo(Json.object("{\"c\":3}"));
    assertThat(after.owner()).isEqualTo("alice");
    assertThat(store().getBucket(name).attributes()).isEqualTo(Json.object("{\"c\":3}"));
  }

  @Test
  default void updatesKeepTheIncarnationIdAndCreationTime() {
    String name = newBucket();
    Bucket before = store().getBucket(name);
    Bucket after = store().updateBucket(name, new BucketUpdate(VersioningState.ENABLED, "carol",
        Json.object("{\"z\":true}")));
    assertThat(after.id()).isEqualTo(before.id());
    assertThat(after.created()).isEqualTo(before.created());
  }

  @Test
  default void updatingAMissingBucketFailsWithNoSuchBucket() {
    assertRefusedAndUnchanged(NoSuchBucketException.class,
        () -> store().updateBucket(BucketNames.next(), BucketUpdate.owner("x")));
  }

  @Test
  default void deletingABucketWithAnObjectFailsWithBucketNotEmpty() {
    String name = newBucket();
    put(name, "k", "v1");
    assertRefusedAndUnchanged(BucketNotEmptyException.class, () -> store().deleteBucket(name));
  }

  @Test
  default void aBucketHoldingOnlyDeleteMarkersIsNotEmpty() {
    String name = newBucket(VersioningState.ENABLED);
    store().deleteObject(name, "never-written");
    assertThat(currentKeys(name)).isEmpty();
    assertRefusedAndUnchanged(BucketNotEmptyException.class, () -> store().deleteBucket(name));
  }

  @Test
  default void aBucketHoldingOnlyHiddenVersionsIsNotEmpty() {
    String name = newBucket(VersioningState.ENABLED);
    put(name, "k", "v1");
    store().deleteObject(name, "k");
    assertRefusedAndUnchanged(BucketNotEmptyException.class, () -> store().deleteBucket(name));
  }

  @Test
  default void aBucketWhoseEveryVersionWasRemovedCanBeDeleted() {
    String name = newBucket(VersioningState.ENABLED);
    ObjectVersion v = put(name, "k", "v1");
    String marker = store().deleteObject(name, "k").versionId();
    store().deleteObjectVersion(name, "k", marker);
    store().deleteObjectVersion(name, "k", v.versionId());
    store().deleteBucket(name);
    assertThatThrownBy(() -> store().getBucket(name)).isInstanceOf(NoSuchBucketException.class);
  }

  @Test
  default void deletingAMissingBucketFailsWithNoSuchBucket() {
    assertRefusedAndUnchanged(NoSuchBucketException.class, () -> store().deleteBucket(BucketNames.next()));
  }

  @Test
  default void deletingABucketTwiceFailsTheSecondTime() {
    String name = newBucket();
    store().deleteBucket(name);
    assertThatThrownBy(() -> store().deleteBucket(name)).isInstanceOf(NoSuchBucketException.class);
  }

  @Test
  default void deletingABucketQueuesABucketRecord() {
    String name = newBucket();
    String id = store().getBucket(name).id();
    store().deleteBucket(name);
    assertThat(gcQueue(name)).singleElement().satisfies(r -> {
      assertThat(r.kind()).isEqualTo(GarbageRecord.Kind.BUCKET);
      assertThat(r.bucket()).isEqualTo(name);
      assertThat(r.bucketId()).isEqualTo(id);
      assertThat(r.key()).isNull();
      assertThat(r.versionId()).isNull();
      assertThat(r.deletedAt()).isNotNull();
    });
  }

  @Test
  default void deletingABucketAbortsItsUploadsAndQueuesTheirParts() {
    String name = newBucket();
    requireCapability(Capability.MULTIPART_UPLOADS,
        () -> store().initiateMultipartUpload(name, "big", Sample.object("big")));
    MultipartUpload u = store().initiateMultipartUpload(name, "big", Sample.object("big"));
    store().putPart(name, "big", u.uploadId(), Sample.part(1, "p1", 5));
    store().putPart(name, "big", u.uploadId(), Sample.part(2, "p2", 7));
    store().deleteBucket(name);

    List<GarbageRecord> records = gcQueue(name);
    assertThat(records).filteredOn(r -> r.kind() == GarbageRecord.Kind.PART)
        .extracting(GarbageRecord::partNumber, GarbageRecord::size, GarbageRecord::versionId)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(1, 5L, u.uploadId()),
            org.assertj.core.groups.Tuple.tuple(2, 7L, u.uploadId()));
    assertThat(records).filteredOn(r -> r.kind() == GarbageRecord.Kind.BUCKET).hasSize(1);

    store().createBucket(name, OWNER, null);
    assertThat(store().listMultipartUploads(ListUploadsRequest.of(name)).uploads()).isEmpty();
    assertThatThrownBy(() -> store().listParts(ListPartsRequest.of(name, "big", u.uploadId())))
        .isInstanceOf(NoSuchUploadException.class);
  }

  @Test
  default void theNameIsFreeAtOnceAfterADelete() {
    String name = newBucket();
    store().deleteBucket(name);
    Bucket again = store().createBucket(name, "other-owner", null);
    assertThat(again.owner()).isEqualTo("other-owner");
  }

  @Test
  default void aRecreatedBucketIsANewIncarnationThatSeesNothingOfTheOld() {
    String name = newBucket(VersioningState.ENABLED);
    Bucket old = store().getBucket(name);
    ObjectVersion v = put(name, "k", "v1");
    store().deleteObjectVersion(name, "k", v.versionId());
    store().deleteBucket(name);

    Bucket fresh = store().createBucket(name, OWNER, null);
    assertThat(fresh.id()).isNotEqualTo(old.id());
    assertThat(fresh.versioning()).isEqualTo(VersioningState.UNVERSIONED);
    assertThat(versions(name)).isEmpty();
    assertThat(store().listObjects(ListObjectsRequest.of(name)).contents()).isEmpty();
    assertThatThrownBy(() -> store().getObject(name, "k")).isInstanceOf(NoSuchKeyException.class);
    assertThat(store().bucketUsage(name)).isEqualTo(io.objectmeta.api.model.Usage.ZERO);
  }

  @Test
  default void listBucketsReturnsLiveBucketsInNameOrder() {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      names.add(newBucket());
    }
    store().deleteBucket(names.get(1));
    List<String> listed = store().listBuckets(ListBucketsRequest.all()).buckets().stream()
        .map(Bucket::name).toList();
    assertThat(listed).isSorted().contains(names.get(0), names.get(2), names.get(3))
        .doesNotContain(names.get(1));
  }

  @Test
  default void listBucketsOfAnOwnerListsOnlyTheirs() {
    String a = BucketNames.next();
    String b = BucketNames.next();
    String c = BucketNames.next();
    store().createBucket(a, "alice", null);
    store().createBucket(b, "bob", null);
    store().createBucket(c, "alice", null);
    assertThat(store().listBuckets(ListBucketsRequest.ofOwner("alice")).buckets())
        .extracting(Bucket::name).containsExactly(a, c);
    assertThat(store().listBuckets(ListBucketsRequest.ofOwner("nobody")).buckets()).isEmpty();
  }

  @Test
  default void listBucketsPagesByMarkerAndSaysExactlyWhenTruncated() {
    List<String> mine = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String n = BucketNames.next();
      store().createBucket(n, "pager", null);
      mine.add(n);
    }
    mine.sort(null);
    List<String> walked = new ArrayList<>();
    ListBucketsRequest r = ListBucketsRequest.ofOwner("pager").withMaxBuckets(2);
    List<Boolean> truncations = new ArrayList<>();
    while (true) {
      BucketPage page = store().listBuckets(r);
      page.buckets().forEach(b -> walked.add(b.name()));
      truncations.add(page.truncated());
      if (!page.truncated()) {
        assertThat(page.nextMarker()).isNull();
        break;
      }
      assertThat(page.nextMarker()).isEqualTo(page.buckets().get(page.buckets().size() - 1).name());
      r = r.withMarker(page.nextMarker());
    }
    assertThat(walked).isEqualTo(mine);
    assertThat(truncations).containsExactly(true, true, false);
  }

  @Test
  default void aPageEndingExactlyAtTheLastBucketIsNotTruncated() {
    for (int i = 0; i < 2; i++) {
      store().createBucket(BucketNames.next(), "exact", null);
    }
    BucketPage page = store().listBuckets(ListBucketsRequest.ofOwner("exact").withMaxBuckets(2));
    assertThat(page.buckets()).hasSize(2);
    assertThat(page.truncated()).isFalse();
  }

  @Test
  default void listBucketsWithMaxZeroIsEmptyAndNotTruncated() {
    newBucket();
    BucketPage page = store().listBuckets(ListBucketsRequest.all().withMaxBuckets(0));
    assertThat(page.buckets()).isEmpty();
    assertThat(page.truncated()).isFalse();
  }

  @Test
  default void objectCallsOnADeletedBucketFailWithNoSuchBucket() {
    String name = newBucket();
    store().deleteBucket(name);
    assertThatThrownBy(() -> put(name, "k", "v")).isInstanceOf(NoSuchBucketException.class);
    assertThatThrownBy(() -> store().getObject(name, "k")).isInstanceOf(NoSuchBucketException.class);
    assertThatThrownBy(() -> store().listObjects(ListObjectsRequest.of(name)))
        .isInstanceOf(NoSuchBucketException.class);
    assertThatThrownBy(() -> store().bucketUsage(name)).isInstanceOf(NoSuchBucketException.class);
  }
}
