package io.objectmeta.mongo;

import java.time.Duration;

/** What {@link MongoMetadataStore#migrateKeyFormat} did to one bucket. */
public record KeyFormatMigration(String bucket, long keysMoved, long versionsMoved,
    Duration took) {}
