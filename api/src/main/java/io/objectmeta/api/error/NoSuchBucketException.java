package io.objectmeta.api.error;

/** The named bucket does not exist (or was deleted). S3 error code {@code NoSuchBucket}, HTTP 404. */
public class NoSuchBucketException extends MetadataException {
  private static final long serialVersionUID = 1L;

  public NoSuchBucketException(String message) {
    super(message);
  }

  /** The bucket {@code name} is not there (the one message of every backend). */
  public static NoSuchBucketException of(String name) {
    return new NoSuchBucketException("bucket: \"" + name + "\" does not exist");
  }

  @Override
  public String code() {
    return "NoSuchBucket";
  }

  @Override
  public int httpStatus() {
    return 404;
  }
}
