package io.objectmeta.api.migrate;

/**
 * A migration that would not start: the target already holds buckets of the source and there is
 * no checkpoint of a run to resume, or the checkpoint belongs to other stores. Nothing was
 * written to the target.
 */
public class MigrationRefusedException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public MigrationRefusedException(String message) {
    super(message);
  }
}
