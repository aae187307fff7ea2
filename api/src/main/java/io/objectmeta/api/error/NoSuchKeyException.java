package io.objectmeta.api.error;

/**
 * S3 error code {@code NoSuchKey}, HTTP 404: the key has no current object. When the latest version
 * is a delete marker, {@link #deleteMarker()} is true and {@link #versionId()} is the marker's id
 * (S3 answers with {@code x-amz-delete-marker: true} and the marker's version id).
 */
public class NoSuchKeyException extends MetadataException {
  private static final long serialVersionUID = 1L;
  private final boolean deleteMarker;
  private final String versionId;

  public NoSuchKeyException(String message) {
    this(message, false, null);
  }

  public NoSuchKeyException(String message, boolean deleteMarker, String versionId) {
    super(message);
    this.deleteMarker = deleteMarker;
    this.versionId = versionId;
  }

  /** Whether the key is hidden by a delete marker (rather than never written or purged). */
  public boolean deleteMarker() {
    return deleteMarker;
  }

  /** The version id of the delete marker on top, or null. */
  public String versionId() {
    return versionId;
  }

  @Override
  public String code() {
    return "NoSuchKey";
  }

  @Override
  public int httpStatus() {
    return 404;
  }
}
