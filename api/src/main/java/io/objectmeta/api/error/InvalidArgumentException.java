package io.objectmeta.api.error;

/**
 * S3 error code {@code InvalidArgument}, HTTP 400: an argument is malformed or out of range. Raised
 * before anything reaches a database, so a rejected call changes nothing. {@link #field()} names
 * the argument; the message names the field and the rule it broke.
 */
public class InvalidArgumentException extends MetadataException {
  private static final long serialVersionUID = 1L;
  private final String field;

  public InvalidArgumentException(String field, String rule) {
    super(field + ": " + rule);
    this.field = field;
  }

  /** The name of the offending argument, e.g. {@code maxKeys} or {@code metadata.tags}. */
  public String field() {
    return field;
  }

  @Override
  public String code() {
    return "InvalidArgument";
  }

  @Override
  public int httpStatus() {
    return 400;
  }
}
