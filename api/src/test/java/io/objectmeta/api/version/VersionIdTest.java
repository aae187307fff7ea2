package io.objectmeta.api.version;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.objectmeta.api.error.InvalidArgumentException;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Comparator;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class VersionIdTest {
  private static final String CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  private static final long MAX48 = (1L << 48) - 1;
  private static final int MAX24 = (1 << 24) - 1;

  /** Newest first: larger millis first, then larger counter first, then smaller writer first. */
  private static final Comparator<VersionId> MODEL_NEWEST_FIRST = Comparator
      .comparingLong((VersionId v) -> -v.millis())
      .thenComparingInt(v -> -v.counter())
      .thenComparingLong(VersionId::writer);

  private static final Comparator<VersionId> MODEL_OLDEST_FIRST = Comparator
      .comparingLong(VersionId::millis)
      .thenComparingInt(VersionId::counter)
      .thenComparingLong(VersionId::writer);

  /** An independent encoder: the 120-bit big-endian number in 24 Crockford base32 digits. */
  static String crockford(long a, long b, long c) {
    BigInteger n = BigInteger.valueOf(a).shiftLeft(72)
        .or(BigInteger.valueOf(b).shiftLeft(48))
        .or(BigInteger.valueOf(c));
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 24; i++) {
      sb.append(CROCKFORD.charAt(n.and(BigInteger.valueOf(31)).intValue()));
      n = n.shiftRight(5);
    }
    return sb.reverse().toString();
  }

  @Provide
  Arbitrary<VersionId> ids() {
    Arbitrary<Long> millis = Arbitraries.oneOf(Arbitraries.longs().between(0, MAX48),
        Arbitraries.longs().between(1_700_000_000_000L, 1_700_000_000_003L),
        Arbitraries.of(0L, 1L, MAX48, MAX48 - 1));
    Arbitrary<Integer> counter = Arbitraries.oneOf(Arbitraries.integers().between(0, MAX24),
        Arbitraries.integers().between(0, 3), Arbitraries.of(MAX24, MAX24 - 1, 255, 256));
    Arbitrary<Long> writer = Arbitraries.oneOf(Arbitraries.longs().between(0, MAX48),
        Arbitraries.longs().between(0, 3), Arbitraries.of(MAX48, MAX48 - 1));
    return Combinators.combine(millis, counter, writer).as(VersionId::new);
  }

  @Property(tries = 2000)
  void encodeMatchesAnIndependentEncoder(@ForAll("ids") VersionId v) {
    assertThat(v.encode()).isEqualTo(crockford(MAX48 - v.millis(), MAX24 - v.counter(), v.writer()));
    assertThat(v.encodeOldestFirst()).isEqualTo(crockford(v.millis(), v.counter(), v.writer()));
    assertThat(v.toString()).isEqualTo(v.encode());
  }

  @Property(tries = 2000)
  void roundTrips(@ForAll("ids") VersionId v) {
    assertThat(v.encode()).hasSize(24);
    assertThat(VersionId.decode(v.encode(), "f")).isEqualTo(v);
    assertThat(VersionId.decodeOldestFirst(v.encodeOldestFirst(), "f")).isEqualTo(v);
    assertThat(v.timestamp()).isEqualTo(Instant.ofEpochMilli(v.millis()));
  }

  @Property(tries = 3000)
  void encodedOrderIsNewestFirst(@ForAll("ids") VersionId a, @ForAll("ids") VersionId b) {
    int model = Integer.signum(MODEL_NEWEST_FIRST.compare(a, b));
    assertThat(Integer.signum(a.compareTo(b))).isEqualTo(model);
    assertThat(Integer.signum(VersionId.NEWEST_FIRST.compare(a, b))).isEqualTo(model);
    assertThat(Integer.signum(a.encode().compareTo(b.encode()))).isEqualTo(model);
    assertThat(Integer.signum(a.encodeOldestFirst().compareTo(b.encodeOldestFirst())))
        .isEqualTo(Integer.signum(MODEL_OLDEST_FIRST.compare(a, b)));
  }

  @Example
  void newerSortsFirst() {
    VersionId older = new VersionId(1000, 5, 7);
    VersionId newerMillis = new VersionId(1001, 0, 7);
    VersionId newerCounter = new VersionId(1000, 6, 7);
    VersionId otherWriter = new VersionId(1000, 5, 8);
    assertThat(newerMillis.compareTo(older)).isNegative();
    assertThat(older.compareTo(newerMillis)).isPositive();
    assertThat(newerCounter.compareTo(older)).isNegative();
    assertThat(older.compareTo(newerCounter)).isPositive();
    assertThat(older.compareTo(otherWriter)).isNegative();
    assertThat(otherWriter.compareTo(older)).isPositive();
    assertThat(older.compareTo(new VersionId(1000, 5, 7))).isZero();
    assertThat(newerMillis.encode()).isLessThan(older.encode());
    assertThat(newerCounter.encode()).isLessThan(older.encode());
    assertThat(newerMillis.encodeOldestFirst()).isGreaterThan(older.encodeOldestFirst());
    assertThat(newerCounter.encodeOldestFirst()).isGreaterThan(older.encodeOldestFirst());
  }

  @Example
  void knownVectors() {
    assertThat(new VersionId(0, 0, 0).encode()).isEqualTo("ZZZZZZZZZZZZZZR000000000");
    assertThat(new VersionId(0, 0, 0).encodeOldestFirst()).isEqualTo("000000000000000000000000");
    assertThat(new VersionId(MAX48, MAX24, MAX48).encode()).isEqualTo("000000000000007ZZZZZZZZZ");
    assertThat(new VersionId(MAX48, MAX24, MAX48).encodeOldestFirst())
        .isEqualTo("ZZZZZZZZZZZZZZZZZZZZZZZZ");
    assertThat(new VersionId(0, 0, 1).encodeOldestFirst()).isEqualTo("000000000000000000000001");
    assertThat(VersionId.decode("ZZZZZZZZZZZZZZR000000000", "x")).isEqualTo(new VersionId(0, 0, 0));
  }

  @Example
  void constructorRanges() {
    new VersionId(0, 0, 0);
    new VersionId(MAX48, MAX24, MAX48);
    assertThatThrownBy(() -> new VersionId(-1, 0, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("millis");
    assertThatThrownBy(() -> new VersionId(MAX48 + 1, 0, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("millis");
    assertThatThrownBy(() -> new VersionId(0, -1, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("counter");
    assertThatThrownBy(() -> new VersionId(0, MAX24 + 1, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("counter");
    assertThatThrownBy(() -> new VersionId(0, 0, -1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("writer");
    assertThatThrownBy(() -> new VersionId(0, 0, MAX48 + 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("writer");
    assertThat(VersionId.MAX_MILLIS).isEqualTo(MAX48);
    assertThat(VersionId.MAX_COUNTER).isEqualTo(MAX24);
    assertThat(VersionId.MAX_WRITER).isEqualTo(MAX48);
  }

  private static void rejected(String text, String field) {
    InvalidArgumentException e = catchThrowableOfType(InvalidArgumentException.class,
        () -> VersionId.decode(text, field));
    assertThat(e).as("decode(%s)", text).isNotNull();
    assertThat(e.field()).isEqualTo(field);
    assertThat(e.getMessage()).startsWith(field + ": ");
    assertThat(e.code()).isEqualTo("InvalidArgument");
    assertThat(e.httpStatus()).isEqualTo(400);
    InvalidArgumentException e2 = catchThrowableOfType(InvalidArgumentException.class,
        () -> VersionId.decodeOldestFirst(text, field));
    assertThat(e2).isNotNull();
    assertThat(e2.field()).isEqualTo(field);
  }

  @Example
  void decodeRejectsWrongLengths() {
    String ok = new VersionId(1_700_000_000_000L, 3, 42).encode();
    rejected(null, "versionId");
    rejected("", "versionId");
    rejected("null", "versionIdMarker");
    rejected(ok.substring(1), "versionIdMarker");
    rejected(ok + "0", "refs[3].versionId");
    assertThat(VersionId.decode(ok, "x")).isEqualTo(new VersionId(1_700_000_000_000L, 3, 42));
  }

  @Example
  void decodeRejectsCharactersOutsideCrockfordBase32() {
    String ok = new VersionId(1_700_000_000_000L, 3, 42).encode();
    for (char bad : new char[] {'I', 'L', 'O', 'U', 'a', 'z', '-', '_', ' ', '\u00e9', '\u0660', '[',
        '@', '/', ':', '\u007f', '\uFF10'}) {
      String text = ok.substring(0, 23) + bad;
      rejected(text, "versionId");
      String first = bad + ok.substring(1);
      rejected(first, "versionId");
      InvalidArgumentException e = catchThrowableOfType(InvalidArgumentException.class,
          () -> VersionId.decode(first, "versionId"));
      assertThat(e.getMessage()).contains("'" + bad + "'");
    }
  }

  @Property
  void decodeAcceptsEveryCrockfordStringOfLength24(@ForAll("crockfordText") String text) {
    VersionId v = VersionId.decode(text, "f");
    assertThat(v.encode()).isEqualTo(text);
    assertThat(VersionId.decodeOldestFirst(text, "f").encodeOldestFirst()).isEqualTo(text);
  }

  @Provide
  Arbitrary<String> crockfordText() {
    return Arbitraries.strings().withChars(CROCKFORD.toCharArray()).ofLength(24);
  }
}
