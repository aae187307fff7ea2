package io.objectmeta.api.migrate;

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

  /** Records of every kind: what a rate of records per second counts. */
  public long records() {
    return buckets + versions + deleteMarkers + uploads + parts + garbage;
  }

  public MigrationCounts plus(MigrationCounts o) {
    return new MigrationCounts(buckets + o.buckets, keys + o.keys, versions + o.versions,
        deleteMarkers + o.deleteMarkers, uploads + o.uploads, parts + o.parts, garbage + o.garbage);
  }
}
