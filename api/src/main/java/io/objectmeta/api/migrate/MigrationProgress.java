package io.objectmeta.api.migrate;

import java.time.Duration;

/**
 * What a progress listener of {@link StoreMigration} sees after each batch (and each bucket
 * verified).
 *
 * @param phase what the migration is doing
 * @param bucket the bucket it is copying or verifying (null while copying the GC queue)
 * @param copied everything copied so far, earlier runs of a resumed migration included
 * @param recordsPerSecond records copied per second by this run
 * @param elapsed time since this run started
 */
public record MigrationProgress(MigrationPhase phase, String bucket, MigrationCounts copied,
    double recordsPerSecond, Duration elapsed) {}
