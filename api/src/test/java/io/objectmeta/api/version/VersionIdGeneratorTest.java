package io.objectmeta.api.version;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.stream.LongStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class VersionIdGeneratorTest {
  private static final long MAX48 = (1L << 48) - 1;

  private static LongSupplier sequence(long... millis) {
    PrimitiveIterator.OfLong it = LongStream.of(millis).iterator();
    return it::nextLong;
  }

  @Test
  void clockSteppingBackNeverGoesBelowTheLastMillisecond() {
    VersionIdGenerator g = new VersionIdGenerator(sequence(100, 100, 99, 50, 101, 101, 200, 7), 9);
    List<VersionId> ids = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      ids.add(g.next());
    }
    assertThat(ids).containsExactly(
        new VersionId(100, 0, 9), new VersionId(100, 1, 9), new VersionId(100, 2, 9),
        new VersionId(100, 3, 9), new VersionId(101, 0, 9), new VersionId(101, 1, 9),
        new VersionId(200, 0, 9), new VersionId(200, 1, 9));
    for (int i = 1; i < ids.size(); i++) {
      assertThat(ids.get(i).compareTo(ids.get(i - 1))).isNegative();
      assertThat(ids.get(i).encode()).isLessThan(ids.get(i - 1).encode());
    }
  }

  @Test
  void firstIdAtClockZeroIsMillisZero() {
    VersionIdGenerator g = new VersionIdGenerator(() -> 0, 1);
    assertThat(g.next()).isEqualTo(new VersionId(0, 0, 1));
    assertThat(g.next()).isEqualTo(new VersionId(0, 1, 1));
  }

  @Test
  void clockOutsideTheRangeIsClamped() {
    VersionIdGenerator negative = new VersionIdGenerator(() -> -5, 1);
    assertThat(negative.next()).isEqualTo(new VersionId(0, 0, 1));
    VersionIdGenerator huge = new VersionIdGenerator(() -> Long.MAX_VALUE, 1);
    assertThat(huge.next()).isEqualTo(new VersionId(MAX48, 0, 1));
    assertThat(huge.next()).isEqualTo(new VersionId(MAX48, 1, 1));
  }

  @Test
  void frozenClockCountsUpWithinTheMillisecond() {
    VersionIdGenerator g = new VersionIdGenerator(() -> 1_700_000_000_000L, 3);
    Set<String> seen = new HashSet<>();
    VersionId prev = null;
    for (int i = 0; i < 5000; i++) {
      VersionId v = g.next();
      assertThat(v.millis()).isEqualTo(1_700_000_000_000L);
      assertThat(v.counter()).isEqualTo(i);
      assertThat(v.writer()).isEqualTo(3);
      assertThat(seen.add(v.encode())).isTrue();
      if (prev != null) {
        assertThat(v.compareTo(prev)).isNegative();
      }
      prev = v;
    }
  }

  /**
   * Minting 2^24 ids takes seconds, so this starts a generator at a known state (its last
   * millisecond and counter) and checks the step from the last counter value into the borrowed next millisecond.
   */
  @Test
  void counterOverflowBorrowsTheNextMillisecond() {
    assertThat(new VersionIdGenerator(() -> 1000, 5).next()).isEqualTo(new VersionId(1000, 0, 5));
    VersionIdGenerator g = new VersionIdGenerator(() -> 1000, 5, 1000, VersionId.MAX_COUNTER - 1);
    VersionId last = g.next();
    assertThat(last).isEqualTo(new VersionId(1000, VersionId.MAX_COUNTER, 5));
    VersionId borrowed = g.next();
    assertThat(borrowed).isEqualTo(new VersionId(1001, 0, 5));
    assertThat(borrowed.compareTo(last)).isNegative();
    assertThat(g.next()).isEqualTo(new VersionId(1001, 1, 5));
    // the clock catching up with the borrowed millisecond keeps counting in it
    assertThat(g.next()).isEqualTo(new VersionId(1001, 2, 5));
  }

  @Test
  void borrowedMillisecondIsLeftWhenTheClockPassesIt() {
    long[] now = {1000};
    VersionIdGenerator g = new VersionIdGenerator(() -> now[0], 5, 1000, VersionId.MAX_COUNTER);
    assertThat(g.next()).isEqualTo(new VersionId(1001, 0, 5));
    now[0] = 1001;
    assertThat(g.next()).isEqualTo(new VersionId(1001, 1, 5));
    now[0] = 1002;
    assertThat(g.next()).isEqualTo(new VersionId(1002, 0, 5));
  }

  @Test
  void writerIdRange() {
    assertThat(new VersionIdGenerator(() -> 0, 0).writer()).isZero();
    assertThat(new VersionIdGenerator(() -> 0, MAX48).writer()).isEqualTo(MAX48);
    assertThat(new VersionIdGenerator(() -> 0, MAX48).next().writer()).isEqualTo(MAX48);
    assertThatThrownBy(() -> new VersionIdGenerator(() -> 0, -1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new VersionIdGenerator(() -> 0, MAX48 + 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void defaultGeneratorUsesTheSystemClockAndARandomWriter() {
    long before = System.currentTimeMillis();
    VersionIdGenerator g = new VersionIdGenerator();
    VersionId a = g.next();
    VersionId b = g.next();
    long after = System.currentTimeMillis();
    assertThat(a.millis()).isBetween(before, after);
    assertThat(b.compareTo(a)).isNegative();
    assertThat(g.writer()).isBetween(0L, MAX48);
    assertThat(a.writer()).isEqualTo(g.writer());
    Set<Long> writers = new HashSet<>();
    for (int i = 0; i < 20; i++) {
      writers.add(new VersionIdGenerator().writer());
    }
    assertThat(writers.size()).isGreaterThan(1);
  }

  @Provide
  Arbitrary<long[]> clocks() {
    return Arbitraries.longs().between(0, 50).array(long[].class).ofMinSize(1).ofMaxSize(200);
  }

  @Property(tries = 300)
  void monotonicUnderAnyClock(@ForAll("clocks") long[] clock) {
    VersionIdGenerator g = new VersionIdGenerator(sequence(clock), 77);
    VersionId prev = null;
    long maxSeen = -1;
    for (long t : clock) {
      VersionId v = g.next();
      maxSeen = Math.max(maxSeen, t);
      assertThat(v.millis()).isEqualTo(maxSeen);
      if (prev != null) {
        assertThat(v.compareTo(prev)).isNegative();
        assertThat(v.encode().compareTo(prev.encode())).isNegative();
      }
      prev = v;
    }
  }

  @Property(tries = 200)
  void twoWritersOnTheSameClockNeverCollide(@ForAll("clocks") long[] clock,
      @ForAll("writers") long w1, @ForAll("writers") long w2) {
    if (w1 == w2) {
      return;
    }
    AtomicLong tick = new AtomicLong();
    LongSupplier shared = () -> clock[(int) (tick.getAndIncrement() / 2 % clock.length)];
    VersionIdGenerator a = new VersionIdGenerator(shared, w1);
    VersionIdGenerator b = new VersionIdGenerator(shared, w2);
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < clock.length * 2; i++) {
      assertThat(seen.add(a.next().encode())).isTrue();
      assertThat(seen.add(b.next().encode())).isTrue();
    }
  }

  @Provide
  Arbitrary<Long> writers() {
    return Arbitraries.oneOf(Arbitraries.longs().between(0, 3), Arbitraries.longs().between(0, MAX48));
  }
}
