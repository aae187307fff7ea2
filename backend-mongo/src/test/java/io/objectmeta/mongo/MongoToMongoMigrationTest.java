package io.objectmeta.mongo;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.MigrationConformance;

/** A migration from one MongoDB layout into the other (v0 keys into v1), as between deployments. */
class MongoToMongoMigrationTest extends MigrationConformance {
  @Override
  protected ConformanceFixture source() {
    return new MongoFixture("collection-per-bucket", "v0");
  }

  @Override
  protected ConformanceFixture target() {
    return new MongoFixture("shared", "v1");
  }
}
