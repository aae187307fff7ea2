package io.objectmeta.api.error;

/**
 * The root of every error a {@link io.objectmeta.api.MetadataStore} reports. Each subtype stands for
 * one S3 error code, so a gateway can map it to an HTTP answer without inspecting messages.
 *
 * <p>{@link #isRetryable()} says whether the same call may succeed if repeated unchanged; only
 * {@link ServiceUnavailableException} is retryable. A non-retryable error is the final answer for
 * the given input and store state.
 */
public abstract class MetadataException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  protected MetadataException(String message) {
    super(message);
  }

  protected MetadataException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The S3 error code, e.g. {@code NoSuchKey}. */
  public abstract String code();

  /** The HTTP status S3 answers with for this code. */
  public abstract int httpStatus();

  /** Whether repeating the same call unchanged may succeed. */
  public boolean isRetryable() {
    return false;
  }
}
