package io.objectmeta.api.migrate;

import java.util.List;

/**
 * What comparing two stores found: every source bucket next to the target's, the two GC queues,
 * and the differences. The target may hold buckets the source lacks (listed, not a mismatch:
 * a migration may go into a store in use).
 *
 * @param buckets each source bucket, in name order, with the target's
 * @param onlyInTarget names of target buckets the source does not have
 * @param sourceGarbage the source's GC queue
 * @param targetGarbage the target's GC queue
 * @param mismatches every difference found (for a bucket whose versions differ, up to ten
 *     differing keys or versions are named)
 */
public record VerificationReport(List<BucketComparison> buckets, List<String> onlyInTarget,
    GarbageSummary sourceGarbage, GarbageSummary targetGarbage, List<Mismatch> mismatches) {

  public VerificationReport {
    buckets = List.copyOf(buckets);
    onlyInTarget = List.copyOf(onlyInTarget);
    mismatches = List.copyOf(mismatches);
  }

  /** Whether the target holds everything the source holds, the same. */
  public boolean matches() {
    return mismatches.isEmpty();
  }
}
