package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.KeyTooLongException;
import io.objectmeta.api.listing.ListObjectsRequest;
import io.objectmeta.api.listing.ListObjectsResult;
import io.objectmeta.api.listing.ListObjectsV2Request;
import io.objectmeta.api.listing.ListVersionsRequest;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Keys: any character, 1 to 1024 bytes of UTF-8, ordered by their UTF-8 bytes. */
public interface KeyContract extends StoreScenario {

  String BMP_HIGH = "\uFFFD";
  String ASTRAL = "\uD83D\uDE00";

  @Test
  default void aKeyAboveUffffSortsAfterOneInTheUpperBmpUnlikeJavaStrings() {
    assertThat(ASTRAL.compareTo(BMP_HIGH)).as("Java's UTF-16 order is the opposite").isNegative();
    String b = newBucket();
    put(b, ASTRAL, "astral");
    put(b, BMP_HIGH, "bmp");
    put(b, "\uE000", "private-use");
    put(b, "z", "ascii");
    assertThat(currentKeys(b)).containsExactly("z", "\uE000", BMP_HIGH, ASTRAL);
  }

  @Test
  default void versionListingsUseUtf8OrderToo() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, ASTRAL, "astral");
    put(b, BMP_HIGH, "bmp");
    assertThat(versions(b)).extracting(ObjectVersion::key).containsExactly(BMP_HIGH, ASTRAL);
  }

  @Test
  default void aMarkerBetweenUpperBmpAndAstralKeysSplitsThemInUtf8Order() {
    String b = newBucket();
    put(b, ASTRAL, "astral");
    put(b, BMP_HIGH, "bmp");
    assertThat(store().listObjects(ListObjectsRequest.of(b).withMarker(BMP_HIGH)).contents())
        .extracting(ObjectVersion::key).containsExactly(ASTRAL);
    assertThat(store().listObjects(ListObjectsRequest.of(b).withMarker(ASTRAL)).contents()).isEmpty();
  }

  @Test
  default void pagingAcrossTheSurrogateBoundaryLosesNothing() {
    String b = newBucket();
    List<String> keys = List.of("a", "\u07FF", "\u0800", "\uD7FF", "\uE000", BMP_HIGH, "\uFFFF",
        "\uD800\uDC00", ASTRAL, "\uDBFF\uDFFF");
    for (String k : keys) {
      put(b, k, "v" + k.hashCode());
    }
    List<String> walked = new ArrayList<>();
    ListObjectsV2Request r = ListObjectsV2Request.of(b).withMaxKeys(1);
    for (int i = 0; i < 20; i++) {
      var page = store().listObjectsV2(r);
      page.contents().forEach(v -> walked.add(v.key()));
      if (!page.truncated()) {
        break;
      }
      r = r.withContinuationToken(page.nextContinuationToken());
    }
    assertThat(walked).isEqualTo(keys);
  }

  @Test
  default void anAstralPrefixSelectsOnlyItsKeys() {
    String b = newBucket();
    put(b, ASTRAL + "/1", "a");
    put(b, ASTRAL + "x", "b");
    put(b, "\uD83D\uDE01", "c");
    put(b, BMP_HIGH, "d");
    assertThat(store().listObjects(ListObjectsRequest.of(b).withPrefix(ASTRAL)).contents())
        .extracting(ObjectVersion::key).containsExactly(ASTRAL + "/1", ASTRAL + "x");
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b).withDelimiter("/"));
    assertThat(r.commonPrefixes()).containsExactly(ASTRAL + "/");
  }

  @Test
  default void keysMayHoldNulDelAndSeparatorCharacters() {
    String b = newBucket(VersioningState.ENABLED);
    List<String> keys = List.of("\u0000", "a\u0000b", "a\u007fb", "100%", "under_score", "a/b", "/lead",
        "trail/", "\u007f", "sp ace", "\\back");
    for (String k : keys) {
      put(b, k, "v" + keys.indexOf(k));
    }
    for (String k : keys) {
      assertThat(store().getObject(b, k).key()).isEqualTo(k);
      assertThat(versionIdsOf(b, k)).hasSize(1);
    }
    List<String> sorted = new ArrayList<>(keys);
    sorted.sort(io.objectmeta.api.listing.KeyOrder.UTF8);
    assertThat(currentKeys(b)).isEqualTo(sorted);
  }

  @Test
  default void aNulKeySortsFirstAndAKeyWithNulSortsBeforeItsExtensions() {
    String b = newBucket();
    put(b, "a", "1");
    put(b, "a\u0000", "2");
    put(b, "a\u0001", "3");
    put(b, "\u0000", "4");
    assertThat(currentKeys(b)).containsExactly("\u0000", "a", "a\u0000", "a\u0001");
  }

  @Test
  default void aKeyAndItsPrefixAreDistinct() {
    String b = newBucket();
    put(b, "ab", "1");
    put(b, "a", "2");
    store().deleteObject(b, "a");
    assertThat(currentKeys(b)).containsExactly("ab");
  }

  @Test
  default void percentAndUnderscoreAreNotWildcardsInPrefixes() {
    String b = newBucket();
    put(b, "a%c", "1");
    put(b, "abc", "2");
    put(b, "a_c", "3");
    assertThat(store().listObjects(ListObjectsRequest.of(b).withPrefix("a%")).contents())
        .extracting(ObjectVersion::key).containsExactly("a%c");
    assertThat(store().listObjects(ListObjectsRequest.of(b).withPrefix("a_")).contents())
        .extracting(ObjectVersion::key).containsExactly("a_c");
  }

  @Test
  default void aDelListsBetweenAsciiAndTheRest() {
    String b = newBucket();
    put(b, "\u007f", "del");
    put(b, "~", "tilde");
    put(b, "\u0080", "c1");
    assertThat(currentKeys(b)).containsExactly("~", "\u007f", "\u0080");
  }

  @Test
  default void aNulDelimiterRollsUpKeys() {
    String b = newBucket();
    put(b, "a\u0000x", "1");
    put(b, "a\u0000y", "2");
    put(b, "b", "3");
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b).withDelimiter("\u0000"));
    assertThat(r.commonPrefixes()).containsExactly("a\u0000");
    assertThat(r.contents()).extracting(ObjectVersion::key).containsExactly("b");
  }

  @Test
  default void aKeyOf1024BytesIsAccepted() {
    String b = newBucket();
    String key = "k".repeat(1024);
    put(b, key, "long");
    assertThat(store().getObject(b, key).key()).isEqualTo(key);
  }

  @Test
  default void aKeyOf1024BytesOfMultiByteCharactersIsAccepted() {
    String b = newBucket();
    String key = "\u00e9".repeat(512);
    put(b, key, "long");
    assertThat(currentKeys(b)).containsExactly(key);
    String astral = ASTRAL.repeat(256);
    put(b, astral, "astral");
    assertThat(store().getObject(b, astral).key()).isEqualTo(astral);
  }

  @Test
  default void aKeyOf1025BytesIsKeyTooLong() {
    String b = newBucket();
    assertRefusedAndUnchanged(KeyTooLongException.class, () -> put(b, "k".repeat(1025), "v"));
  }

  @Test
  default void aKeyOf513TwoByteCharactersIsKeyTooLong() {
    String b = newBucket();
    assertRefusedAndUnchanged(KeyTooLongException.class, () -> put(b, "\u00e9".repeat(513), "v"));
  }

  @Test
  default void anEmptyKeyIsInvalidArgument() {
    String b = newBucket();
    assertRefusedAndUnchanged(InvalidArgumentException.class, () -> put(b, "", "v"));
  }

  @Test
  default void aKeyWithAnUnpairedSurrogateIsInvalidArgument() {
    String b = newBucket();
    assertRefusedAndUnchanged(InvalidArgumentException.class, () -> put(b, "a\uD83D", "v"));
    assertRefusedAndUnchanged(InvalidArgumentException.class, () -> put(b, "\uDE00b", "v"));
    assertRefusedAndUnchanged(InvalidArgumentException.class, () -> store().getObject(b, "\uD83Dx"));
  }

  @Test
  default void everyCallValidatesItsKey() {
    String b = newBucket(VersioningState.ENABLED);
    String tooLong = "x".repeat(1025);
    assertRefusedAndUnchanged(KeyTooLongException.class, () -> store().getObject(b, tooLong));
    assertRefusedAndUnchanged(KeyTooLongException.class, () -> store().deleteObject(b, tooLong));
    assertRefusedAndUnchanged(KeyTooLongException.class, () -> store().deleteObjectVersion(b, tooLong, "null"));
    assertRefusedAndUnchanged(KeyTooLongException.class, () -> store().getObjectVersion(b, tooLong, "null"));
    assertRefusedAndUnchanged(InvalidArgumentException.class, () -> store().deleteObject(b, ""));
  }

  @Test
  default void aLongPrefixOrMarkerIsInvalidArgument() {
    String b = newBucket();
    String tooLong = "x".repeat(1025);
    assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().listObjects(ListObjectsRequest.of(b).withPrefix(tooLong)));
    assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().listObjects(ListObjectsRequest.of(b).withMarker(tooLong)));
    assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().listObjects(ListObjectsRequest.of(b).withDelimiter(tooLong)));
    assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().listObjectsV2(ListObjectsV2Request.of(b).withStartAfter(tooLong)));
    assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().listObjectVersions(ListVersionsRequest.of(b).withKeyMarker(tooLong)));
  }

  @Test
  default void anUnpairedSurrogateInAPrefixIsInvalidArgument() {
    String b = newBucket();
    assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().listObjects(ListObjectsRequest.of(b).withPrefix("\uD83D")));
    assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().listObjectsV2(ListObjectsV2Request.of(b).withDelimiter("\uDE00")));
  }
  @Test
  default void aCommonPrefixEndingInTheLastCodePointIsSkippedWhole() {
    String top = "\uDBFF\uDFFF";
    String b = newBucket();
    put(b, "a" + top + "x", "1");
    put(b, "a" + top + "y", "2");
    put(b, "a" + top, "3");
    put(b, "b", "4");
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b).withDelimiter(top));
    assertThat(r.commonPrefixes()).containsExactly("a" + top);
    assertThat(r.contents()).extracting(ObjectVersion::key).containsExactly("b");
    ListObjectsResult paged = store().listObjects(ListObjectsRequest.of(b).withDelimiter(top).withMaxKeys(1));
    assertThat(paged.nextMarker()).isEqualTo("a" + top);
    ListObjectsResult next = store().listObjects(ListObjectsRequest.of(b).withDelimiter(top)
        .withMarker(paged.nextMarker()));
    assertThat(next.commonPrefixes()).isEmpty();
    assertThat(next.contents()).extracting(ObjectVersion::key).containsExactly("b");
  }

  @Test
  default void aKeyThatIsTheCommonPrefixItselfRollsUp() {
    String b = newBucket();
    put(b, "dir/", "marker-object");
    put(b, "dir/file", "f");
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b).withDelimiter("/"));
    assertThat(r.commonPrefixes()).containsExactly("dir/");
    assertThat(r.contents()).isEmpty();
    ListObjectsResult inside = store().listObjects(ListObjectsRequest.of(b).withPrefix("dir/").withDelimiter("/"));
    assertThat(inside.contents()).extracting(ObjectVersion::key).containsExactly("dir/", "dir/file");
  }
}
