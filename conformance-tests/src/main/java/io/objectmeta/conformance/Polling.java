package io.objectmeta.conformance;

import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Bounded waiting: the only place the suite sleeps, in small steps until a condition holds. */
public final class Polling {
  private Polling() {}

  /** The longest any poll waits before the test fails. */
  public static final Duration LIMIT = Duration.ofSeconds(10);

  /** Waits until {@code condition} holds; fails with {@code what} after {@link #LIMIT}. */
  public static void until(String what, BooleanSupplier condition) {
    until(what, LIMIT, condition);
  }

  /** Waits until {@code condition} holds; fails with {@code what} after {@code limit}. */
  public static void until(String what, Duration limit, BooleanSupplier condition) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + limit + " waiting until " + what);
      }
      pause();
    }
  }

  /** Polls {@code supplier} until it returns non-null, and returns that. */
  public static <T> T untilPresent(String what, Supplier<T> supplier) {
    long deadline = System.nanoTime() + LIMIT.toNanos();
    T value;
    while ((value = supplier.get()) == null) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + LIMIT + " waiting for " + what);
      }
      pause();
    }
    return value;
  }

  /**
   * Waits until the wall clock has passed {@code instant} by at least one millisecond, so that a
   * write after this call gets a later timestamp than anything stamped at {@code instant}.
   */
  public static void clockPast(Instant instant) {
    until("the clock passes " + instant, () -> Instant.now().isAfter(instant.plusMillis(1)));
  }

  private static void pause() {
    try {
      Thread.sleep(2);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while polling", e);
    }
  }
}
