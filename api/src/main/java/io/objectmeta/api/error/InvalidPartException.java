package io.objectmeta.api.error;

/** A part named in a completion does not exist or its etag differs. S3 error code {@code InvalidPart}, HTTP 400. */
public class InvalidPartException extends MetadataException {
  private static final long serialVersionUID = 1L;

  public InvalidPartException(String message) {
    super(message);
  }

  @Override
  public String code() {
    return "InvalidPart";
  }

  @Override
  public int httpStatus() {
    return 400;
  }
}
