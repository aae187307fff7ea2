package io.objectmeta.api.spi;

import io.objectmeta.api.error.ServiceUnavailableException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How a backend retries an optimistic write that lost a race: at most {@code maxRetries}
 * restarts after the first attempt, jittered backoff between them (a spin, then sleeps of up to 1, 2, 4… ms, capped at
 * {@code maxSleepMillis}), and the retryable {@link ServiceUnavailableException} when the budget
 * is spent, saying how many attempts over how long. One per store, from its options
 * ({@code maxRetries}); every conflict loop of a backend goes through it, so none is unbounded.
 *
 * @param backend the backend's name, for messages
 * @param maxRetries restarts after the first attempt before giving up (at least 1)
 * @param maxSleepMillis the longest single pause
 */
public record RetryPolicy(String backend, int maxRetries, long maxSleepMillis) {

  /** The default budget of every backend: 100 restarts. */
  public static final int DEFAULT_MAX_RETRIES = 100;

  public RetryPolicy {
    if (maxRetries < 1 || maxSleepMillis < 1) {
      throw new IllegalArgumentException("maxRetries and maxSleepMillis must be positive");
    }
  }

  /** The policy the store's {@code maxRetries} option asks for (default 100). */
  public static RetryPolicy of(String backend, StoreOptions options, long maxSleepMillis) {
    return new RetryPolicy(backend, options.positiveInt("maxRetries", DEFAULT_MAX_RETRIES),
        maxSleepMillis);
  }

  /**
   * After attempt {@code attempt} (from 0) lost its race: pauses before the next, or throws when
   * that was the last one the budget allows.
   *
   * @param startNanos {@link System#nanoTime()} when the first attempt began
   * @param what what kept failing, for the message ("the bucket kept changing")
   */
  public void backoff(int attempt, long startNanos, String what) {
    if (attempt >= maxRetries) {
      throw new ServiceUnavailableException(backend + ": " + what + " after " + (attempt + 1)
          + " attempts in " + Duration.ofNanos(System.nanoTime() - startNanos).toMillis()
          + " ms (maxRetries " + maxRetries + "); try again");
    }
    pause(attempt);
  }

  /**
   * Runs {@code attempt} until it wins: an attempt returns its result, or null when it lost a race
   * and wrote nothing; then it runs again after the pause, until the budget is spent
   * ({@link #backoff}). The compare-and-set loops of bucket updates and restores use it.
   *
   * @param what what kept failing, for the message ("the bucket kept changing")
   */
  public <T> T untilWon(String what, java.util.function.Supplier<T> attempt) {
    long start = System.nanoTime();
    for (int n = 0; ; n++) {
      T result = attempt.get();
      if (result != null) {
        return result;
      }
      backoff(n, start, what);
    }
  }

  /**
   * A wait for another writer (its intent to clear) that is not a lost race: bounded by time
   * only, it throws once {@code limit} has passed since {@code startNanos}.
   */
  public void await(int round, long startNanos, Duration limit, String what) {
    long waited = System.nanoTime() - startNanos;
    if (waited > limit.toNanos()) {
      throw new ServiceUnavailableException(backend + ": " + what + " for "
          + Duration.ofNanos(waited).toMillis() + " ms (the limit is " + limit.toMillis()
          + " ms); try again");
    }
    pause(round);
  }

  /** The jittered pause after round {@code round}: a spin first, then up to 2^round ms. */
  public void pause(int round) {
    if (round == 0) {
      Thread.onSpinWait();
      return;
    }
    long cap = Math.min(maxSleepMillis, 1L << Math.min(round, 20));
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(cap) + 1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServiceUnavailableException(backend + ": interrupted");
    }
  }
}
