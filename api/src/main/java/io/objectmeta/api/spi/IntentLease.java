package io.objectmeta.api.spi;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * How long a recorded intent (or a close, or a freeze) belongs to the writer that recorded it:
 * within its lease others wait for that writer; after it, the writer is taken for dead and its
 * work is rolled forward (or lifted) by whoever meets it. The lease arithmetic of every backend
 * that writes in steps, in one place.
 *
 * @param length the lease
 * @param clock the store's clock (wall time: leases are compared across processes)
 */
public record IntentLease(Duration length, Clock clock) {

  public IntentLease {
    Objects.requireNonNull(length, "length");
    Objects.requireNonNull(clock, "clock");
    if (length.isNegative()) {
      throw new IllegalArgumentException("a lease cannot be negative: " + length);
    }
  }

  /** The wall time (epoch ms) before which a lease taken has run out: now minus the lease. */
  public long cutoffMillis() {
    return cutoffMillis(length);
  }

  /** As {@link #cutoffMillis()} for another age (a repair run for intents older than {@code age}). */
  public long cutoffMillis(Duration age) {
    return clock.millis() - age.toMillis();
  }

  /** Whether a lease taken at {@code sinceMillis} has run out: its holder is taken for dead. */
  public boolean expired(long sinceMillis) {
    return sinceMillis < cutoffMillis();
  }

  /** Whether a lease taken at {@code sinceMillis} (null: none taken) is still held. */
  public boolean held(Long sinceMillis) {
    return sinceMillis != null && sinceMillis > cutoffMillis();
  }

  /**
   * How long a writer waits for another one before giving up: twice the lease, since the other
   * clears its intent, or someone rolls it forward, within one lease.
   */
  public Duration waitLimit() {
    return length.multipliedBy(2);
  }
}
