package io.objectmeta.api.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.ServiceUnavailableException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

  @Test
  void aSteadyConflictEndsInServiceUnavailableAfterTheBudgetSayingHowManyAttempts() {
    RetryPolicy p = new RetryPolicy("test", 5, 1);
    long start = System.nanoTime();
    int attempts = 0;
    Throwable end = null;
    try {
      for (int attempt = 0; ; attempt++) {
        attempts++;
        p.backoff(attempt, start, "the row kept changing"); // every attempt loses
      }
    } catch (ServiceUnavailableException e) {
      end = e;
    }
    assertThat(attempts).isEqualTo(6);
    assertThat(end).hasMessageStartingWith("test: the row kept changing after 6 attempts in ")
        .hasMessageContaining("ms (maxRetries 5)");
    assertThat(((ServiceUnavailableException) end).isRetryable()).isTrue();
  }

  @Test
  void aWaitForAnotherWriterIsBoundedByTimeNotAttempts() {
    RetryPolicy p = new RetryPolicy("test", 1, 1);
    long start = System.nanoTime();
    for (int round = 0; round < 10; round++) {
      p.await(round, start, Duration.ofMinutes(1), "the key stayed busy"); // within the limit
    }
    assertThatThrownBy(() -> p.await(11, start - Duration.ofMinutes(2).toNanos(),
        Duration.ofMinutes(1), "the key stayed busy"))
        .isInstanceOf(ServiceUnavailableException.class)
        .hasMessageContaining("the key stayed busy for").hasMessageContaining("the limit is 60000 ms");
  }

  @Test
  void theBudgetComesFromTheStoresOptions() {
    assertThat(RetryPolicy.of("x", StoreOptions.of(URI.create("x://h?maxRetries=7"), Map.of()), 5)
        .maxRetries()).isEqualTo(7);
    assertThat(RetryPolicy.of("x", StoreOptions.of(URI.create("x://h"), Map.of()), 5).maxRetries())
        .isEqualTo(RetryPolicy.DEFAULT_MAX_RETRIES);
    assertThatThrownBy(() -> RetryPolicy.of("x",
        StoreOptions.of(URI.create("x://h?maxRetries=0"), Map.of()), 5))
        .isInstanceOf(InvalidArgumentException.class).hasMessageStartingWith("maxRetries: ");
  }

  @Test
  void anInterruptedPauseIsServiceUnavailableAndKeepsTheInterrupt() {
    RetryPolicy p = new RetryPolicy("test", 100, 50);
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> p.pause(6)).isInstanceOf(ServiceUnavailableException.class)
          .hasMessage("test: interrupted");
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void untilWonRunsAnAttemptAgainAfterALostRaceAndStopsAtTheBudget() {
    RetryPolicy p = new RetryPolicy("test", 3, 1);
    int[] runs = {0};
    assertThat(p.untilWon("the bucket kept changing", () -> ++runs[0] < 3 ? null : "won"))
        .isEqualTo("won");
    assertThat(runs[0]).isEqualTo(3);
    runs[0] = 0;
    assertThatThrownBy(() -> p.untilWon("the bucket kept changing", () -> {
      runs[0]++;
      return null;
    })).isInstanceOf(ServiceUnavailableException.class)
        .hasMessageStartingWith("test: the bucket kept changing after 4 attempts in ");
    assertThat(runs[0]).isEqualTo(4);
  }
}
