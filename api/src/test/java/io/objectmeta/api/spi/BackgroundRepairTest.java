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
    try (BackgroundRepair r = BackgroundRepair.start("test-repair", Duration.ofHours(1), () -> {
      on[0] = Thread.currentThread();
      ran.countDown();
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
    try (BackgroundRepair r = BackgroundRepair.start("test-repair", Duration.ofMillis(5), () -> {
      rounds.incrementAndGet();
      third.countDown();
      throw new IllegalStateException("database unreachable");
    })) {
      assertThat(third.await(10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(rounds.get()).isGreaterThanOrEqualTo(3);
  }

  @Test
  void closingStopsTheRounds() throws Exception {
    AtomicInteger rounds = new AtomicInteger();
    CountDownLatch first = new CountDownLatch(1);
    BackgroundRepair r = BackgroundRepair.start("test-repair", Duration.ofMillis(5), () -> {
      rounds.incrementAndGet();
      first.countDown();
    });
    assertThat(first.await(10, TimeUnit.SECONDS)).isTrue();
    r.close();
    int after = rounds.get();
    Thread.sleep(100);
    assertThat(rounds.get()).as("no round after close").isEqualTo(after);
  }
}
