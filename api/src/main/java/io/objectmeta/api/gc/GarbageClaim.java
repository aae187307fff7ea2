package io.objectmeta.api.gc;

import java.time.Instant;
import java.util.List;

/**
 * A batch of GC records held under a lease.
 *
 * @param claimId identifies the claim to acknowledge or release with
 * @param leaseExpires when the records return to the queue if not acknowledged
 * @param records the claimed records, oldest first
 */
public record GarbageClaim(String claimId, Instant leaseExpires, List<GarbageRecord> records) {
  public GarbageClaim {
    records = List.copyOf(records);
  }

  public boolean isEmpty() {
    return records.isEmpty();
  }

  /**
   * The end of a lease that starts {@code now}, rounded up to the millisecond: for a store that
   * keeps lease ends in milliseconds, so a record is free again exactly when the claim says its
   * lease expires, not up to a millisecond before.
   */
  public static java.time.Instant leaseEndInMillis(java.time.Instant now, java.time.Duration lease) {
    return java.time.Instant.ofEpochMilli(now.plus(lease).plusNanos(999_999).toEpochMilli());
  }
}
