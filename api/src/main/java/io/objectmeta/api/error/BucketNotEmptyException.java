package io.objectmeta.api.error;

/** The bucket still holds objects, versions or delete markers. S3 error code {@code BucketNotEmpty}, HTTP 409. */
public class BucketNotEmptyException extends MetadataException {
  private static final long serialVersionUID = 1L;

  public BucketNotEmptyException(String message) {
    super(message);
  }

  @Override
  public String code() {
    return "BucketNotEmpty";
  }

  @Override
  public int httpStatus() {
    return 409;
  }
}
