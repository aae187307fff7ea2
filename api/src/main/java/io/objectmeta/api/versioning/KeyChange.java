package io.objectmeta.api.versioning;

import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Usage;
import java.util.List;

/**
 * The outcome of a write to one key, computed by {@link KeyWrites}: the history after it, the
 * version it wrote or removed, and the versions that left the history (the ones with data go to
 * the GC queue, in the same atomic step).
 *
 * @param before the history before
 * @param after the history after
 * @param subject the version written (put, marker, update) or removed (delete by version id)
 * @param removed versions that left the history
 */
public record KeyChange(KeyHistory before, KeyHistory after, ObjectVersion subject,
    List<ObjectVersion> removed) {

  public KeyChange {
    removed = List.copyOf(removed);
  }

  /** The removed versions that hold data (objects, not delete markers): the GC records to queue. */
  public List<ObjectVersion> garbage() {
    return removed.stream().filter(v -> !v.deleteMarker()).toList();
  }

  /** How the bucket's usage changes. */
  public Usage usageDelta() {
    return KeyWrites.usage(after).minus(KeyWrites.usage(before));
  }
}
