package io.objectmeta.api.error;

/**
 * S3 error code {@code ServiceUnavailable}, HTTP 503: a backend fault (database unreachable, timeout,
 * optimistic retries exhausted). Retryable: the call may be repeated unchanged. The state it may
 * have left behind is described per method on {@link io.objectmeta.api.MetadataStore}.
 */
public class ServiceUnavailableException extends MetadataException {
  private static final long serialVersionUID = 1L;

  public ServiceUnavailableException(String message) {
    super(message);
  }

  public ServiceUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public String code() {
    return "ServiceUnavailable";
  }

  @Override
  public int httpStatus() {
    return 503;
  }

  @Override
  public boolean isRetryable() {
    return true;
  }
}
