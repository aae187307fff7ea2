package io.objectmeta.api.error;

/** The multipart upload does not exist: never initiated, completed or aborted. S3 error code {@code NoSuchUpload}, HTTP 404. */
public class NoSuchUploadException extends MetadataException {
  private static final long serialVersionUID = 1L;

  public NoSuchUploadException(String message) {
    super(message);
  }

  /** The upload {@code uploadId} of {@code key} is not there (the one message of every backend). */
  public static NoSuchUploadException of(String key, String uploadId) {
    return new NoSuchUploadException("uploadId: no upload " + uploadId + " of \"" + key + "\"");
  }

  @Override
  public String code() {
    return "NoSuchUpload";
  }

  @Override
  public int httpStatus() {
    return 404;
  }
}
