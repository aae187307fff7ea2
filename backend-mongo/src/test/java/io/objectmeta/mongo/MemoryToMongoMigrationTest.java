package io.objectmeta.mongo;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.MemoryFixture;
import io.objectmeta.conformance.MigrationConformance;

/** A migration from the in-process store into MongoDB. */
class MemoryToMongoMigrationTest extends MigrationConformance {
  @Override
  protected ConformanceFixture source() {
    return new MemoryFixture();
  }

  @Override
  protected ConformanceFixture target() {
    return new MongoFixture("collection-per-bucket", "v1");
  }
}
