package io.objectmeta.api.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.InvalidBucketNameException;
import io.objectmeta.api.error.KeyTooLongException;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.Json;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectMetadataUpdate;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.version.VersionId;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class ValidationTest {

  private static void ok(Executable call) {
    assertThatCode(call::execute).doesNotThrowAnyException();
  }

  private static InvalidArgumentException invalid(String field, Executable call) {
    Throwable t = catchThrowable(call::execute);
    assertThat(t).as("expected InvalidArgumentException for field " + field)
        .isInstanceOf(InvalidArgumentException.class);
    InvalidArgumentException e = (InvalidArgumentException) t;
    assertThat(e.field()).isEqualTo(field);
    assertThat(e.getMessage()).startsWith(field + ": ");
    assertThat(e.code()).isEqualTo("InvalidArgument");
    assertThat(e.httpStatus()).isEqualTo(400);
    assertThat(e.isRetryable()).isFalse();
    return e;
  }

  private static void badBucket(String name) {
    Throwable t = catchThrowable(() -> Validation.bucketName(name));
    assertThat(t).as("bucket name %s", name).isInstanceOf(InvalidBucketNameException.class);
    assertThat(t.getMessage()).startsWith("bucket: ");
    assertThat(((MetadataException) t).code()).isEqualTo("InvalidBucketName");
    assertThat(((MetadataException) t).httpStatus()).isEqualTo(400);
  }

  private static String bytesOf(int n, String unit) {
    return unit.repeat(n);
  }

  private static ObjectNode jsonOfSize(int bytes) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("a", "x".repeat(bytes - 8)); // {"a":"..."} is 8 bytes plus the value
    assertThat(Json.serializedSize(n)).isEqualTo(bytes);
    return n;
  }

  // ---- bucket names

  @Test
  void bucketNameLength() {
    badBucket(null);
    badBucket("");
    badBucket("a");
    badBucket("ab");
    ok(() -> Validation.bucketName("abc"));
    ok(() -> Validation.bucketName("a".repeat(63)));
    badBucket("a".repeat(64));
    assertThat(catchThrowable(() -> Validation.bucketName("ab")).getMessage()).contains("3 to 63");
    assertThat(catchThrowable(() -> Validation.bucketName("a".repeat(64))).getMessage()).contains("3 to 63");
  }

  @Test
  void bucketNameCharacters() {
    ok(() -> Validation.bucketName("my.bucket-1"));
    ok(() -> Validation.bucketName("1bucket9"));
    ok(() -> Validation.bucketName("a-b"));
    ok(() -> Validation.bucketName("a.b"));
    ok(() -> Validation.bucketName("a-.b"));
    badBucket("Abc");
    badBucket("abC");
    badBucket("aBc");
    badBucket("ab_c");
    badBucket("ab c");
    badBucket("ab\u00e9");
    badBucket("-abc");
    badBucket("abc-");
    badBucket(".abc");
    badBucket("abc.");
    badBucket("ab/c");
    badBucket("a..b");
    badBucket("abc..def");
    assertThat(catchThrowable(() -> Validation.bucketName("a..b")).getMessage()).contains("adjacent periods");
  }

  @Test
  void bucketNameIsNoIpAddress() {
    badBucket("192.168.1.1");
    badBucket("1.2.3.4");
    badBucket("999.999.999.999");
    assertThat(catchThrowable(() -> Validation.bucketName("10.0.0.1")).getMessage()).contains("IP address");
    ok(() -> Validation.bucketName("1.2.3.4a"));
    ok(() -> Validation.bucketName("1.2.3"));
    ok(() -> Validation.bucketName("1.2.3.4.5"));
    ok(() -> Validation.bucketName("1234.2.3.4"));
  }

  @Test
  void bucketNameReservedPrefixesAndSuffixes() {
    for (String p : List.of("xn--", "sthree-", "amzn-s3-demo-")) {
      badBucket(p + "bucket");
      assertThat(catchThrowable(() -> Validation.bucketName(p + "bucket")).getMessage())
          .contains("reserved prefix \"" + p + "\"");
    }
    badBucket("sthree-configurator");
    for (String s : List.of("-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3")) {
      badBucket("bucket" + s);
      assertThat(catchThrowable(() -> Validation.bucketName("bucket" + s)).getMessage())
          .contains("reserved suffix \"" + s + "\"");
    }
    ok(() -> Validation.bucketName("xn-bucket"));
    ok(() -> Validation.bucketName("bucket-xn--a"));
    ok(() -> Validation.bucketName("sthree"));
    ok(() -> Validation.bucketName("amzn-s3-demo"));
    ok(() -> Validation.bucketName("bucket-s3alias1"));
    ok(() -> Validation.bucketName("bucket-ol-s3"));
    ok(() -> Validation.bucketName("bucket-mrap"));
    ok(() -> Validation.bucketName("bucket-x-s3"));
    ok(() -> Validation.bucketName("bucket-table-s3"));
  }

  // ---- keys

  @Test
  void keyMustNotBeEmpty() {
    invalid("key", () -> Validation.key(null));
    invalid("key", () -> Validation.key(""));
    invalid("refs[2].key", () -> Validation.key("refs[2].key", ""));
    ok(() -> Validation.key("a"));
    ok(() -> Validation.key("\0"));
  }

  @Test
  void keyAtMost1024BytesOfUtf8() {
    for (String unit : List.of("a", "\u00e9", "\uD83D\uDE00")) {
      int per = unit.getBytes(StandardCharsets.UTF_8).length;
      String exact = bytesOf(1024 / per, unit);
      assertThat(exact.getBytes(StandardCharsets.UTF_8)).hasSize(1024);
      ok(() -> Validation.key(exact));
      String over = exact + "a";
      Throwable t = catchThrowable(() -> Validation.key(over));
      assertThat(t).isInstanceOf(KeyTooLongException.class);
      assertThat(t.getMessage()).startsWith("key: ").contains("1024").contains("got 1025");
      assertThat(((MetadataException) t).code()).isEqualTo("KeyTooLongError");
    }
    // 3-byte characters: 341 of them are 1023 bytes
    String euro = "\u20ac".repeat(341);
    ok(() -> Validation.key(euro + "a"));
    assertThat(catchThrowable(() -> Validation.key(euro + "ab"))).isInstanceOf(KeyTooLongException.class);
    // fewer than 1024 chars, more than 1024 bytes
    assertThat(catchThrowable(() -> Validation.key("\u00e9".repeat(513)))).isInstanceOf(KeyTooLongException.class);
    Throwable other = catchThrowable(() -> Validation.key("refs[0].key", "a".repeat(1025)));
    assertThat(other).isInstanceOf(KeyTooLongException.class);
    assertThat(other.getMessage()).startsWith("refs[0].key: ");
  }

  @Test
  void keyMustBeWellFormed() {
    InvalidArgumentException e = invalid("key", () -> Validation.key("a\uD800b"));
    assertThat(e.getMessage()).contains("well-formed");
    invalid("key", () -> Validation.key("\uDC00"));
    invalid("key", () -> Validation.key("a\uD83D"));
    invalid("uploads.key", () -> Validation.key("uploads.key", "\uD800"));
    ok(() -> Validation.key("\uD83D\uDE00"));
  }

  @Test
  void keyLikeArguments() {
    ok(() -> Validation.optionalKeyLike("prefix", null));
    ok(() -> Validation.optionalKeyLike("prefix", ""));
    ok(() -> Validation.optionalKeyLike("prefix", "\u00e9".repeat(512)));
    InvalidArgumentException e = invalid("marker", () -> Validation.optionalKeyLike("marker", "\u00e9".repeat(512) + "a"));
    assertThat(e.getMessage()).contains("got 1025");
    invalid("delimiter", () -> Validation.optionalKeyLike("delimiter", "\uD800"));
  }

  // ---- counts

  @Test
  void maxKeysRange() {
    invalid("maxKeys", () -> Validation.maxKeys("maxKeys", -1));
    invalid("maxKeys", () -> Validation.maxKeys("maxKeys", Integer.MIN_VALUE));
    ok(() -> Validation.maxKeys("maxKeys", 0));
    ok(() -> Validation.maxKeys("maxKeys", 1));
    ok(() -> Validation.maxKeys("maxKeys", 1000));
    InvalidArgumentException e = invalid("maxUploads", () -> Validation.maxKeys("maxUploads", 1001));
    assertThat(e.getMessage()).contains("got 1001");
  }

  @Test
  void ownerLength() {
    invalid("owner", () -> Validation.owner("owner", null));
    invalid("owner", () -> Validation.owner("owner", ""));
    ok(() -> Validation.owner("owner", "o"));
    ok(() -> Validation.owner("owner", "o".repeat(256)));
    invalid("update.owner", () -> Validation.owner("update.owner", "o".repeat(257)));
  }

  @Test
  void batchSize() {
    InvalidArgumentException none = invalid("refs", () -> Validation.batchSize("refs", null));
    assertThat(none.getMessage()).contains("got 0");
    invalid("refs", () -> Validation.batchSize("refs", List.of()));
    ok(() -> Validation.batchSize("refs", List.of(1)));
    ok(() -> Validation.batchSize("refs", Collections.nCopies(1000, 1)));
    InvalidArgumentException over = invalid("refs", () -> Validation.batchSize("refs", Collections.nCopies(1001, 1)));
    assertThat(over.getMessage()).contains("got 1001");
  }

  @Test
  void partNumbers() {
    invalid("part.partNumber", () -> Validation.partNumber("part.partNumber", -1));
    invalid("part.partNumber", () -> Validation.partNumber("part.partNumber", 0));
    ok(() -> Validation.partNumber("p", 1));
    ok(() -> Validation.partNumber("p", 10000));
    InvalidArgumentException e = invalid("parts[0].partNumber", () -> Validation.partNumber("parts[0].partNumber", 10001));
    assertThat(e.getMessage()).contains("got 10001");
  }

  @Test
  void claimArguments() {
    Duration grace = Duration.ofMinutes(1);
    Duration lease = Duration.ofSeconds(30);
    invalid("max", () -> Validation.claim(0, grace, lease));
    invalid("max", () -> Validation.claim(-1, grace, lease));
    ok(() -> Validation.claim(1, grace, lease));
    ok(() -> Validation.claim(10_000, grace, lease));
    invalid("max", () -> Validation.claim(10_001, grace, lease));
    invalid("gracePeriod", () -> Validation.claim(1, null, lease));
    invalid("gracePeriod", () -> Validation.claim(1, Duration.ofNanos(-1), lease));
    ok(() -> Validation.claim(1, Duration.ZERO, lease));
    invalid("lease", () -> Validation.claim(1, grace, null));
    invalid("lease", () -> Validation.claim(1, grace, Duration.ZERO));
    invalid("lease", () -> Validation.claim(1, grace, Duration.ofNanos(-1)));
    ok(() -> Validation.claim(1, grace, Duration.ofNanos(1)));
  }

  @Test
  void notNull() {
    assertThat(Validation.notNull("x", "v")).isEqualTo("v");
    invalid("request", () -> Validation.notNull("request", null));
  }

  // ---- version and upload ids

  @Test
  void versionIds() {
    invalid("versionId", () -> Validation.versionId("versionId", null));
    ok(() -> Validation.versionId("versionId", "null"));
    ok(() -> Validation.versionId("versionId", new VersionId(1, 2, 3).encode()));
    invalid("refs[1].versionId", () -> Validation.versionId("refs[1].versionId", "NULL"));
    invalid("versionId", () -> Validation.versionId("versionId", ""));
    invalid("uploadId", () -> Validation.uploadId(null));
    invalid("uploadId", () -> Validation.uploadId("null"));
    invalid("uploadId", () -> Validation.uploadId("abc"));
    ok(() -> Validation.uploadId(new VersionId(1, 2, 3).encodeOldestFirst()));
  }

  // ---- JSON

  @Test
  void jsonAtMost64KiB() {
    ok(() -> Validation.json("attributes", null));
    ok(() -> Validation.json("attributes", jsonOfSize(65536)));
    InvalidArgumentException e = invalid("attributes", () -> Validation.json("attributes", jsonOfSize(65537)));
    assertThat(e.getMessage()).contains("65536").contains("got 65537");
  }

  // ---- metadata

  private static ObjectMetadata.Builder meta() {
    return ObjectMetadata.builder().size(1).etag("e");
  }

  @Test
  void metadataScalars() {
    invalid("metadata", () -> Validation.metadata(null));
    ok(() -> Validation.metadata(meta().build()));
    ok(() -> Validation.metadata(meta().size(0).build()));
    InvalidArgumentException size = invalid("metadata.size", () -> Validation.metadata(meta().size(-1).build()));
    assertThat(size.getMessage()).contains("got -1");
    ok(() -> Validation.metadata(meta().etag("e".repeat(1024)).contentType("c".repeat(1024)).build()));
    invalid("metadata.etag", () -> Validation.metadata(meta().etag("e".repeat(1025)).build()));
    invalid("metadata.contentType", () -> Validation.metadata(meta().contentType("c".repeat(1025)).build()));
    ok(() -> Validation.metadata(meta().owner("o".repeat(256)).build()));
    invalid("metadata.owner", () -> Validation.metadata(meta().owner("o".repeat(257)).build()));
    for (String sc : Validation.STORAGE_CLASSES) {
      ok(() -> Validation.metadata(meta().storageClass(sc).build()));
    }
    invalid("metadata.storageClass", () -> Validation.metadata(meta().storageClass("").build()));
    invalid("metadata.storageClass", () -> Validation.metadata(meta().storageClass("BOGUS").build()));
    invalid("metadata.storageClass", () -> Validation.metadata(meta().storageClass("standard").build()));
    ok(() -> Validation.metadata(meta().replicationStatus("PENDING").build()));
    ok(() -> Validation.metadata(meta().replicationStatus("r".repeat(64)).build()));
    invalid("metadata.replicationStatus", () -> Validation.metadata(meta().replicationStatus("").build()));
    invalid("metadata.replicationStatus", () -> Validation.metadata(meta().replicationStatus("r".repeat(65)).build()));
  }

  @Test
  void userMetadataAtMost2048Bytes() {
    ok(() -> Validation.metadata(meta().userMetadata(Map.of("k", "v".repeat(2047))).build()));
    InvalidArgumentException e = invalid("metadata.userMetadata",
        () -> Validation.metadata(meta().userMetadata(Map.of("k", "v".repeat(2048))).build()));
    assertThat(e.getMessage()).contains("2048").contains("got 2049");
    // names and values together, in UTF-8 bytes
    ok(() -> Validation.metadata(meta().userMetadata(Map.of("a", "x".repeat(1023), "b", "y".repeat(1023))).build()));
    invalid("metadata.userMetadata", () -> Validation.metadata(
        meta().userMetadata(Map.of("a", "x".repeat(1023), "b", "y".repeat(1024))).build()));
    ok(() -> Validation.metadata(meta().userMetadata(Map.of("e", "\u00e9".repeat(1023) + "a")).build()));
    invalid("metadata.userMetadata", () -> Validation.metadata(
        meta().userMetadata(Map.of("e", "\u00e9".repeat(1023) + "ab")).build()));
    invalid("metadata.userMetadata", () -> Validation.metadata(
        meta().userMetadata(Map.of("k", "\uD83D\uDE00".repeat(512))).build()));
  }

  @Test
  void everyTextFieldRefusesNulAndLoneSurrogatesNamingTheField() {
    for (String bad : new String[] {"a\0b", "a\uD800b", "\uDC00"}) {
      invalid("metadata.etag", () -> Validation.metadata(meta().etag(bad).build()));
      invalid("metadata.contentType", () -> Validation.metadata(meta().contentType(bad).build()));
      invalid("metadata.owner", () -> Validation.metadata(meta().owner(bad).build()));
      invalid("metadata.storageClass", () -> Validation.metadata(meta().storageClass(bad).build()));
      invalid("metadata.replicationStatus",
          () -> Validation.metadata(meta().replicationStatus(bad).build()));
      invalid("metadata.userMetadata",
          () -> Validation.metadata(meta().userMetadata(Map.of("k", bad)).build()));
      invalid("metadata.tags", () -> Validation.metadata(meta().tags(Map.of("k", bad)).build()));
      invalid("metadata.tags", () -> Validation.metadata(meta().tags(Map.of(bad, "v")).build()));
      invalid("metadata.dataLocations.key", () -> Validation.metadata(
          meta().dataLocations(List.of(new DataLocation("s", bad, 0, 1))).build()));
      invalid("metadata.dataLocations.store", () -> Validation.metadata(
          meta().dataLocations(List.of(new DataLocation(bad, "k", 0, 1))).build()));
      com.fasterxml.jackson.databind.node.ObjectNode attrs = Json.object("{}");
      attrs.put("k", bad);
      invalid("metadata.attributes", () -> Validation.metadata(meta().attributes(attrs).build()));
      com.fasterxml.jackson.databind.node.ObjectNode named = Json.object("{}");
      named.putArray(bad).add(1);
      invalid("metadata.acl", () -> Validation.metadata(meta().acl(named).build()));
      invalid("owner", () -> Validation.owner("owner", bad));
    }
  }

  @Test
  void headerValuesRefuseControlCharactersButTabAndNamesAreTokens() {
    for (String bad : new String[] {"a\r\nX-Injected: 1", "a\nb", "a\rb", "a\u0001b", "a\u007fb"}) {
      invalid("metadata.etag", () -> Validation.metadata(meta().etag(bad).build()));
      invalid("metadata.contentType", () -> Validation.metadata(meta().contentType(bad).build()));
      invalid("metadata.userMetadata",
          () -> Validation.metadata(meta().userMetadata(Map.of("k", bad)).build()));
    }
    ok(() -> Validation.metadata(meta().contentType("text/plain;\tcharset=utf-8").build()));
    ok(() -> Validation.metadata(meta().userMetadata(Map.of("x-Camera_1.model!", "caf\u00e9 \u65e5")).build()));
    for (String name : new String[] {"with space", "caf\u00e9", "a:b", "a/b", "(x)", "a\tb"}) {
      invalid("metadata.userMetadata",
          () -> Validation.metadata(meta().userMetadata(Map.of(name, "v")).build()));
    }
  }

  @Test
  void sizesAreBoundedByS3sLargestObjectAndPart() {
    ok(() -> Validation.metadata(meta().size(Validation.MAX_OBJECT_SIZE).build()));
    invalid("metadata.size", () -> Validation.metadata(meta().size(Validation.MAX_OBJECT_SIZE + 1).build()));
    invalid("metadata.size", () -> Validation.metadata(meta().size(Long.MAX_VALUE).build()));
    ok(() -> Validation.part("part", Part.of(1, Validation.MAX_PART_SIZE, "e", null)));
    invalid("part.size", () -> Validation.part("part",
        Part.of(1, Validation.MAX_PART_SIZE + 1, "e", null)));
    invalid("part.etag", () -> Validation.part("part", Part.of(1, 1, "e\nX", null)));
  }

  @Test
  void usageCountersNeverWrap() {
    io.objectmeta.api.model.Usage big = new io.objectmeta.api.model.Usage(1, Long.MAX_VALUE - 1, 0, 0, 0, 0, 0);
    io.objectmeta.api.model.Usage two = new io.objectmeta.api.model.Usage(1, 2, 0, 0, 0, 0, 0);
    invalid("usage.currentBytes", () -> big.plus(two));
    invalid("usage.currentBytes", () -> new io.objectmeta.api.model.Usage(0, Long.MIN_VALUE + 1, 0, 0, 0, 0, 0).minus(two));
    assertThat(big.minus(two).currentBytes()).isEqualTo(Long.MAX_VALUE - 3);
  }

  @Test
  void userMetadataNamesAndValues() {
    invalid("metadata.userMetadata", () -> Validation.metadata(meta().userMetadata(Map.of("", "v")).build()));
    Map<String, String> nullName = new LinkedHashMap<>();
    nullName.put(null, "v");
    invalid("metadata.userMetadata", () -> Validation.metadata(meta().userMetadata(nullName).build()));
    Map<String, String> nullValue = new LinkedHashMap<>();
    nullValue.put("k", null);
    invalid("metadata.userMetadata", () -> Validation.metadata(meta().userMetadata(nullValue).build()));
    invalid("metadata.userMetadata", () -> Validation.metadata(meta().userMetadata(Map.of("k\uD800", "v")).build()));
    invalid("metadata.userMetadata", () -> Validation.metadata(meta().userMetadata(Map.of("k", "\uDC00")).build()));
    ok(() -> Validation.metadata(meta().userMetadata(Map.of("k", "")).build()));
  }

  private static Map<String, String> tags(int n) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      m.put("t" + i, "v");
    }
    return m;
  }

  @Test
  void tagLimits() {
    ok(() -> Validation.metadata(meta().tags(tags(10)).build()));
    InvalidArgumentException e = invalid("metadata.tags", () -> Validation.metadata(meta().tags(tags(11)).build()));
    assertThat(e.getMessage()).contains("got 11");
    ok(() -> Validation.tags("tags", tags(0)));
    ok(() -> Validation.tags("tags", Map.of("k".repeat(128), "v".repeat(256))));
    invalid("tags", () -> Validation.tags("tags", Map.of("k".repeat(129), "v")));
    invalid("tags", () -> Validation.tags("tags", Map.of("", "v")));
    Map<String, String> nullKey = new LinkedHashMap<>();
    nullKey.put(null, "v");
    invalid("tags", () -> Validation.tags("tags", nullKey));
    ok(() -> Validation.tags("tags", Map.of("k", "")));
    invalid("tags", () -> Validation.tags("tags", Map.of("k", "v".repeat(257))));
    Map<String, String> nullValue = new LinkedHashMap<>();
    nullValue.put("k", null);
    invalid("tags", () -> Validation.tags("tags", nullValue));
  }

  /**
   * S3 counts tag lengths in Unicode characters: a key of 128 characters outside the BMP (256 UTF-16
   * chars) is valid, 129 are not; likewise values of 256.
   */
  @Test
  void tagLimitsCountUnicodeCharacters() {
    String emoji = "\uD83D\uDE00";
    ok(() -> Validation.tags("tags", Map.of(emoji.repeat(128), "v")));
    invalid("tags", () -> Validation.tags("tags", Map.of(emoji.repeat(129), "v")));
    ok(() -> Validation.tags("tags", Map.of("k", emoji.repeat(256))));
    invalid("tags", () -> Validation.tags("tags", Map.of("k", emoji.repeat(257))));
  }

  @Test
  void dataLocations() {
    ok(() -> Validation.metadata(meta().dataLocations(List.of(new DataLocation("s", "k", 0, 0))).build()));
    invalid("metadata.dataLocations", () -> Validation.metadata(
        meta().dataLocations(List.of(new DataLocation("s", "k", -1, 5))).build()));
    invalid("metadata.dataLocations", () -> Validation.metadata(
        meta().dataLocations(List.of(new DataLocation("s", "k", 0, 5), new DataLocation("s", "k", 5, -1))).build()));
    List<DataLocation> many = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      many.add(new DataLocation("s", "k" + i, i, 1));
    }
    ok(() -> Validation.metadata(meta().dataLocations(many).build()));
    many.add(new DataLocation("s", "last", 10_000, 1));
    InvalidArgumentException e = invalid("metadata.dataLocations", () -> Validation.metadata(meta().dataLocations(many).build()));
    assertThat(e.getMessage()).contains("got 10001");
  }

  @Test
  void metadataJsonFields() {
    ok(() -> Validation.metadata(meta().attributes(jsonOfSize(65536)).acl(jsonOfSize(65536)).build()));
    invalid("metadata.attributes", () -> Validation.metadata(meta().attributes(jsonOfSize(65537)).build()));
    invalid("metadata.acl", () -> Validation.metadata(meta().acl(jsonOfSize(65537)).build()));
  }

  @Test
  void metadataUpdates() {
    invalid("update", () -> Validation.metadataUpdate(null));
    ok(() -> Validation.metadataUpdate(new ObjectMetadataUpdate(null, null, null, null)));
    ok(() -> Validation.metadataUpdate(ObjectMetadataUpdate.tags(tags(10))));
    invalid("update.tags", () -> Validation.metadataUpdate(ObjectMetadataUpdate.tags(tags(11))));
    ok(() -> Validation.metadataUpdate(ObjectMetadataUpdate.replicationStatus("COMPLETED")));
    invalid("update.replicationStatus", () -> Validation.metadataUpdate(ObjectMetadataUpdate.replicationStatus("")));
    invalid("update.replicationStatus", () -> Validation.metadataUpdate(ObjectMetadataUpdate.replicationStatus("r".repeat(65))));
    ok(() -> Validation.metadataUpdate(ObjectMetadataUpdate.acl(jsonOfSize(65536))));
    invalid("update.acl", () -> Validation.metadataUpdate(ObjectMetadataUpdate.acl(jsonOfSize(65537))));
    invalid("update.attributes", () -> Validation.metadataUpdate(ObjectMetadataUpdate.attributes(jsonOfSize(65537))));
  }

  @Test
  void documentedLimits() {
    assertThat(Validation.MAX_KEY_BYTES).isEqualTo(1024);
    assertThat(Validation.MAX_KEYS).isEqualTo(1000);
    assertThat(Validation.MAX_USER_METADATA_BYTES).isEqualTo(2048);
    assertThat(Validation.MAX_TAGS).isEqualTo(10);
    assertThat(Validation.MAX_TAG_KEY).isEqualTo(128);
    assertThat(Validation.MAX_TAG_VALUE).isEqualTo(256);
    assertThat(Validation.MAX_JSON_BYTES).isEqualTo(65536);
    assertThat(Validation.MAX_DATA_LOCATIONS).isEqualTo(10_000);
    assertThat(Validation.MAX_PART_NUMBER).isEqualTo(10_000);
    assertThat(Validation.MAX_BATCH).isEqualTo(1000);
    assertThat(Validation.MAX_OWNER).isEqualTo(256);
  }

  // ---- restores

  private static final String UUID_ID = "0b7e3a52-5a1f-4a57-9d5c-4a1c2b3d4e5f";

  private static io.objectmeta.api.model.ObjectVersion version(String key, long millis, boolean isNull,
      boolean marker) {
    return new io.objectmeta.api.model.ObjectVersion(key, new VersionId(millis, 0, 1), isNull, marker,
        false, marker ? null : ObjectMetadata.builder().size(1).build());
  }

  private static io.objectmeta.api.gc.GarbageRecord record(io.objectmeta.api.gc.GarbageRecord.Kind kind,
      String key, String versionId, int part, long size) {
    return new io.objectmeta.api.gc.GarbageRecord("src-1", kind, "photos", UUID_ID, key, versionId, part,
        size, List.of(), java.time.Instant.ofEpochMilli(1000));
  }

  @Test
  void bucketIdsAreCanonicalUuids() {
    ok(() -> Validation.bucketId("id", UUID_ID));
    invalid("id", () -> Validation.bucketId("id", null));
    invalid("id", () -> Validation.bucketId("id", "bucket-1"));
    invalid("id", () -> Validation.bucketId("id", UUID_ID.toUpperCase(java.util.Locale.ROOT)));
    invalid("bucket.id", () -> Validation.restoredBucket(new io.objectmeta.api.model.Bucket("photos",
        "x", "alice", java.time.Instant.EPOCH, io.objectmeta.api.model.VersioningState.ENABLED, null)));
    invalid("bucket.owner", () -> Validation.restoredBucket(new io.objectmeta.api.model.Bucket("photos",
        UUID_ID, "", java.time.Instant.EPOCH, io.objectmeta.api.model.VersioningState.ENABLED, null)));
  }

  @Test
  void restoredVersionsAreNewestFirstOfOneKeyWithOneNullVersionAtMost() {
    ok(() -> Validation.restoredVersions("k", List.of(version("k", 3, false, true),
        version("k", 2, true, false), version("k", 1, false, false))));
    invalid("versions", () -> Validation.restoredVersions("k", List.of()));
    invalid("versions", () -> Validation.restoredVersions("k", null));
    invalid("versions[1]", () -> Validation.restoredVersions("k", List.of(version("k", 1, false, false),
        version("k", 2, false, false))));
    invalid("versions[1]", () -> Validation.restoredVersions("k", List.of(version("k", 1, false, false),
        version("k", 1, false, false))));
    invalid("versions[1].nullVersion", () -> Validation.restoredVersions("k",
        List.of(version("k", 2, true, false), version("k", 1, true, true))));
    invalid("versions[0].key", () -> Validation.restoredVersions("k", List.of(version("j", 1, false, false))));
    invalid("versions[0].metadata.size", () -> Validation.restoredVersions("k", List.of(
        version("k", 1, false, false).withMetadata(ObjectMetadata.builder().size(-1).build()))));
  }

  @Test
  void restoredUploadsHaveDatedPartsInAscendingOrder() {
    VersionId id = new VersionId(1000, 0, 1);
    io.objectmeta.api.model.MultipartUpload u = new io.objectmeta.api.model.MultipartUpload("k",
        id.encodeOldestFirst(), id.timestamp(), ObjectMetadata.builder().build());
    io.objectmeta.api.model.Part p1 = new io.objectmeta.api.model.Part(1, 5, "e", id.timestamp(), null);
    io.objectmeta.api.model.Part p2 = new io.objectmeta.api.model.Part(2, 5, "e", id.timestamp(), null);
    ok(() -> Validation.restoredUpload(u, List.of(p1, p2)));
    ok(() -> Validation.restoredUpload(u, List.of()));
    invalid("parts[1].partNumber", () -> Validation.restoredUpload(u, List.of(p2, p1)));
    invalid("parts[1].partNumber", () -> Validation.restoredUpload(u, List.of(p1, p1)));
    invalid("parts[0].lastModified", () -> Validation.restoredUpload(u, List.of(p1.withLastModified(null))));
    invalid("upload.uploadId", () -> Validation.restoredUpload(new io.objectmeta.api.model.MultipartUpload(
        "k", "nope", id.timestamp(), ObjectMetadata.builder().build()), List.of()));
    invalid("upload.initiated", () -> Validation.restoredUpload(new io.objectmeta.api.model.MultipartUpload(
        "k", id.encodeOldestFirst(), null, ObjectMetadata.builder().build()), List.of()));
  }

  @Test
  void restoredGarbageRecordsHaveTheFieldsOfTheirKind() {
    String upload = new VersionId(1000, 0, 1).encodeOldestFirst();
    String version = new VersionId(1000, 0, 1).encode();
    ok(() -> Validation.garbageRecords(List.of(
        record(io.objectmeta.api.gc.GarbageRecord.Kind.OBJECT_VERSION, "k", version, 0, 5),
        record(io.objectmeta.api.gc.GarbageRecord.Kind.OBJECT_VERSION, "k", "null", 0, 5),
        record(io.objectmeta.api.gc.GarbageRecord.Kind.PART, "k", upload, 3, 5),
        record(io.objectmeta.api.gc.GarbageRecord.Kind.BUCKET, null, null, 0, 0))));
    invalid("records", () -> Validation.garbageRecords(List.of()));
    invalid("records[0].versionId", () -> Validation.garbageRecords(List.of(
        record(io.objectmeta.api.gc.GarbageRecord.Kind.OBJECT_VERSION, "k", upload + "x", 0, 5))));
    invalid("records[0].partNumber", () -> Validation.garbageRecords(List.of(
        record(io.objectmeta.api.gc.GarbageRecord.Kind.OBJECT_VERSION, "k", version, 2, 5))));
    invalid("records[0].key", () -> Validation.garbageRecords(List.of(
        record(io.objectmeta.api.gc.GarbageRecord.Kind.PART, null, upload, 3, 5))));
    invalid("records[0].partNumber", () -> Validation.garbageRecords(List.of(
        record(io.objectmeta.api.gc.GarbageRecord.Kind.PART, "k", upload, 0, 5))));
    invalid("records[0].key", () -> Validation.garbageRecords(List.of(
        record(io.objectmeta.api.gc.GarbageRecord.Kind.BUCKET, "k", null, 0, 0))));
    invalid("records[0].size", () -> Validation.garbageRecords(List.of(
        record(io.objectmeta.api.gc.GarbageRecord.Kind.BUCKET, null, null, 0, 7))));
    invalid("records[0].size", () -> Validation.garbageRecords(List.of(
        record(io.objectmeta.api.gc.GarbageRecord.Kind.PART, "k", upload, 1, -1))));
    invalid("records[0].bucket", () -> Validation.garbageRecords(List.of(new io.objectmeta.api.gc.GarbageRecord(
        "x", io.objectmeta.api.gc.GarbageRecord.Kind.BUCKET, "NO", UUID_ID, null, null, 0, 0, null,
        java.time.Instant.EPOCH))));
    invalid("records[0].id", () -> Validation.garbageRecords(List.of(new io.objectmeta.api.gc.GarbageRecord(
        "", io.objectmeta.api.gc.GarbageRecord.Kind.BUCKET, "photos", UUID_ID, null, null, 0, 0, null,
        java.time.Instant.EPOCH))));
  }

  @Test
  void garbageListingsTakeACursorAndALimit() {
    ok(() -> Validation.garbageListing(null, 1));
    ok(() -> Validation.garbageListing("c", 10_000));
    invalid("after", () -> Validation.garbageListing("", 1));
    invalid("limit", () -> Validation.garbageListing(null, 0));
    invalid("limit", () -> Validation.garbageListing(null, 10_001));
  }
}
