package io.objectmeta.api.error;

/**
 * S3 error code {@code MethodNotAllowed}, HTTP 405: a delete marker was asked for by version id
 * (it has no data to read), or a metadata update targeted a delete marker.
 */
public class MethodNotAllowedException extends MetadataException {
  private static final long serialVersionUID = 1L;

  public MethodNotAllowedException(String message) {
    super(message);
  }

  @Override
  public String code() {
    return "MethodNotAllowed";
  }

  @Override
  public int httpStatus() {
    return 405;
  }
}
