package io.objectmeta.api.migrate;

import java.time.Duration;
import java.util.UUID;

/**
 * What a {@link StoreMigration#run()} did.
 *
 * @param source the source store's UUID
 * @param target the target store's UUID
 * @param resumed whether this run resumed an interrupted one from its checkpoint
 * @param finished whether everything is copied (false: stopped; run again to resume)
 * @param copied what has been copied, earlier runs included
 * @param elapsed how long this run took
 * @param verification the comparison of the two stores after the copy; null when the run was
 *     stopped or verification was turned off
 */
public record MigrationReport(UUID source, UUID target, boolean resumed, boolean finished,
    MigrationCounts copied, Duration elapsed, VerificationReport verification) {

  /** Whether the copy finished and the verification found the target equal to the source. */
  public boolean verified() {
    return finished && verification != null && verification.matches();
  }
}
