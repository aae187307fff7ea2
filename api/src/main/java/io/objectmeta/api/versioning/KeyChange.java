package io.objectmeta.api.versioning;

import io.objectmeta.api.model.DeleteResult;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Usage;
import java.util.List;

/**
 * The outcome of a write to one key, computed by {@link KeyWrites}: the history after it, the
 * version it wrote or removed, and the versions that left the history (the ones with data go to
 * the GC queue, in the same atomic step, unless the change is a restore, which frees nothing).
 *
 * @param before the history before
 * @param after the history after
 * @param subject the version written (put, marker, update) or removed (delete by version id); a
 *     restore's latest version
 * @param removed versions that left the history
 * @param freesData whether the removed versions' data is garbage (false for a restore)
 */
public record KeyChange(KeyHistory before, KeyHistory after, ObjectVersion subject,
    List<ObjectVersion> removed, boolean freesData) {

  public KeyChange {
    removed = List.copyOf(removed);
  }

  /** A change that frees the data of what it removes: every write but a restore. */
  public KeyChange(KeyHistory before, KeyHistory after, ObjectVersion subject,
      List<ObjectVersion> removed) {
    this(before, after, subject, removed, true);
  }

  /**
   * The removed versions that hold data (objects, not delete markers): the GC records to queue.
   * None for a restore.
   */
  public List<ObjectVersion> garbage() {
    return freesData ? removed.stream().filter(v -> !v.deleteMarker()).toList() : List.of();
  }

  /** How the bucket's usage changes. */
  public Usage usageDelta() {
    return KeyWrites.usage(after).minus(KeyWrites.usage(before));
  }

  /**
   * The answer of a delete without version id ({@link KeyWrites#delete}): the delete marker it
   * wrote, or, in a bucket that never had versioning, no version (the key is gone).
   */
  public DeleteResult deleteResult() {
    // an unversioned bucket holds no delete marker, so the subject is a marker exactly when the
    // delete wrote one
    return subject.deleteMarker()
        ? new DeleteResult(subject.key(), subject.versionId(), true)
        : new DeleteResult(subject.key(), null, false);
  }

  /** The answer of a delete by version id ({@link KeyWrites#deleteVersion}): what it removed. */
  public DeleteResult versionDeleteResult() {
    return new DeleteResult(subject.key(), subject.versionId(), subject.deleteMarker());
  }
}
