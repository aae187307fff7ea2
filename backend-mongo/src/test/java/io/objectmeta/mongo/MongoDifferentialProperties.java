package io.objectmeta.mongo;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.DifferentialProperties;

/** Random operation sequences on MongoDB (v1 keys) and on the reference store give the same answers. */
class MongoDifferentialProperties extends DifferentialProperties {
  private static final MongoFixture FIXTURE = new MongoFixture("collection-per-bucket", "v1");

  @Override
  protected ConformanceFixture fixture() {
    return FIXTURE;
  }
}
