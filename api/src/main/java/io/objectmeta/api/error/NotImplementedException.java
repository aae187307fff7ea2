package io.objectmeta.api.error;

/** The backend lacks this capability (declared in its capabilities). S3 error code {@code NotImplemented}, HTTP 501. */
public class NotImplementedException extends MetadataException {
  private static final long serialVersionUID = 1L;

  public NotImplementedException(String message) {
    super(message);
  }

  @Override
  public String code() {
    return "NotImplemented";
  }

  @Override
  public int httpStatus() {
    return 501;
  }
}
