package io.objectmeta.bench;

/** One side of a measured workload: untimed preparation, then the timed loop. */
public interface Phase {

  /** Untimed: builds what run {@code iteration} needs (keys, binds, a full GC queue). */
  default void prepare(int iteration) throws Exception {}

  /** Timed: runs iteration {@code iteration}; returns how many operations it did. */
  long run(int iteration) throws Exception;
}
