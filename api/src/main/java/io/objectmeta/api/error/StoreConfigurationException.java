package io.objectmeta.api.error;

/**
 * The store's configuration names something the database does not have or does not allow: a
 * database, role, schema or table that does not exist, a password the server refuses, a
 * permission it lacks. Repeating the call will not help; fixing the configuration (the URI, the
 * server's grants) will. S3 answers such a server fault with {@code InternalError}, HTTP 500.
 */
public class StoreConfigurationException extends InternalErrorException {
  private static final long serialVersionUID = 1L;

  public StoreConfigurationException(String message, Throwable cause) {
    super(message, cause);
  }
}
