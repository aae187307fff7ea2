package io.objectmeta.api;

/**
 * Optional behaviours. A backend declares what it supports in {@link MetadataStore#capabilities()};
 * a call that needs a missing one throws {@link io.objectmeta.api.error.NotImplementedException},
 * and the conformance suite checks exactly that instead of skipping silently.
 */
public enum Capability {
  /** {@code asOf} listings of versioned buckets. */
  POINT_IN_TIME_LISTING,
  /** The lifecycle listings (older-than, non-current, orphan delete markers). */
  LIFECYCLE_LISTINGS,
  /** Multipart upload records. */
  MULTIPART_UPLOADS
}
