package io.objectmeta.api.error;

/** The bucket name breaks S3's naming rules. S3 error code {@code InvalidBucketName}, HTTP 400. */
public class InvalidBucketNameException extends MetadataException {
  private static final long serialVersionUID = 1L;

  public InvalidBucketNameException(String message) {
    super(message);
  }

  @Override
  public String code() {
    return "InvalidBucketName";
  }

  @Override
  public int httpStatus() {
    return 400;
  }
}
