package io.objectmeta.api.error;

/** The given version id does not exist for the key. S3 error code {@code NoSuchVersion}, HTTP 404. */
public class NoSuchVersionException extends MetadataException {
  private static final long serialVersionUID = 1L;

  public NoSuchVersionException(String message) {
    super(message);
  }

  @Override
  public String code() {
    return "NoSuchVersion";
  }

  @Override
  public int httpStatus() {
    return 404;
  }
}
