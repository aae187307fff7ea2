package io.objectmeta.api.error;

/** The key is longer than 1024 UTF-8 bytes. S3 error code {@code KeyTooLongError}, HTTP 400. */
public class KeyTooLongException extends MetadataException {
  private static final long serialVersionUID = 1L;

  public KeyTooLongException(String message) {
    super(message);
  }

  @Override
  public String code() {
    return "KeyTooLongError";
  }

  @Override
  public int httpStatus() {
    return 400;
  }
}
