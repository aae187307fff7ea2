package io.objectmeta.api.versioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.objectmeta.api.error.InvalidPartException;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.model.CompletedPart;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.Part;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MultipartRulesTest {

  private static byte[] md5(byte[] data) throws Exception {
    return MessageDigest.getInstance("MD5").digest(data);
  }

  private static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder();
    for (byte x : b) {
      sb.append(String.format("%02x", x & 0xff));
    }
    return sb.toString();
  }

  /** S3's multipart etag: hex MD5 of the concatenated binary MD5s of the parts, then "-N". */
  private static String s3Etag(byte[]... partMd5s) throws Exception {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (byte[] m : partMd5s) {
      all.write(m);
    }
    return hex(md5(all.toByteArray())) + "-" + partMd5s.length;
  }

  private final byte[] data1 = "hello, ".getBytes(StandardCharsets.UTF_8);
  private final byte[] data2 = "big".getBytes(StandardCharsets.UTF_8);
  private final byte[] data3 = "left out".getBytes(StandardCharsets.UTF_8);

  private Map<Integer, Part> stored() throws Exception {
    Map<Integer, Part> m = new LinkedHashMap<>();
    m.put(1, Part.of(1, 7, "\"" + hex(md5(data1)) + "\"", List.of(new DataLocation("s", "p1", 0, 7))));
    m.put(2, Part.of(2, 3, hex(md5(data2)), List.of(new DataLocation("s", "p2a", 0, 2),
        new DataLocation("s2", "p2b", 2, 1))));
    m.put(3, Part.of(3, 8, hex(md5(data3)), List.of(new DataLocation("s", "p3", 0, 8))));
    return m;
  }

  private final ObjectMetadata initiated = ObjectMetadata.builder().contentType("text/plain")
      .owner("alice").userMetadata(Map.of("color", "blue")).size(999).etag("ignored").build();

  @Test
  void completionComputesEtagSizeAndOffsets() throws Exception {
    List<CompletedPart> named = List.of(new CompletedPart(1, hex(md5(data1))),
        new CompletedPart(2, "\"" + hex(md5(data2)) + "\""));
    ObjectMetadata out = MultipartRules.complete(initiated, stored(), named);
    assertThat(out.etag()).isEqualTo(s3Etag(md5(data1), md5(data2)));
    assertThat(out.size()).isEqualTo(10);
    assertThat(out.dataLocations()).containsExactly(new DataLocation("s", "p1", 0, 7),
        new DataLocation("s", "p2a", 7, 2), new DataLocation("s2", "p2b", 9, 1));
    assertThat(out.contentType()).isEqualTo("text/plain");
    assertThat(out.owner()).isEqualTo("alice");
    assertThat(out.userMetadata()).isEqualTo(Map.of("color", "blue"));
  }

  @Test
  void singlePartAndSkippedNumbers() throws Exception {
    ObjectMetadata one = MultipartRules.complete(initiated, stored(),
        List.of(new CompletedPart(2, hex(md5(data2)))));
    assertThat(one.etag()).isEqualTo(s3Etag(md5(data2))).endsWith("-1");
    assertThat(one.size()).isEqualTo(3);
    assertThat(one.dataLocations()).containsExactly(new DataLocation("s", "p2a", 0, 2),
        new DataLocation("s2", "p2b", 2, 1));
    ObjectMetadata gap = MultipartRules.complete(initiated, stored(),
        List.of(new CompletedPart(1, hex(md5(data1))), new CompletedPart(3, hex(md5(data3)))));
    assertThat(gap.etag()).isEqualTo(s3Etag(md5(data1), md5(data3)));
    assertThat(gap.size()).isEqualTo(15);
    assertThat(gap.dataLocations()).containsExactly(new DataLocation("s", "p1", 0, 7),
        new DataLocation("s", "p3", 7, 8));
  }

  @Test
  void uppercaseHexEtagsAreTheSameBytes() throws Exception {
    String upper = hex(md5(data1)).toUpperCase();
    Map<Integer, Part> m = Map.of(1, Part.of(1, 7, upper, List.of()));
    ObjectMetadata out = MultipartRules.complete(initiated, m, List.of(new CompletedPart(1, upper)));
    assertThat(out.etag()).isEqualTo(s3Etag(md5(data1)));
  }

  @Test
  void nonMd5EtagsContributeTheirUtf8Bytes() throws Exception {
    Map<Integer, Part> m = Map.of(1, Part.of(1, 1, "not-an-md5", List.of()),
        2, Part.of(2, 1, "x".repeat(32), List.of()),
        3, Part.of(3, 1, hex(md5(data1)).substring(1), List.of()));
    ObjectMetadata out = MultipartRules.complete(initiated, m, List.of(
        new CompletedPart(1, "not-an-md5"), new CompletedPart(2, "x".repeat(32)),
        new CompletedPart(3, hex(md5(data1)).substring(1))));
    assertThat(out.etag()).isEqualTo(s3Etag("not-an-md5".getBytes(StandardCharsets.UTF_8),
        "x".repeat(32).getBytes(StandardCharsets.UTF_8),
        hex(md5(data1)).substring(1).getBytes(StandardCharsets.UTF_8)));
  }

  /** 32 characters that Character.digit accepts as hex digits but that are not ASCII hex. */
  @Test
  void nonAsciiDigitEtagIsNotHex() throws Exception {
    String arabicIndic = "\u0661".repeat(32);
    Map<Integer, Part> m = Map.of(1, Part.of(1, 1, arabicIndic, List.of()));
    ObjectMetadata out = MultipartRules.complete(initiated, m, List.of(new CompletedPart(1, arabicIndic)));
    assertThat(out.etag()).isEqualTo(s3Etag(arabicIndic.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void missingOrMismatchedPartsAreInvalidPart() throws Exception {
    Throwable missing = catchThrowable(() -> MultipartRules.complete(initiated, stored(),
        List.of(new CompletedPart(1, hex(md5(data1))), new CompletedPart(4, hex(md5(data1))))));
    assertThat(missing).isInstanceOf(InvalidPartException.class).hasMessageStartingWith("parts: ")
        .hasMessageContaining("part 4");
    assertThat(((MetadataException) missing).code()).isEqualTo("InvalidPart");
    assertThat(((MetadataException) missing).httpStatus()).isEqualTo(400);
    Throwable mismatch = catchThrowable(() -> MultipartRules.complete(initiated, stored(),
        List.of(new CompletedPart(1, hex(md5(data2))))));
    assertThat(mismatch).isInstanceOf(InvalidPartException.class).hasMessageStartingWith("parts: ")
        .hasMessageContaining("part 1");
    // a quote on one side only is a mismatch of content, not of quoting
    Throwable halfQuoted = catchThrowable(() -> MultipartRules.complete(initiated, stored(),
        List.of(new CompletedPart(2, "\"" + hex(md5(data2))))));
    assertThat(halfQuoted).isInstanceOf(InvalidPartException.class);
    // a bare quote is an etag of its own, not an empty one
    Map<Integer, Part> quote = Map.of(1, Part.of(1, 1, "\"", List.of()));
    assertThat(MultipartRules.complete(initiated, quote, List.of(new CompletedPart(1, "\""))).etag())
        .isEqualTo(s3Etag("\"".getBytes(StandardCharsets.UTF_8)));
    Throwable emptyVsQuote = catchThrowable(() -> MultipartRules.complete(initiated,
        Map.of(1, Part.of(1, 1, "\"\"", List.of())), List.of(new CompletedPart(1, ""))));
    assertThat(emptyVsQuote).isNull();
  }

  @Test
  void leftOutParts() throws Exception {
    List<Part> left = MultipartRules.leftOut(stored(),
        List.of(new CompletedPart(1, "x"), new CompletedPart(2, "y")));
    assertThat(left).extracting(Part::partNumber).containsExactly(3);
    assertThat(MultipartRules.leftOut(stored(), List.of())).hasSize(3);
    assertThat(MultipartRules.leftOut(stored(), List.of(new CompletedPart(1, "x"),
        new CompletedPart(2, "y"), new CompletedPart(3, "z")))).isEmpty();
  }
}
