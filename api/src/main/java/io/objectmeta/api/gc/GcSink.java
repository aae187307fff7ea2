package io.objectmeta.api.gc;

import java.util.List;
import java.util.Set;

/**
 * Where the GC runner hands claimed records: the thing that frees data. A sink is called from
 * several workers at once when the runner runs with concurrency above one.
 */
public interface GcSink {

  /**
   * Frees the data of a batch.
   *
   * @return the ids of the records whose data is freed (they are acknowledged); the rest are
   *     released back to the queue
   * @throws Exception nothing in the batch counts as freed; all of it is released
   */
  Set<String> free(List<GarbageRecord> batch) throws Exception;
}
