package io.objectmeta.api.error;

/** A condition of a conditional write did not hold; nothing was changed. S3 error code {@code PreconditionFailed}, HTTP 412. */
public class PreconditionFailedException extends MetadataException {
  private static final long serialVersionUID = 1L;

  public PreconditionFailedException(String message) {
    super(message);
  }

  @Override
  public String code() {
    return "PreconditionFailed";
  }

  @Override
  public int httpStatus() {
    return 412;
  }
}
