package io.objectmeta.api.migrate;

import io.objectmeta.api.model.ObjectVersion;
import java.util.List;

/**
 * What a migration has copied so far, across its resumed runs: each record once (a run counts a
 * batch when its checkpoint is written, so a batch redone after an interruption is not counted
 * twice).
 *
 * @param buckets buckets copied whole (keys and uploads)
 * @param keys keys restored with their histories
 * @param versions object versions among them (null versions included)
 * @param deleteMarkers delete markers among them
 * @param uploads in-progress multipart uploads
 * @param parts their part records
 * @param garbage GC records
 */
public record MigrationCounts(long buckets, long keys, long versions, long deleteMarkers,
    long uploads, long parts, long garbage) {

  public static final MigrationCounts ZERO = new MigrationCounts(0, 0, 0, 0, 0, 0, 0);

  /** One key with this history (newest first): its versions and delete markers. */
  public static MigrationCounts key(List<ObjectVersion> history) {
    long markers = history.stream().filter(ObjectVersion::deleteMarker).count();
    return new MigrationCounts(0, 1, history.size() - markers, markers, 0, 0, 0);
  }

  /** Records of every kind: what a rate of records per second counts. */
  public long records() {
    return buckets + versions + deleteMarkers + uploads + parts + garbage;
  }

  public MigrationCounts plus(MigrationCounts o) {
    return new MigrationCounts(buckets + o.buckets, keys + o.keys, versions + o.versions,
        deleteMarkers + o.deleteMarkers, uploads + o.uploads, parts + o.parts, garbage + o.garbage);
  }
}
