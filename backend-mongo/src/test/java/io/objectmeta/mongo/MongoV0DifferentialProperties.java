package io.objectmeta.mongo;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.DifferentialProperties;

/** Random operation sequences on MongoDB (shared layout, v0 keys) and on the reference store agree. */
class MongoV0DifferentialProperties extends DifferentialProperties {
  private static final MongoFixture FIXTURE = new MongoFixture("shared", "v0");

  @Override
  protected ConformanceFixture fixture() {
    return FIXTURE;
  }
}
