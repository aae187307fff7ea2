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
}
