package io.objectmeta.api.error;

/** A bucket of that name exists. S3 error code {@code BucketAlreadyExists}, HTTP 409. */
public class BucketAlreadyExistsException extends MetadataException {
  private static final long serialVersionUID = 1L;

  public BucketAlreadyExistsException(String message) {
    super(message);
  }

  @Override
  public String code() {
    return "BucketAlreadyExists";
  }

  @Override
  public int httpStatus() {
    return 409;
  }
}
