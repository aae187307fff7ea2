package io.objectmeta.api.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.model.Json;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.version.VersionId;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CanonicalTest {

  @Test
  void jsonMembersAreSortedAtEveryDepthWhateverTheOrderTheyCameIn() {
    assertThat(Canonical.json(Json.object("{\"b\":1,\"a\":{\"y\":[{\"d\":1,\"c\":2}],\"x\":null}}")))
        .isEqualTo("{\"a\":{\"x\":null,\"y\":[{\"c\":2,\"d\":1}]},\"b\":1}");
    Map<String, String> one = new LinkedHashMap<>();
    one.put("zeta", "1");
    one.put("alpha", "2");
    Map<String, String> other = new LinkedHashMap<>();
    other.put("alpha", "2");
    other.put("zeta", "1");
    ObjectVersion a = version(ObjectMetadata.builder().userMetadata(one).build());
    ObjectVersion b = version(ObjectMetadata.builder().userMetadata(other).build());
    assertThat(Canonical.version(a)).isEqualTo(Canonical.version(b));
    assertThat(Canonical.version(a)).isNotEqualTo(Canonical.version(
        version(ObjectMetadata.builder().userMetadata(Map.of("alpha", "2")).build())));
  }

  @Test
  void numbersArePlainDecimalsWithoutTrailingZeros() {
    assertThat(Canonical.json(Json.object("{\"a\":1.50,\"b\":100,\"c\":1e20,\"d\":-0.25}")))
        .isEqualTo(Canonical.json(Json.object("{\"a\":1.5,\"b\":1.00E2,\"c\":100000000000000000000,\"d\":-2.5e-1}")))
        .isEqualTo("{\"a\":1.5,\"b\":100,\"c\":100000000000000000000,\"d\":-0.25}");
  }

  @Test
  void theNullVersionIsDigestedWithItsRevision() {
    VersionId r1 = new VersionId(1000, 0, 1);
    VersionId r2 = new VersionId(2000, 0, 1);
    ObjectVersion n1 = new ObjectVersion("k", r1, true, false, true, ObjectMetadata.builder().build());
    ObjectVersion n2 = new ObjectVersion("k", r2, true, false, true, ObjectMetadata.builder().build());
    assertThat(n1.versionId()).isEqualTo(n2.versionId());
    assertThat(Canonical.version(n1)).isNotEqualTo(Canonical.version(n2));
  }

  @Test
  void fieldsAreLengthPrefixedSoConcatenationsDoNotCollide() {
    assertThat(digest(List.of("ab", "c"))).isNotEqualTo(digest(List.of("a", "bc")));
    assertThat(digest(List.of("ab", "c"))).isEqualTo(digest(List.of("ab", "c")));
  }

  @Test
  void aMultisetDigestIgnoresOrderButCountsRepeats() {
    Canonical.MultisetDigest ab = new Canonical.MultisetDigest();
    ab.add(List.of("a"));
    ab.add(List.of("b"));
    Canonical.MultisetDigest ba = new Canonical.MultisetDigest();
    ba.add(List.of("b"));
    ba.add(List.of("a"));
    Canonical.MultisetDigest aab = new Canonical.MultisetDigest();
    aab.add(List.of("a"));
    aab.add(List.of("a"));
    aab.add(List.of("b"));
    assertThat(ab.hex()).isEqualTo(ba.hex()).hasSize(64).isNotEqualTo(aab.hex());
    assertThat(new Canonical.MultisetDigest().hex()).isEqualTo("0".repeat(64));
  }

  private static ObjectVersion version(ObjectMetadata m) {
    return new ObjectVersion("k", new VersionId(1000, 0, 1), false, false, true, m);
  }

  private static String digest(List<String> fields) {
    MessageDigest md = Canonical.sha256();
    Canonical.update(md, fields);
    return Canonical.hex(md.digest());
  }

  @Test
  void eachRecordKindIsItsFieldsInAFixedOrder() {
    java.time.Instant t = java.time.Instant.ofEpochMilli(1234);
    io.objectmeta.api.model.ObjectVersion marker = new io.objectmeta.api.model.ObjectVersion("k",
        new io.objectmeta.api.version.VersionIdGenerator().next(), true, true, false, null);
    assertThat(Canonical.version(marker)).containsExactly("k", marker.revision().encode(), "1",
        "1", "");
    assertThat(Canonical.upload(new io.objectmeta.api.model.MultipartUpload("k", "u", t, null)))
        .containsExactly("k", "u", "1234", "null");
    assertThat(Canonical.part(new io.objectmeta.api.model.Part(2, 5, "e", null, java.util.List.of())))
        .containsExactly("2", "5", "e", "-", "[]");
    io.objectmeta.api.gc.GarbageRecord bucket = io.objectmeta.api.gc.GarbageRecord.ofBucket("id",
        "b", "bid", t);
    assertThat(Canonical.garbage(bucket)).containsExactly("BUCKET", "b", "bid", "\uFFFF-null",
        "\uFFFF-null", "0", "0", "[]", "1234");
  }

  @Test
  void aDigestFramesEveryFieldSoThatConcatenationsDoNotCollide() {
    java.security.MessageDigest a = Canonical.sha256();
    Canonical.update(a, java.util.List.of("ab", "c"));
    java.security.MessageDigest b = Canonical.sha256();
    Canonical.update(b, java.util.List.of("a", "bc"));
    java.security.MessageDigest c = Canonical.sha256();
    Canonical.update(c, java.util.List.of("ab", "c"));
    byte[] da = a.digest();
    assertThat(da).isNotEqualTo(b.digest()).isEqualTo(c.digest());
    java.security.MessageDigest one = Canonical.sha256();
    Canonical.update(one, java.util.List.of("abc"));
    assertThat(one.digest()).isNotEqualTo(da);
  }
}
