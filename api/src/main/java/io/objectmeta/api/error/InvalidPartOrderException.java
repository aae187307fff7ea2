package io.objectmeta.api.error;

/** The parts of a completion are not in ascending part-number order. S3 error code {@code InvalidPartOrder}, HTTP 400. */
public class InvalidPartOrderException extends MetadataException {
  private static final long serialVersionUID = 1L;

  public InvalidPartOrderException(String message) {
    super(message);
  }

  @Override
  public String code() {
    return "InvalidPartOrder";
  }

  @Override
  public int httpStatus() {
    return 400;
  }
}
