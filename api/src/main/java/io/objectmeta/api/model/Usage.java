package io.objectmeta.api.model;

/**
 * Counts and bytes of a bucket or of the whole store, kept incrementally by the store.
 *
 * @param currentObjects keys whose latest version is an object
 * @param currentBytes bytes of those latest versions
 * @param nonCurrentVersions object versions that are not the latest
 * @param nonCurrentBytes bytes of those versions
 * @param deleteMarkers delete markers, latest or not
 * @param uploads in-progress multipart uploads
 * @param partBytes bytes of the parts of in-progress uploads
 */
public record Usage(long currentObjects, long currentBytes, long nonCurrentVersions,
    long nonCurrentBytes, long deleteMarkers, long uploads, long partBytes) {

  public static final Usage ZERO = new Usage(0, 0, 0, 0, 0, 0, 0);

  public Usage plus(Usage o) {
    return new Usage(currentObjects + o.currentObjects, currentBytes + o.currentBytes,
        nonCurrentVersions + o.nonCurrentVersions, nonCurrentBytes + o.nonCurrentBytes,
        deleteMarkers + o.deleteMarkers, uploads + o.uploads, partBytes + o.partBytes);
  }

  public Usage minus(Usage o) {
    return new Usage(currentObjects - o.currentObjects, currentBytes - o.currentBytes,
        nonCurrentVersions - o.nonCurrentVersions, nonCurrentBytes - o.nonCurrentBytes,
        deleteMarkers - o.deleteMarkers, uploads - o.uploads, partBytes - o.partBytes);
  }
}
