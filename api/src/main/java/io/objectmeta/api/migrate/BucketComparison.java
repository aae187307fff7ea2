package io.objectmeta.api.migrate;

/**
 * A source bucket next to the target's bucket of that name.
 *
 * @param source the source's summary
 * @param target the target's summary, or null when the target has no such bucket
 */
public record BucketComparison(BucketSummary source, BucketSummary target) {
  /** Whether the target holds the same bucket. */
  public boolean matches() {
    return source.equals(target);
  }
}
