package io.objectmeta.api.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BackgroundRepairTest {

  @Test
  void theFirstRoundRunsAtOnceOnADaemonThreadOfItsName() throws Exception {
    CountDownLatch ran = new CountDownLatch(1);
    Thread[] on = new Thread[1];
    try (BackgroundRepair r = BackgroundRepair.start("test-repair", "test store", Duration.ofHours(1), () -> {
      on[0] = Thread.currentThread();
      ran.countDown();
      return 0;
    })) {
      assertThat(ran.await(10, TimeUnit.SECONDS)).as("first round without waiting an interval")
          .isTrue();
      assertThat(on[0].getName()).isEqualTo("test-repair");
      assertThat(on[0].isDaemon()).isTrue();
    }
  }

  @Test
  void aFailedRoundDoesNotStopTheNext() throws Exception {
    AtomicInteger rounds = new AtomicInteger();
    CountDownLatch third = new CountDownLatch(3);
    IllegalStateException down = new IllegalStateException("database unreachable");
    BackgroundRepair r = BackgroundRepair.start("test-repair", "test store", Duration.ofMillis(5), () -> {
      rounds.incrementAndGet();
      third.countDown();
      throw down;
    });
    try {
      assertThat(third.await(10, TimeUnit.SECONDS)).isTrue();
    } finally {
      r.close();
    }
    assertThat(rounds.get()).isGreaterThanOrEqualTo(3);
    assertThat(r.failedRounds()).as("each failed round counted").isEqualTo(r.rounds());
    assertThat(r.lastFailure()).isSameAs(down);
    assertThat(r.repaired()).isZero();
  }

  @Test
  void closingStopsTheRounds() throws Exception {
    AtomicInteger rounds = new AtomicInteger();
    CountDownLatch first = new CountDownLatch(1);
    BackgroundRepair r = BackgroundRepair.start("test-repair", "test store", Duration.ofMillis(5), () -> {
      rounds.incrementAndGet();
      first.countDown();
      return 2;
    });
    assertThat(first.await(10, TimeUnit.SECONDS)).isTrue();
    r.close();
    int after = rounds.get();
    Thread.sleep(100);
    assertThat(rounds.get()).as("no round after close").isEqualTo(after);
    assertThat(r.repaired()).as("what the rounds said they repaired").isEqualTo(2L * r.rounds());
    assertThat(r.failedRounds()).isZero();
  }
}
