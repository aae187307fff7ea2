package io.objectmeta.api.listing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** KeyOrder must agree with S3's order: unsigned comparison of the UTF-8 bytes. */
class KeyOrderTest {

  /** Code points chosen to hit the UTF-16 vs UTF-8 disagreement and every UTF-8 length. */
  private static final int[] INTERESTING = {
      0x00, 0x01, 'a', 'b', '/', 0x7f, 0x80, 0x7ff, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF,
      0x10000, 0x1F600, 0x10FFFE, 0x10FFFF};

  static int utf8Sign(String a, String b) {
    return Integer.signum(Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8),
        b.getBytes(StandardCharsets.UTF_8)));
  }

  static String ofCodePoints(List<Integer> cps) {
    StringBuilder sb = new StringBuilder();
    cps.forEach(sb::appendCodePoint);
    return sb.toString();
  }

  @Provide
  Arbitrary<String> strings() {
    Arbitrary<Integer> cp = Arbitraries.oneOf(
        Arbitraries.of(Arrays.stream(INTERESTING).boxed().toList()),
        Arbitraries.integers().between(0, 0x7f),
        Arbitraries.integers().between(0x80, 0x7ff),
        Arbitraries.integers().between(0x800, 0xD7FF),
        Arbitraries.integers().between(0xE000, 0xFFFF),
        Arbitraries.integers().between(0x10000, 0x10FFFF));
    return cp.list().ofMaxSize(6).map(KeyOrderTest::ofCodePoints);
  }

  @Provide
  Arbitrary<String> small() {
    return Arbitraries.of(Arrays.stream(INTERESTING).boxed().toList()).list().ofMaxSize(4)
        .map(KeyOrderTest::ofCodePoints);
  }

  @Property(tries = 2000)
  void compareHasTheSignOfUnsignedUtf8ByteComparison(@ForAll("strings") String a,
      @ForAll("strings") String b) {
    assertThat(Integer.signum(KeyOrder.compare(a, b))).isEqualTo(utf8Sign(a, b));
    assertThat(Integer.signum(KeyOrder.UTF8.compare(a, b))).isEqualTo(utf8Sign(a, b));
    assertThat(KeyOrder.after(a, b)).isEqualTo(utf8Sign(a, b) > 0);
  }

  @Property(tries = 2000)
  void compareOnSmallAlphabetWithSharedPrefixes(@ForAll("small") String a, @ForAll("small") String b,
      @ForAll("small") String common) {
    String x = common + a;
    String y = common + b;
    assertThat(Integer.signum(KeyOrder.compare(x, y))).isEqualTo(utf8Sign(x, y));
    assertThat(KeyOrder.compare(x, x)).isZero();
  }

  @Property
  void maxIsTheGreaterInUtf8Order(@ForAll("strings") String a, @ForAll("strings") String b) {
    String expected = utf8Sign(a, b) >= 0 ? a : b;
    assertThat(KeyOrder.max(a, b)).isEqualTo(expected);
  }

  @Example
  void maxOfEqualStringsIsTheFirst() {
    String a = new String("key");
    String b = new String("key");
    assertThat(KeyOrder.max(a, b)).isSameAs(a);
    assertThat(KeyOrder.max(b, a)).isSameAs(b);
  }

  @Example
  void replacementCharacterSortsBeforeEmoji() {
    String fffd = "\uFFFD";
    String emoji = new String(Character.toChars(0x1F600));
    // UTF-16 order says the opposite: the emoji's high surrogate 0xD83D < 0xFFFD.
    assertThat(fffd.compareTo(emoji)).isPositive();
    assertThat(KeyOrder.compare(fffd, emoji)).isNegative();
    assertThat(KeyOrder.compare(emoji, fffd)).isPositive();
    assertThat(KeyOrder.after(emoji, fffd)).isTrue();
    assertThat(KeyOrder.after(fffd, emoji)).isFalse();
    assertThat(KeyOrder.after(fffd, fffd)).isFalse();
    assertThat(KeyOrder.compare("\uE000", emoji)).isNegative();
    assertThat(KeyOrder.compare("\uFFFF", "\uD800\uDC00")).isNegative();
    assertThat(KeyOrder.max(fffd, emoji)).isEqualTo(emoji);
    assertThat(KeyOrder.max(emoji, fffd)).isEqualTo(emoji);
  }

  @Example
  void basicOrder() {
    assertThat(KeyOrder.compare("a", "b")).isNegative();
    assertThat(KeyOrder.compare("b", "a")).isPositive();
    assertThat(KeyOrder.compare("a", "a")).isZero();
    assertThat(KeyOrder.compare("a", "ab")).isNegative();
    assertThat(KeyOrder.compare("ab", "a")).isPositive();
    assertThat(KeyOrder.compare("", "\0")).isNegative();
    assertThat(KeyOrder.compare("a\0", "a")).isPositive();
    assertThat(KeyOrder.compare("\u007f", "\u0080")).isNegative();
    // two surrogate pairs compare by code point
    assertThat(KeyOrder.compare("\uD83D\uDE00", "\uD83D\uDE01")).isNegative();
    assertThat(KeyOrder.compare("\uD83D\uDE01", "\uD83D\uDE00")).isPositive();
    assertThat(KeyOrder.compare("\uD83C\uDFFF", "\uD83D\uDC00")).isNegative();
    List<String> keys = new ArrayList<>(List.of("\uFFFD", "\uD83D\uDE00", "a", "\uE000", "\0", "\u007f"));
    keys.sort(KeyOrder.UTF8);
    assertThat(keys).containsExactly("\0", "a", "\u007f", "\uE000", "\uFFFD", "\uD83D\uDE00");
  }

  // ---- prefixSuccessor

  @Property(tries = 2000)
  void prefixSuccessorBoundsThePrefixRange(@ForAll("strings") String p, @ForAll("strings") String t,
      @ForAll("strings") String s) {
    Optional<String> succ = KeyOrder.prefixSuccessor(p);
    String withP = p + t;
    if (succ.isPresent()) {
      String n = succ.get();
      assertThat(KeyOrder.isWellFormed(n)).isTrue();
      assertThat(KeyOrder.compare(n, p)).isPositive();
      assertThat(utf8Sign(n, p)).isPositive();
      assertThat(n.startsWith(p)).isFalse();
      assertThat(utf8Sign(withP, n)).isNegative();
      assertThat(KeyOrder.compare(withP, n)).isNegative();
      // no string starting with p is >= succ; every string after p not starting with p is >= succ
      if (s.startsWith(p)) {
        assertThat(utf8Sign(s, n)).isNegative();
      } else if (utf8Sign(s, p) > 0) {
        assertThat(utf8Sign(s, n)).isGreaterThanOrEqualTo(0);
      }
    } else {
      // no successor: every string greater than p starts with p
      if (utf8Sign(s, p) > 0) {
        assertThat(s).startsWith(p);
      }
      assertThat(p.codePoints().allMatch(c -> c == Character.MAX_CODE_POINT)).isTrue();
    }
  }

  @Property(tries = 1000)
  void prefixSuccessorOnSmallAlphabet(@ForAll("small") String p, @ForAll("small") String s) {
    Optional<String> succ = KeyOrder.prefixSuccessor(p);
    assertThat(succ.isPresent()).isEqualTo(!p.codePoints().allMatch(c -> c == 0x10FFFF));
    if (succ.isPresent()) {
      String n = succ.get();
      if (s.startsWith(p)) {
        assertThat(KeyOrder.compare(s, n)).isNegative();
      } else if (utf8Sign(s, p) > 0) {
        assertThat(KeyOrder.compare(s, n)).isGreaterThanOrEqualTo(0);
      }
    }
  }

  @Example
  void prefixSuccessorEdgeCases() {
    String max = new String(Character.toChars(0x10FFFF));
    assertThat(KeyOrder.prefixSuccessor("")).isEmpty();
    assertThat(KeyOrder.prefixSuccessor(max)).isEmpty();
    assertThat(KeyOrder.prefixSuccessor(max + max)).isEmpty();
    assertThat(KeyOrder.prefixSuccessor("a")).contains("b");
    assertThat(KeyOrder.prefixSuccessor("ab")).contains("ac");
    assertThat(KeyOrder.prefixSuccessor("a/")).contains("a0");
    assertThat(KeyOrder.prefixSuccessor("\0")).contains("\u0001");
    assertThat(KeyOrder.prefixSuccessor("a\u007f")).contains("a\u0080");
    assertThat(KeyOrder.prefixSuccessor("a" + max)).contains("b");
    assertThat(KeyOrder.prefixSuccessor("a" + max + max)).contains("b");
    assertThat(KeyOrder.prefixSuccessor("x" + max + "a" + max)).contains("x" + max + "b");
    assertThat(KeyOrder.prefixSuccessor("a\uD7FF")).contains("a\uE000");
    assertThat(KeyOrder.prefixSuccessor("\uD7FE")).contains("\uD7FF");
    assertThat(KeyOrder.prefixSuccessor("a\uFFFF")).contains("a\uD800\uDC00");
    assertThat(KeyOrder.prefixSuccessor("\uD83D\uDE00")).contains("\uD83D\uDE01");
    assertThat(KeyOrder.prefixSuccessor("\uD83D\uDFFF")).contains("\uD83E\uDC00");
    assertThat(KeyOrder.prefixSuccessor("\uDBFF\uDFFE")).contains("\uDBFF\uDFFF");
  }

  @Example
  void successorAppendsNul() {
    assertThat(KeyOrder.successor("a")).isEqualTo("a\0");
    assertThat(KeyOrder.successor("")).isEqualTo("\0");
  }

  @Property
  void successorIsTheSmallestGreaterString(@ForAll("strings") String k, @ForAll("strings") String s) {
    String n = KeyOrder.successor(k);
    assertThat(KeyOrder.compare(n, k)).isPositive();
    if (utf8Sign(s, k) > 0) {
      assertThat(utf8Sign(s, n)).isGreaterThanOrEqualTo(0);
    }
  }

  // ---- well-formedness and length

  @Example
  void isWellFormed() {
    assertThat(KeyOrder.isWellFormed("")).isTrue();
    assertThat(KeyOrder.isWellFormed("abc\0")).isTrue();
    assertThat(KeyOrder.isWellFormed("\uD83D\uDE00")).isTrue();
    assertThat(KeyOrder.isWellFormed("a\uD83D\uDE00b\uDBFF\uDFFF")).isTrue();
    assertThat(KeyOrder.isWellFormed("\uD7FF\uE000\uFFFF")).isTrue();
    assertThat(KeyOrder.isWellFormed("\uD83D")).isFalse();
    assertThat(KeyOrder.isWellFormed("a\uD83D")).isFalse();
    assertThat(KeyOrder.isWellFormed("\uD83Da")).isFalse();
    assertThat(KeyOrder.isWellFormed("\uDE00")).isFalse();
    assertThat(KeyOrder.isWellFormed("a\uDE00b")).isFalse();
    assertThat(KeyOrder.isWellFormed("\uDE00\uD83D")).isFalse();
    assertThat(KeyOrder.isWellFormed("\uD83D\uD83D\uDE00")).isFalse();
    assertThat(KeyOrder.isWellFormed("\uD83D\uDE00\uDE00")).isFalse();
  }

  @Property
  void generatedStringsAreWellFormed(@ForAll("strings") String s) {
    assertThat(KeyOrder.isWellFormed(s)).isTrue();
  }

  @Property
  void stringsWithALoneSurrogateAreNotWellFormed(@ForAll("strings") String a,
      @ForAll("strings") String b) {
    assertThat(KeyOrder.isWellFormed(a + "\uD800" + (b.isEmpty() ? "" : "x" + b))).isFalse();
    assertThat(KeyOrder.isWellFormed(a + "\uDFFF" + b)).isFalse();
  }

  @Property(tries = 2000)
  void utf8LengthEqualsEncodedLength(@ForAll("strings") String s) {
    assertThat(KeyOrder.utf8Length(s)).isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
  }

  @Example
  void utf8LengthBoundaries() {
    assertThat(KeyOrder.utf8Length("")).isZero();
    assertThat(KeyOrder.utf8Length("\0")).isEqualTo(1);
    assertThat(KeyOrder.utf8Length("\u007f")).isEqualTo(1);
    assertThat(KeyOrder.utf8Length("\u0080")).isEqualTo(2);
    assertThat(KeyOrder.utf8Length("\u07ff")).isEqualTo(2);
    assertThat(KeyOrder.utf8Length("\u0800")).isEqualTo(3);
    assertThat(KeyOrder.utf8Length("\uD7FF")).isEqualTo(3);
    assertThat(KeyOrder.utf8Length("\uE000")).isEqualTo(3);
    assertThat(KeyOrder.utf8Length("\uFFFF")).isEqualTo(3);
    assertThat(KeyOrder.utf8Length("\uD800\uDC00")).isEqualTo(4);
    assertThat(KeyOrder.utf8Length("\uDBFF\uDFFF")).isEqualTo(4);
    assertThat(KeyOrder.utf8Length("a\uD83D\uDE00b")).isEqualTo(6);
    assertThat(KeyOrder.utf8Length(new StringBuilder("\u00e9\u00e9"))).isEqualTo(4);
  }
}
