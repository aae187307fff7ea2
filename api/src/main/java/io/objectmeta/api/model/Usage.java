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

  /** A change of the multipart counters alone: {@code uploads} uploads, {@code partBytes} bytes. */
  public static Usage ofUploads(long uploads, long partBytes) {
    return new Usage(0, 0, 0, 0, 0, uploads, partBytes);
  }

  /**
   * The sum, every counter checked: a counter that would leave the range of a long is refused
   * (InvalidArgument: the write that would make it is), never wrapped.
   */
  public Usage plus(Usage o) {
    return combine(o, false);
  }

  /** The difference, checked as {@link #plus}. */
  public Usage minus(Usage o) {
    return combine(o, true);
  }

  private Usage combine(Usage o, boolean subtract) {
    return new Usage(at("currentObjects", currentObjects, o.currentObjects, subtract),
        at("currentBytes", currentBytes, o.currentBytes, subtract),
        at("nonCurrentVersions", nonCurrentVersions, o.nonCurrentVersions, subtract),
        at("nonCurrentBytes", nonCurrentBytes, o.nonCurrentBytes, subtract),
        at("deleteMarkers", deleteMarkers, o.deleteMarkers, subtract),
        at("uploads", uploads, o.uploads, subtract), at("partBytes", partBytes, o.partBytes, subtract));
  }

  private static long at(String counter, long a, long b, boolean subtract) {
    try {
      return subtract ? Math.subtractExact(a, b) : Math.addExact(a, b);
    } catch (ArithmeticException e) {
      throw new io.objectmeta.api.error.InvalidArgumentException("usage." + counter,
          "would leave the range of a 64-bit counter (" + a + (subtract ? " - " : " + ") + b + ")");
    }
  }
}
