package io.objectmeta.api.error;

/** A backend fault that repeating will not fix (a corrupt record, a bug). S3 error code {@code InternalError}, HTTP 500. */
public class InternalErrorException extends MetadataException {
  private static final long serialVersionUID = 1L;

  public InternalErrorException(String message) {
    super(message);
  }

  public InternalErrorException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public String code() {
    return "InternalError";
  }

  @Override
  public int httpStatus() {
    return 500;
  }
}
