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
  default Phase phase(Workload w, String bucket, IntFunction<List<Op>> ops) {
    return switch (w) {
      case PUT_UNVERSIONED, PUT_VERSIONED, DELETE_MARKER, DELETE_VERSION -> writes(w, bucket, ops);
      case GET_LATEST, GET_VERSION -> gets(w, bucket, ops);
      case GC_DRAIN -> gcDrain();
      default -> null;
    };
  }

  /** The raw phase of a write workload (puts and deletes). */
  Phase writes(Workload w, String bucket, IntFunction<List<Op>> ops);

  /** The raw phase of a read workload. */
  Phase gets(Workload w, String bucket, IntFunction<List<Op>> ops);

  /** The raw GC drain: claim and free until the queue is empty. */
  Phase gcDrain();

  /** What the baseline of {@code w} does, for the report's notes (or null). */
  default String note(Workload w) {
    return null;
  }

  @Override
  void close();
}
