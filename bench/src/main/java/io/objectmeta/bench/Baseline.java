package io.objectmeta.bench;

import java.util.List;
import java.util.function.IntFunction;

/**
 * A backend's raw counterpart: the same requests to the same database without the backend's
 * code. The harness runs it in the same process, interleaved with the backend, on buckets
 * prepared identically.
 */
public interface Baseline extends AutoCloseable {

  /**
   * The raw phase of a workload over {@code bucket} (prepared like the backend's), doing the
   * operations {@code ops} plans for each iteration; null when there is no baseline for it.
   * For {@link Workload#GC_DRAIN} the phase drains whatever the queue holds.
   */
  Phase phase(Workload w, String bucket, IntFunction<List<Op>> ops);

  /** What the baseline of {@code w} does, for the report's notes (or null). */
  default String note(Workload w) {
    return null;
  }

  @Override
  void close();
}
