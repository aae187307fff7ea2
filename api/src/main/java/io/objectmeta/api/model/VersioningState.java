package io.objectmeta.api.model;

/**
 * A bucket's versioning state. A bucket starts {@link #UNVERSIONED}; once {@link #ENABLED} it can
 * only move between ENABLED and {@link #SUSPENDED}, never back to UNVERSIONED (as in S3).
 */
public enum VersioningState {
  /** Never versioned: a put overwrites the null version, a delete removes it. */
  UNVERSIONED,
  /** Every put mints a new version; deletes without a version id add delete markers. */
  ENABLED,
  /** Puts and deletes replace the null version; versions made while enabled stay. */
  SUSPENDED;

  /** Whether history is kept (the bucket was ever versioned). */
  public boolean versioned() {
    return this != UNVERSIONED;
  }
}
