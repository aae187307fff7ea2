package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.Capability;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.InvalidBucketNameException;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.listing.LifecycleRequest;
import io.objectmeta.api.listing.ListBucketsRequest;
import io.objectmeta.api.listing.ListObjectsRequest;
import io.objectmeta.api.listing.ListObjectsV2Request;
import io.objectmeta.api.listing.ListPartsRequest;
import io.objectmeta.api.listing.ListUploadsRequest;
import io.objectmeta.api.listing.ListVersionsRequest;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.CompletedPart;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.Json;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectMetadataUpdate;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.model.VersioningState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bad input: every rule of {@code Validation}, each refused with the typed error naming the field,
 * and the store unchanged afterwards.
 */
public interface ValidationContract extends StoreScenario {

  /** A bucket holding one object, so that an unchanged store has something to compare. */
  default String populated() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "k", "v1");
    store().deleteObject(b, "gone");
    return b;
  }

  default void assertInvalid(String field, ThrowingCallable call) {
    InvalidArgumentException e = assertRefusedAndUnchanged(InvalidArgumentException.class, call);
    assertThat(e.field()).as("the field the error names").isEqualTo(field);
    assertThat(e.getMessage()).contains(field);
  }

  default ObjectMetadata.Builder meta() {
    return Sample.object("v2").toBuilder();
  }

  default void assertMetadataInvalid(String field, ObjectMetadata m) {
    String b = populated();
    assertInvalid(field, () -> store().putObject(b, "k", m));
  }

  // ------------------------------------------------------------------------------ bucket names

  @ParameterizedTest
  @ValueSource(strings = {"ab", "a", "", "Upper-case", "under_score", "-leading", "trailing-",
      ".leading", "trailing.", "two..dots", "192.168.1.1", "xn--punycode", "sthree-bucket",
      "amzn-s3-demo-bucket", "name-s3alias", "name--ol-s3", "name.mrap", "name--x-s3",
      "name--table-s3", "space inside", "sla/sh", "\u00e9t\u00e9-bucket",
      "a234567890123456789012345678901234567890123456789012345678901234"})
  default void anInvalidBucketNameIsRefused(String name) {
    populated();
    assertRefusedAndUnchanged(InvalidBucketNameException.class, () -> store().createBucket(name, OWNER, null));
    assertRefusedAndUnchanged(InvalidBucketNameException.class, () -> store().getBucket(name));
  }

  @ParameterizedTest
  @ValueSource(strings = {"abc", "a-b", "a.b.c", "0bucket", "bucket9",
      "a23456789012345678901234567890123456789012345678901234567890123", "1.2.3.4.5", "xn-single"})
  default void aValidBucketNameIsAccepted(String name) {
    assertThat(store().createBucket(name, OWNER, null).name()).isEqualTo(name);
  }

  @Test
  default void aNullBucketNameIsRefused() {
    assertRefusedAndUnchanged(InvalidBucketNameException.class, () -> store().createBucket(null, OWNER, null));
  }

  @Test
  default void everyBucketCallChecksTheName() {
    populated();
    String bad = "Bad_Name";
    assertRefusedAndUnchanged(InvalidBucketNameException.class, () -> store().deleteBucket(bad));
    assertRefusedAndUnchanged(InvalidBucketNameException.class,
        () -> store().updateBucket(bad, BucketUpdate.owner("x")));
    assertRefusedAndUnchanged(InvalidBucketNameException.class, () -> store().bucketUsage(bad));
    assertRefusedAndUnchanged(InvalidBucketNameException.class, () -> put(bad, "k", "v"));
    assertRefusedAndUnchanged(InvalidBucketNameException.class,
        () -> store().listObjects(ListObjectsRequest.of(bad)));
  }

  // ------------------------------------------------------------------------------------- owners

  @Test
  default void anEmptyOwnerIsRefused() {
    populated();
    assertInvalid("owner", () -> store().createBucket(BucketNames.next(), "", null));
    assertInvalid("owner", () -> store().createBucket(BucketNames.next(), null, null));
  }

  @Test
  default void anOwnerOf257CharactersIsRefusedAnd256Accepted() {
    populated();
    assertInvalid("owner", () -> store().createBucket(BucketNames.next(), "o".repeat(257), null));
    assertThat(store().createBucket(BucketNames.next(), "o".repeat(256), null).owner()).hasSize(256);
  }

  @Test
  default void aBadOwnerUpdateIsRefused() {
    String b = populated();
    assertInvalid("update.owner", () -> store().updateBucket(b, BucketUpdate.owner("")));
    assertInvalid("update.owner", () -> store().updateBucket(b, BucketUpdate.owner("o".repeat(257))));
  }

  @Test
  default void aBadOwnerFilterIsRefused() {
    populated();
    assertInvalid("owner", () -> store().listBuckets(ListBucketsRequest.ofOwner("")));
  }

  @Test
  default void aNullBucketUpdateIsRefused() {
    String b = populated();
    assertInvalid("update", () -> store().updateBucket(b, null));
  }

  // --------------------------------------------------------------------------- JSON attributes

  default com.fasterxml.jackson.databind.node.ObjectNode bigJson(int bytes) {
    return Json.object("{\"x\":\"" + "y".repeat(bytes - 8) + "\"}");
  }

  @Test
  default void bucketAttributesOver64KiBAreRefused() {
    populated();
    assertThat(Json.serializedSize(bigJson(64 * 1024 + 1))).isEqualTo(64 * 1024 + 1);
    assertInvalid("attributes", () -> store().createBucket(BucketNames.next(), OWNER, bigJson(64 * 1024 + 1)));
  }

  @Test
  default void bucketAttributesOfExactly64KiBAreAccepted() {
    String name = BucketNames.next();
    store().createBucket(name, OWNER, bigJson(64 * 1024));
    assertThat(Json.serializedSize(store().getBucket(name).attributes())).isEqualTo(64 * 1024);
  }

  @Test
  default void anAttributesUpdateOver64KiBIsRefused() {
    String b = populated();
    assertInvalid("update.attributes",
        () -> store().updateBucket(b, BucketUpdate.attributes(bigJson(64 * 1024 + 1))));
  }

  // ---------------------------------------------------------------------------- object metadata

  @Test
  default void nullMetadataIsRefused() {
    assertMetadataInvalid("metadata", null);
  }

  @Test
  default void aNegativeSizeIsRefused() {
    assertMetadataInvalid("metadata.size", meta().size(-1).build());
  }

  @Test
  default void userMetadataOver2048BytesIsRefused() {
    assertMetadataInvalid("metadata.userMetadata",
        meta().userMetadata(Map.of("name", "v".repeat(2045))).build());
  }

  @Test
  default void userMetadataCountsUtf8BytesOfNamesAndValues() {
    // 4 + 1022 * 2 = 2048 bytes: allowed; one more two-byte character is not.
    String b = populated();
    store().putObject(b, "ok", meta().userMetadata(Map.of("name", "\u00e9".repeat(1022))).build());
    assertInvalid("metadata.userMetadata",
        () -> store().putObject(b, "k", meta().userMetadata(Map.of("name", "\u00e9".repeat(1023))).build()));
  }

  @Test
  default void anEmptyUserMetadataNameIsRefused() {
    assertMetadataInvalid("metadata.userMetadata", meta().userMetadata(Map.of("", "v")).build());
  }

  @Test
  default void aNullUserMetadataValueIsRefused() {
    Map<String, String> m = new HashMap<>();
    m.put("name", null);
    assertMetadataInvalid("metadata.userMetadata", meta().userMetadata(m).build());
  }

  @Test
  default void anUnpairedSurrogateInUserMetadataIsRefused() {
    assertMetadataInvalid("metadata.userMetadata", meta().userMetadata(Map.of("name", "\uD800")).build());
  }

  /** Text that no backend stores the same way: NUL, and surrogates without their pair. */
  String[] NOT_TEXT = {"a\u0000b", "a\uD800b", "\uDC00z"};

  @Test
  default void everyTextFieldRefusesNulAndLoneSurrogatesNamingTheField() {
    for (String bad : NOT_TEXT) {
      assertMetadataInvalid("metadata.etag", meta().etag(bad).build());
      assertMetadataInvalid("metadata.contentType", meta().contentType(bad).build());
      assertMetadataInvalid("metadata.owner", meta().owner(bad).build());
      assertMetadataInvalid("metadata.storageClass", meta().storageClass(bad).build());
      assertMetadataInvalid("metadata.replicationStatus", meta().replicationStatus(bad).build());
      assertMetadataInvalid("metadata.userMetadata", meta().userMetadata(Map.of("name", bad)).build());
      assertMetadataInvalid("metadata.tags", meta().tags(Map.of("t", bad)).build());
      assertMetadataInvalid("metadata.tags", meta().tags(Map.of(bad, "v")).build());
      assertMetadataInvalid("metadata.dataLocations.key",
          meta().dataLocations(List.of(new DataLocation("d", bad, 0, 1))).build());
      com.fasterxml.jackson.databind.node.ObjectNode attributes = Json.object("{}");
      attributes.put("a", bad);
      assertMetadataInvalid("metadata.attributes", meta().attributes(attributes).build());
      String b = populated();
      assertInvalid("owner", () -> store().createBucket(BucketNames.next(), bad, null));
      assertInvalid("attributes", () -> store().createBucket(BucketNames.next(), OWNER, attributes));
      assertInvalid("update.attributes", () -> store().updateBucket(b, BucketUpdate.attributes(attributes)));
      assertInvalid("update.tags", () -> store().updateObjectMetadata(b, "k", null,
          ObjectMetadataUpdate.tags(Map.of("t", bad))));
    }
  }

  @Test
  default void valuesSentBackAsHeadersRefuseControlCharacters() {
    for (String bad : new String[] {"v\r\nX-Injected: yes", "v\nw", "v\rw", "v\u0007", "v\u007f"}) {
      assertMetadataInvalid("metadata.etag", meta().etag(bad).build());
      assertMetadataInvalid("metadata.contentType", meta().contentType(bad).build());
      assertMetadataInvalid("metadata.userMetadata", meta().userMetadata(Map.of("name", bad)).build());
    }
    String b = populated();
    ObjectMetadata tab = meta().contentType("text/plain;\tcharset=utf-8")
        .userMetadata(Map.of("note", "caf\u00e9 \u65e5\u672c")).build();
    store().putObject(b, "tab", tab);
    assertThat(store().getObject(b, "tab").metadata().userMetadata()).isEqualTo(tab.userMetadata());
  }

  @Test
  default void userMetadataNamesAreHttpTokens() {
    for (String name : new String[] {"with space", "caf\u00e9", "a:b", "a/b", "(x)", "a\tb", "a\nb"}) {
      assertMetadataInvalid("metadata.userMetadata", meta().userMetadata(Map.of(name, "v")).build());
    }
    String b = populated();
    Map<String, String> tokens = Map.of("x-Camera_1.model", "a", "!#$%&'*+-.^_`|~", "b");
    store().putObject(b, "tokens", meta().userMetadata(tokens).build());
    assertThat(store().getObject(b, "tokens").metadata().userMetadata()).isEqualTo(tokens);
  }

  @Test
  default void storageClassesComeFromS3sSet() {
    for (String bad : new String[] {"BOGUS", "standard", "STANDARD ", "s".repeat(64)}) {
      assertMetadataInvalid("metadata.storageClass", meta().storageClass(bad).build());
    }
    String b = populated();
    for (String sc : new java.util.TreeSet<>(io.objectmeta.api.validation.Validation.STORAGE_CLASSES)) {
      store().putObject(b, "sc", meta().storageClass(sc).build());
      assertThat(store().getObject(b, "sc").metadata().storageClass()).isEqualTo(sc);
    }
  }

  @Test
  default void sizesAreBoundedByS3sLargestObjectAndPart() {
    long max = io.objectmeta.api.validation.Validation.MAX_OBJECT_SIZE;
    assertMetadataInvalid("metadata.size", meta().size(max + 1).build());
    assertMetadataInvalid("metadata.size", meta().size(Long.MAX_VALUE).build());
    String b = populated();
    store().putObject(b, "largest", meta().size(max).build());
    store().putObject(b, "largest", meta().size(max).build()); // and its predecessor, non-current
    assertThat(store().bucketUsage(b).currentBytes()).isGreaterThanOrEqualTo(max);
    assertThat(store().bucketUsage(b).nonCurrentBytes()).isGreaterThanOrEqualTo(max);
    assertInvalid("metadata.size", () -> store().putObject(b, "k", meta().size(Long.MAX_VALUE).build()));
    assertThat(store().usage().total().currentBytes()).isGreaterThanOrEqualTo(max);
  }

  @Test
  default void elevenTagsAreRefusedAndTenAccepted() {
    Map<String, String> ten = new LinkedHashMap<>();
    for (int i = 0; i < 10; i++) {
      ten.put("t" + i, "v");
    }
    String b = populated();
    store().putObject(b, "ten", meta().tags(ten).build());
    Map<String, String> eleven = new LinkedHashMap<>(ten);
    eleven.put("t10", "v");
    assertInvalid("metadata.tags", () -> store().putObject(b, "k", meta().tags(eleven).build()));
  }

  @Test
  default void aTagKeyOf129CharactersIsRefused() {
    assertMetadataInvalid("metadata.tags", meta().tags(Map.of("t".repeat(129), "v")).build());
  }

  @Test
  default void anEmptyTagKeyIsRefused() {
    assertMetadataInvalid("metadata.tags", meta().tags(Map.of("", "v")).build());
  }

  @Test
  default void aTagValueOf257CharactersIsRefused() {
    assertMetadataInvalid("metadata.tags", meta().tags(Map.of("t", "v".repeat(257))).build());
  }

  @Test
  default void tagLimitsAreInclusive() {
    String b = populated();
    store().putObject(b, "edge", meta().tags(Map.of("t".repeat(128), "v".repeat(256))).build());
    assertThat(store().getObject(b, "edge").metadata().tags()).containsKey("t".repeat(128));
  }

  @Test
  default void anEtagOver1024CharactersIsRefused() {
    assertMetadataInvalid("metadata.etag", meta().etag("e".repeat(1025)).build());
  }

  @Test
  default void aContentTypeOver1024CharactersIsRefused() {
    assertMetadataInvalid("metadata.contentType", meta().contentType("c".repeat(1025)).build());
  }

  @Test
  default void anObjectOwnerOver256CharactersIsRefused() {
    assertMetadataInvalid("metadata.owner", meta().owner("o".repeat(257)).build());
  }

  @Test
  default void anEmptyOrLongStorageClassIsRefused() {
    assertMetadataInvalid("metadata.storageClass", meta().storageClass("").build());
    assertMetadataInvalid("metadata.storageClass", meta().storageClass("S".repeat(65)).build());
  }

  @Test
  default void anEmptyOrLongReplicationStatusIsRefused() {
    assertMetadataInvalid("metadata.replicationStatus", meta().replicationStatus("").build());
    assertMetadataInvalid("metadata.replicationStatus", meta().replicationStatus("R".repeat(65)).build());
  }

  @Test
  default void moreThan10000DataLocationsAreRefused() {
    List<DataLocation> many = new ArrayList<>();
    for (int i = 0; i <= 10_000; i++) {
      many.add(new DataLocation("s", "k" + i, i, 1));
    }
    assertMetadataInvalid("metadata.dataLocations", meta().dataLocations(many).build());
  }

  @Test
  default void aNegativeDataLocationOffsetOrSizeIsRefused() {
    assertMetadataInvalid("metadata.dataLocations",
        meta().dataLocations(List.of(new DataLocation("s", "k", -1, 1))).build());
    assertMetadataInvalid("metadata.dataLocations",
        meta().dataLocations(List.of(new DataLocation("s", "k", 0, -1))).build());
  }

  @Test
  default void anAclOver64KiBIsRefused() {
    assertMetadataInvalid("metadata.acl", meta().acl(bigJson(64 * 1024 + 1)).build());
  }

  @Test
  default void objectAttributesOver64KiBAreRefused() {
    assertMetadataInvalid("metadata.attributes", meta().attributes(bigJson(64 * 1024 + 1)).build());
  }

  @Test
  default void multipartInitiationValidatesMetadataToo() {
    String b = populated();
    requireCapability(Capability.MULTIPART_UPLOADS,
        () -> store().initiateMultipartUpload(b, "m", Sample.object("m")));
    assertInvalid("metadata.size", () -> store().initiateMultipartUpload(b, "m", meta().size(-5).build()));
  }

  // ------------------------------------------------------------------------- metadata updates

  @Test
  default void aNullUpdateIsRefused() {
    String b = populated();
    assertInvalid("update", () -> store().updateObjectMetadata(b, "k", null, null));
  }

  @Test
  default void anUpdateWithElevenTagsIsRefused() {
    String b = populated();
    Map<String, String> eleven = new HashMap<>();
    for (int i = 0; i < 11; i++) {
      eleven.put("t" + i, "v");
    }
    assertInvalid("update.tags", () -> store().updateObjectMetadata(b, "k", null, ObjectMetadataUpdate.tags(eleven)));
  }

  @Test
  default void anUpdateWithAnEmptyReplicationStatusIsRefused() {
    String b = populated();
    assertInvalid("update.replicationStatus",
        () -> store().updateObjectMetadata(b, "k", null, ObjectMetadataUpdate.replicationStatus("")));
  }

  @Test
  default void anUpdateWithABigAclOrAttributesIsRefused() {
    String b = populated();
    assertInvalid("update.acl",
        () -> store().updateObjectMetadata(b, "k", null, ObjectMetadataUpdate.acl(bigJson(64 * 1024 + 1))));
    assertInvalid("update.attributes",
        () -> store().updateObjectMetadata(b, "k", null, ObjectMetadataUpdate.attributes(bigJson(64 * 1024 + 1))));
  }

  @Test
  default void anUpdateOfAMalformedVersionIdIsRefused() {
    String b = populated();
    assertInvalid("versionId",
        () -> store().updateObjectMetadata(b, "k", "bad", ObjectMetadataUpdate.tags(Map.of())));
  }

  // ------------------------------------------------------------------------------ version ids

  @Test
  default void aNullVersionIdIsRefused() {
    String b = populated();
    assertInvalid("versionId", () -> store().getObjectVersion(b, "k", null));
    assertInvalid("versionId", () -> store().deleteObjectVersion(b, "k", null));
  }

  @Test
  default void aVersionIdOfTheRightLengthButNotBase32IsRefused() {
    String b = populated();
    assertInvalid("versionId", () -> store().getObjectVersion(b, "k", "uuuuuuuuuuuuuuuuuuuuuuuu"));
    assertInvalid("versionId", () -> store().deleteObjectVersion(b, "k", "NULL"));
  }

  // --------------------------------------------------------------------------------- max keys

  @Test
  default void maxKeysOutOfRangeIsRefusedOnEveryListing() {
    String b = populated();
    for (int bad : new int[] {-1, 1001}) {
      assertInvalid("maxKeys", () -> store().listObjects(ListObjectsRequest.of(b).withMaxKeys(bad)));
      assertInvalid("maxKeys", () -> store().listObjectsV2(ListObjectsV2Request.of(b).withMaxKeys(bad)));
      assertInvalid("maxKeys", () -> store().listObjectVersions(ListVersionsRequest.of(b).withMaxKeys(bad)));
      assertInvalid("maxBuckets", () -> store().listBuckets(ListBucketsRequest.all().withMaxBuckets(bad)));
    }
  }

  @Test
  default void maxKeysOf1000IsAccepted() {
    String b = populated();
    assertThat(store().listObjects(ListObjectsRequest.of(b).withMaxKeys(1000)).contents()).hasSize(1);
  }

  @Test
  default void maxUploadsAndMaxPartsOutOfRangeAreRefused() {
    String b = populated();
    requireCapability(Capability.MULTIPART_UPLOADS,
        () -> store().listMultipartUploads(ListUploadsRequest.of(b)));
    MultipartUpload u = store().initiateMultipartUpload(b, "m", Sample.object("m"));
    assertInvalid("maxUploads", () -> store().listMultipartUploads(ListUploadsRequest.of(b).withMaxUploads(-1)));
    assertInvalid("maxUploads", () -> store().listMultipartUploads(ListUploadsRequest.of(b).withMaxUploads(1001)));
    assertInvalid("maxParts", () -> store().listParts(ListPartsRequest.of(b, "m", u.uploadId()).withMaxParts(1001)));
    assertInvalid("partNumberMarker",
        () -> store().listParts(ListPartsRequest.of(b, "m", u.uploadId()).withPartNumberMarker(-1)));
    assertInvalid("partNumberMarker",
        () -> store().listParts(ListPartsRequest.of(b, "m", u.uploadId()).withPartNumberMarker(10_001)));
  }

  @Test
  default void lifecycleMaxKeysOutOfRangeIsRefused() {
    String b = populated();
    requireCapability(Capability.LIFECYCLE_LISTINGS,
        () -> store().listCurrentOlderThan(LifecycleRequest.of(b)));
    assertInvalid("maxKeys", () -> store().listCurrentOlderThan(LifecycleRequest.of(b).withMaxKeys(1001)));
    assertInvalid("maxKeys", () -> store().listNonCurrentVersions(LifecycleRequest.of(b).withMaxKeys(-1)));
    assertInvalid("maxKeys", () -> store().listOrphanDeleteMarkers(LifecycleRequest.of(b).withMaxKeys(1001)));
  }

  @Test
  default void aNullListingRequestIsRefused() {
    populated();
    assertInvalid("request", () -> store().listObjects(null));
    assertInvalid("request", () -> store().listObjectsV2(null));
    assertInvalid("request", () -> store().listObjectVersions(null));
    assertInvalid("request", () -> store().listBuckets(null));
  }

  // -------------------------------------------------------------------------------- multipart

  default MultipartUpload upload(String b) {
    requireCapability(Capability.MULTIPART_UPLOADS,
        () -> store().initiateMultipartUpload(b, "m", Sample.object("m")));
    return store().initiateMultipartUpload(b, "m", Sample.object("m"));
  }

  @Test
  default void partNumbersOutsideOneTo10000AreRefused() {
    String b = populated();
    MultipartUpload u = upload(b);
    assertInvalid("part.partNumber", () -> store().putPart(b, "m", u.uploadId(), Sample.part(0, "p", 1)));
    assertInvalid("part.partNumber", () -> store().putPart(b, "m", u.uploadId(), Sample.part(10_001, "p", 1)));
    store().putPart(b, "m", u.uploadId(), Sample.part(10_000, "p", 1));
  }

  @Test
  default void aNegativePartSizeOrNullEtagIsRefused() {
    String b = populated();
    MultipartUpload u = upload(b);
    assertInvalid("part.size", () -> store().putPart(b, "m", u.uploadId(), Part.of(1, -1, "e", List.of())));
    assertInvalid("part.etag", () -> store().putPart(b, "m", u.uploadId(), Part.of(1, 1, null, List.of())));
    assertInvalid("part", () -> store().putPart(b, "m", u.uploadId(), null));
  }

  @Test
  default void aMalformedUploadIdIsRefused() {
    String b = populated();
    upload(b);
    assertInvalid("uploadId", () -> store().putPart(b, "m", "nope", Sample.part(1, "p", 1)));
    assertInvalid("uploadId", () -> store().abortMultipartUpload(b, "m", "nope"));
    assertInvalid("uploadId", () -> store().listParts(ListPartsRequest.of(b, "m", "nope")));
    assertInvalid("uploadId", () -> store().completeMultipartUpload(b, "m", null,
        List.of(new CompletedPart(1, "e"))));
  }

  @Test
  default void aCompletionNamingNoPartsIsRefused() {
    String b = populated();
    MultipartUpload u = upload(b);
    assertInvalid("parts", () -> store().completeMultipartUpload(b, "m", u.uploadId(), List.of()));
    assertInvalid("parts", () -> store().completeMultipartUpload(b, "m", u.uploadId(), null));
  }

  @Test
  default void aCompletionWithABadPartNumberIsRefused() {
    String b = populated();
    MultipartUpload u = upload(b);
    assertInvalid("parts[0].partNumber", () -> store().completeMultipartUpload(b, "m", u.uploadId(),
        List.of(new CompletedPart(0, "e"))));
    assertInvalid("parts[0].etag", () -> store().completeMultipartUpload(b, "m", u.uploadId(),
        List.of(new CompletedPart(1, null))));
  }

  @Test
  default void anUploadIdMarkerWithoutKeyMarkerIsRefused() {
    String b = populated();
    MultipartUpload u = upload(b);
    assertInvalid("uploadIdMarker",
        () -> store().listMultipartUploads(ListUploadsRequest.of(b).withUploadIdMarker(u.uploadId())));
  }

  // -------------------------------------------------------------------------------- GC claims

  @Test
  default void aClaimOutsideItsLimitsIsRefused() {
    populated();
    assertInvalid("max", () -> store().claimGarbage(0, Duration.ZERO, Duration.ofSeconds(1)));
    assertInvalid("max", () -> store().claimGarbage(10_001, Duration.ZERO, Duration.ofSeconds(1)));
    assertInvalid("gracePeriod", () -> store().claimGarbage(1, Duration.ofSeconds(-1), Duration.ofSeconds(1)));
    assertInvalid("gracePeriod", () -> store().claimGarbage(1, null, Duration.ofSeconds(1)));
    assertInvalid("lease", () -> store().claimGarbage(1, Duration.ZERO, Duration.ZERO));
    assertInvalid("lease", () -> store().claimGarbage(1, Duration.ZERO, Duration.ofSeconds(-1)));
  }

  @Test
  default void acknowledgeAndReleaseRefuseNulls() {
    populated();
    assertInvalid("claimId", () -> store().acknowledgeGarbage(null, List.of("x")));
    assertInvalid("recordIds", () -> store().acknowledgeGarbage("c", null));
    assertInvalid("claimId", () -> store().releaseGarbage(null, List.of("x")));
    assertInvalid("recordIds", () -> store().releaseGarbage("c", null));
  }

  @Test
  default void aNullConditionIsRefused() {
    String b = populated();
    assertInvalid("condition", () -> store().putObject(b, "k", Sample.object("x"), null));
  }

  @Test
  default void everyRefusalIsAMetadataExceptionWithAnS3Code() {
    String b = populated();
    MetadataException e = assertRefusedAndUnchanged(MetadataException.class,
        () -> store().listObjects(ListObjectsRequest.of(b).withMaxKeys(-1)));
    assertThat(e.code()).isEqualTo("InvalidArgument");
    assertThat(e.httpStatus()).isEqualTo(400);
    assertThat(e.isRetryable()).isFalse();
  }
}
