package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.objectmeta.api.Capability;
import io.objectmeta.api.error.InvalidPartException;
import io.objectmeta.api.error.InvalidPartOrderException;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.error.NoSuchUploadException;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.listing.ListPartsRequest;
import io.objectmeta.api.listing.ListPartsResult;
import io.objectmeta.api.listing.ListUploadsRequest;
import io.objectmeta.api.listing.ListUploadsResult;
import io.objectmeta.api.model.CompletedPart;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.model.VersioningState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Multipart upload records: initiate, parts, list, complete, abort (capability MULTIPART_UPLOADS). */
public interface MultipartContract extends StoreScenario {

  @BeforeEach
  default void requireMultipart() {
    String b = newBucket();
    requireCapability(Capability.MULTIPART_UPLOADS,
        () -> store().initiateMultipartUpload(b, "k", Sample.object("k")));
  }

  default MultipartUpload initiate(String bucket, String key) {
    return store().initiateMultipartUpload(bucket, key, Sample.object(key, 0));
  }

  default Part putPart(String bucket, String key, MultipartUpload u, int n, String name, long size) {
    return store().putPart(bucket, key, u.uploadId(), Sample.part(n, name, size));
  }

  @Test
  default void anInitiatedUploadIsListed() {
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    assertThat(u.key()).isEqualTo("k");
    assertThat(u.uploadId()).isNotBlank();
    assertThat(store().listMultipartUploads(ListUploadsRequest.of(b)).uploads())
        .extracting(MultipartUpload::uploadId).containsExactly(u.uploadId());
    assertThat(currentKeys(b)).as("an upload is not an object").isEmpty();
  }

  @Test
  default void initiatingOnAMissingBucketFailsWithNoSuchBucket() {
    assertRefusedAndUnchanged(NoSuchBucketException.class,
        () -> initiate(BucketNames.next(), "k"));
  }

  @Test
  default void partsAreListedByNumberWithTheirLastModified() {
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 3, "p3", 30);
    putPart(b, "k", u, 1, "p1", 10);
    ListPartsResult r = store().listParts(ListPartsRequest.of(b, "k", u.uploadId()));
    assertThat(r.parts()).extracting(Part::partNumber, Part::size, Part::etag)
        .containsExactly(tuple(1, 10L, Sample.md5Hex("p1")), tuple(3, 30L, Sample.md5Hex("p3")));
    assertThat(r.parts()).allSatisfy(p -> assertThat(p.lastModified()).isNotNull());
    assertThat(r.truncated()).isFalse();
    assertThat(r.nextPartNumberMarker()).isZero();
  }

  @Test
  default void aPartWithTheSameNumberReplacesTheOldOneWhichGoesToGc() {
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 1, "old", 10);
    putPart(b, "k", u, 1, "new", 20);
    assertThat(store().listParts(ListPartsRequest.of(b, "k", u.uploadId())).parts())
        .singleElement().satisfies(p -> assertThat(p.etag()).isEqualTo(Sample.md5Hex("new")));
    assertThat(gcQueue(b)).singleElement().satisfies(r -> {
      assertThat(r.kind()).isEqualTo(GarbageRecord.Kind.PART);
      assertThat(r.key()).isEqualTo("k");
      assertThat(r.versionId()).isEqualTo(u.uploadId());
      assertThat(r.partNumber()).isEqualTo(1);
      assertThat(r.size()).isEqualTo(10);
      assertThat(r.dataLocations()).containsExactly(Sample.location("old", 0, 10));
    });
  }

  @Test
  default void listPartsPagesWithThePartNumberMarker() {
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    for (int n = 1; n <= 5; n++) {
      putPart(b, "k", u, n, "p" + n, n);
    }
    ListPartsRequest r = ListPartsRequest.of(b, "k", u.uploadId()).withMaxParts(2);
    List<Integer> seen = new ArrayList<>();
    List<Integer> markers = new ArrayList<>();
    while (true) {
      ListPartsResult page = store().listParts(r);
      page.parts().forEach(p -> seen.add(p.partNumber()));
      markers.add(page.nextPartNumberMarker());
      if (!page.truncated()) {
        break;
      }
      r = r.withPartNumberMarker(page.nextPartNumberMarker());
    }
    assertThat(seen).containsExactly(1, 2, 3, 4, 5);
    assertThat(markers).containsExactly(2, 4, 0);
  }

  @Test
  default void listPartsWithAMarkerStartsAboveIt() {
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 2, "p2", 1);
    putPart(b, "k", u, 7, "p7", 1);
    assertThat(store().listParts(ListPartsRequest.of(b, "k", u.uploadId()).withPartNumberMarker(2)).parts())
        .extracting(Part::partNumber).containsExactly(7);
  }

  @Test
  default void completionWritesOneObjectFromTheNamedParts() {
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 1, "p1", 5);
    putPart(b, "k", u, 2, "p2", 7);
    putPart(b, "k", u, 4, "p4", 3);
    ObjectVersion v = store().completeMultipartUpload(b, "k", u.uploadId(), List.of(
        new CompletedPart(1, Sample.md5Hex("p1")), new CompletedPart(2, Sample.md5Hex("p2")),
        new CompletedPart(4, Sample.md5Hex("p4"))));
    assertThat(v.size()).isEqualTo(15);
    assertThat(v.metadata().etag()).isEqualTo(Sample.multipartEtag(
        List.of(Sample.md5Hex("p1"), Sample.md5Hex("p2"), Sample.md5Hex("p4"))));
    assertThat(v.metadata().etag()).endsWith("-3");
    assertThat(v.metadata().dataLocations()).containsExactly(
        new DataLocation(Sample.DATA_STORE, "data/p1", 0, 5),
        new DataLocation(Sample.DATA_STORE, "data/p2", 5, 7),
        new DataLocation(Sample.DATA_STORE, "data/p4", 12, 3));
    assertThat(v.metadata().contentType()).isEqualTo(Sample.object("k", 0).contentType());
    assertThat(store().getObject(b, "k")).isEqualTo(v);
    assertThat(gcQueue(b)).as("named parts are the object's data now").isEmpty();
  }

  @Test
  default void completionAcceptsQuotedEtags() {
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 1, "p1", 5);
    ObjectVersion v = store().completeMultipartUpload(b, "k", u.uploadId(),
        List.of(new CompletedPart(1, "\"" + Sample.md5Hex("p1") + "\"")));
    assertThat(v.metadata().etag()).isEqualTo(Sample.multipartEtag(List.of(Sample.md5Hex("p1"))));
  }

  @Test
  default void partsLeftOutOfACompletionGoToGc() {
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 1, "p1", 5);
    putPart(b, "k", u, 2, "p2", 6);
    putPart(b, "k", u, 3, "p3", 7);
    store().completeMultipartUpload(b, "k", u.uploadId(), List.of(new CompletedPart(2, Sample.md5Hex("p2"))));
    assertThat(gcQueue(b)).extracting(GarbageRecord::kind, GarbageRecord::partNumber, GarbageRecord::size)
        .containsExactlyInAnyOrder(tuple(GarbageRecord.Kind.PART, 1, 5L), tuple(GarbageRecord.Kind.PART, 3, 7L));
  }

  @Test
  default void theUploadIsGoneAfterCompletion() {
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 1, "p1", 5);
    store().completeMultipartUpload(b, "k", u.uploadId(), List.of(new CompletedPart(1, Sample.md5Hex("p1"))));
    assertThat(store().listMultipartUploads(ListUploadsRequest.of(b)).uploads()).isEmpty();
    assertThatThrownBy(() -> store().listParts(ListPartsRequest.of(b, "k", u.uploadId())))
        .isInstanceOf(NoSuchUploadException.class);
    assertRefusedAndUnchanged(NoSuchUploadException.class, () -> store().completeMultipartUpload(b, "k",
        u.uploadId(), List.of(new CompletedPart(1, Sample.md5Hex("p1")))));
    assertRefusedAndUnchanged(NoSuchUploadException.class, () -> putPart(b, "k", u, 2, "p2", 1));
  }

  @Test
  default void aMissingPartIsInvalidPartAndChangesNothing() {
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 1, "p1", 5);
    assertRefusedAndUnchanged(InvalidPartException.class, () -> store().completeMultipartUpload(b, "k",
        u.uploadId(), List.of(new CompletedPart(1, Sample.md5Hex("p1")), new CompletedPart(2, Sample.md5Hex("p2")))));
  }

  @Test
  default void aWrongEtagIsInvalidPart() {
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 1, "p1", 5);
    assertRefusedAndUnchanged(InvalidPartException.class, () -> store().completeMultipartUpload(b, "k",
        u.uploadId(), List.of(new CompletedPart(1, Sample.md5Hex("other")))));
  }

  @Test
  default void partsOutOfOrderAreInvalidPartOrder() {
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 1, "p1", 5);
    putPart(b, "k", u, 2, "p2", 5);
    assertRefusedAndUnchanged(InvalidPartOrderException.class, () -> store().completeMultipartUpload(b, "k",
        u.uploadId(), List.of(new CompletedPart(2, Sample.md5Hex("p2")), new CompletedPart(1, Sample.md5Hex("p1")))));
    assertRefusedAndUnchanged(InvalidPartOrderException.class, () -> store().completeMultipartUpload(b, "k",
        u.uploadId(), List.of(new CompletedPart(1, Sample.md5Hex("p1")), new CompletedPart(1, Sample.md5Hex("p1")))));
  }

  @Test
  default void abortQueuesEveryPartAndEndsTheUpload() {
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 1, "p1", 5);
    putPart(b, "k", u, 2, "p2", 6);
    store().abortMultipartUpload(b, "k", u.uploadId());
    assertThat(gcQueue(b)).extracting(GarbageRecord::kind, GarbageRecord::partNumber, GarbageRecord::versionId)
        .containsExactlyInAnyOrder(tuple(GarbageRecord.Kind.PART, 1, u.uploadId()),
            tuple(GarbageRecord.Kind.PART, 2, u.uploadId()));
    assertThat(store().listMultipartUploads(ListUploadsRequest.of(b)).uploads()).isEmpty();
    assertRefusedAndUnchanged(NoSuchUploadException.class, () -> store().abortMultipartUpload(b, "k", u.uploadId()));
  }

  @Test
  default void anUploadBelongsToItsKey() {
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    assertRefusedAndUnchanged(NoSuchUploadException.class, () -> putPart(b, "other", u, 1, "p", 1));
    assertThatThrownBy(() -> store().listParts(ListPartsRequest.of(b, "other", u.uploadId())))
        .isInstanceOf(NoSuchUploadException.class);
  }

  @Test
  default void completingInAVersionedBucketMakesANewVersion() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion old = put(b, "k", "old");
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 1, "p1", 5);
    ObjectVersion v = store().completeMultipartUpload(b, "k", u.uploadId(),
        List.of(new CompletedPart(1, Sample.md5Hex("p1"))));
    assertThat(v.versionId()).isNotEqualTo("null");
    assertThat(versionIdsOf(b, "k")).containsExactly(v.versionId(), old.versionId());
    assertThat(gcQueue(b)).isEmpty();
  }

  @Test
  default void completingInAnUnversionedBucketReplacesTheObjectAndQueuesIt() {
    String b = newBucket();
    put(b, "k", "old", 99);
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 1, "p1", 5);
    ObjectVersion v = store().completeMultipartUpload(b, "k", u.uploadId(),
        List.of(new CompletedPart(1, Sample.md5Hex("p1"))));
    assertThat(v.versionId()).isEqualTo("null");
    assertThat(gcQueue(b)).singleElement().satisfies(r -> {
      assertThat(r.kind()).isEqualTo(GarbageRecord.Kind.OBJECT_VERSION);
      assertThat(r.size()).isEqualTo(99);
    });
  }

  @Test
  default void uploadsAreListedByKeyThenOldestFirst() {
    String b = newBucket();
    MultipartUpload b1 = initiate(b, "b");
    MultipartUpload a1 = initiate(b, "a");
    MultipartUpload b2 = initiate(b, "b");
    assertThat(store().listMultipartUploads(ListUploadsRequest.of(b)).uploads())
        .extracting(MultipartUpload::uploadId).containsExactly(a1.uploadId(), b1.uploadId(), b2.uploadId());
  }

  @Test
  default void uploadListingTakesPrefixAndDelimiter() {
    String b = newBucket();
    initiate(b, "dir/x");
    initiate(b, "dir/sub/y");
    MultipartUpload top = initiate(b, "top");
    ListUploadsResult r = store().listMultipartUploads(ListUploadsRequest.of(b).withDelimiter("/"));
    assertThat(r.commonPrefixes()).containsExactly("dir/");
    assertThat(r.uploads()).extracting(MultipartUpload::uploadId).containsExactly(top.uploadId());
    ListUploadsResult inDir = store().listMultipartUploads(
        ListUploadsRequest.of(b).withPrefix("dir/").withDelimiter("/"));
    assertThat(inDir.commonPrefixes()).containsExactly("dir/sub/");
    assertThat(inDir.uploads()).extracting(MultipartUpload::key).containsExactly("dir/x");
  }

  @Test
  default void uploadListingPagesWithKeyAndUploadIdMarkers() {
    String b = newBucket();
    List<String> expected = new ArrayList<>();
    MultipartUpload a1 = initiate(b, "a");
    MultipartUpload a2 = initiate(b, "a");
    MultipartUpload a3 = initiate(b, "a");
    MultipartUpload c1 = initiate(b, "c");
    expected.addAll(List.of(a1.uploadId(), a2.uploadId(), a3.uploadId(), c1.uploadId()));
    ListUploadsRequest r = ListUploadsRequest.of(b).withMaxUploads(2);
    List<String> seen = new ArrayList<>();
    ListUploadsResult first = store().listMultipartUploads(r);
    assertThat(first.truncated()).isTrue();
    assertThat(first.nextKeyMarker()).isEqualTo("a");
    assertThat(first.nextUploadIdMarker()).isEqualTo(a2.uploadId());
    while (true) {
      ListUploadsResult page = store().listMultipartUploads(r);
      page.uploads().forEach(u -> seen.add(u.uploadId()));
      if (!page.truncated()) {
        assertThat(page.nextKeyMarker()).isNull();
        assertThat(page.nextUploadIdMarker()).isNull();
        break;
      }
      r = r.withKeyMarker(page.nextKeyMarker()).withUploadIdMarker(page.nextUploadIdMarker());
    }
    assertThat(seen).isEqualTo(expected);
  }

  @Test
  default void aKeyMarkerAloneSkipsEveryUploadOfThatKey() {
    String b = newBucket();
    initiate(b, "a");
    initiate(b, "a");
    MultipartUpload c = initiate(b, "c");
    assertThat(store().listMultipartUploads(ListUploadsRequest.of(b).withKeyMarker("a")).uploads())
        .extracting(MultipartUpload::uploadId).containsExactly(c.uploadId());
  }

  @Test
  default void uploadsCountInUsageUntilCompleted() {
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 1, "p1", 5);
    putPart(b, "k", u, 2, "p2", 6);
    assertThat(store().bucketUsage(b).uploads()).isEqualTo(1);
    assertThat(store().bucketUsage(b).partBytes()).isEqualTo(11);
    store().completeMultipartUpload(b, "k", u.uploadId(), List.of(new CompletedPart(1, Sample.md5Hex("p1"))));
    var usage = store().bucketUsage(b);
    assertThat(usage.uploads()).isZero();
    assertThat(usage.partBytes()).isZero();
    assertThat(usage.currentObjects()).isEqualTo(1);
    assertThat(usage.currentBytes()).isEqualTo(5);
  }
  @Test
  default void aReplacedPartCountsOnlyOnceInUsage() {
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 1, "old", 10);
    putPart(b, "k", u, 1, "new", 4);
    assertThat(store().bucketUsage(b).partBytes()).isEqualTo(4);
  }

  @Test
  default void abortingAnUploadUncountsItsParts() {
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 1, "p1", 10);
    store().abortMultipartUpload(b, "k", u.uploadId());
    assertThat(store().bucketUsage(b)).isEqualTo(io.objectmeta.api.model.Usage.ZERO);
  }

  @Test
  default void deletingABucketWithAnUploadTakesItOutOfTheStoreUsage() {
    io.objectmeta.api.model.StoreUsage before = store().usage();
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 1, "p1", 10);
    store().deleteBucket(b);
    assertThat(store().usage()).isEqualTo(before);
  }

  @Test
  default void listPartsWithMaxZeroIsEmptyAndNotTruncated() {
    String b = newBucket();
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 1, "p1", 1);
    ListPartsResult r = store().listParts(ListPartsRequest.of(b, "k", u.uploadId()).withMaxParts(0));
    assertThat(r.parts()).isEmpty();
    assertThat(r.truncated()).isFalse();
  }

  @Test
  default void anUploadIsNotAVersionAndDoesNotKeepABucketFromBeingEmpty() {
    String b = newBucket();
    initiate(b, "k");
    assertThat(versions(b)).isEmpty();
    store().deleteBucket(b);
  }

  @Test
  default void completingInASuspendedBucketReplacesTheNullVersion() {
    String b = newBucket(VersioningState.SUSPENDED);
    put(b, "k", "n1", 8);
    MultipartUpload u = initiate(b, "k");
    putPart(b, "k", u, 1, "p1", 5);
    ObjectVersion v = store().completeMultipartUpload(b, "k", u.uploadId(),
        List.of(new CompletedPart(1, Sample.md5Hex("p1"))));
    assertThat(v.versionId()).isEqualTo("null");
    assertThat(versionsOf(b, "k")).hasSize(1);
    assertThat(gcQueue(b)).singleElement().satisfies(r -> assertThat(r.size()).isEqualTo(8));
  }
}
