package io.objectmeta.api.migrate;

/** What a {@link StoreMigration} is doing, in the order it does it. */
public enum MigrationPhase {
  /** Copying a bucket (restored first, settings included) and its keys with their histories. */
  KEYS,
  /** Copying a bucket's in-progress multipart uploads with their parts. */
  UPLOADS,
  /** Copying the GC queue, after every bucket. */
  GARBAGE,
  /** Comparing the two stores. */
  VERIFY,
  /** Finished copying (a checkpoint in this phase resumes straight to verification). */
  DONE
}
