package io.objectmeta.mongo;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.MetadataStoreConformance;

/** The MongoDB backend, shared layout, v0 keys, against the whole conformance suite. */
class MongoSharedV0ConformanceTest extends MetadataStoreConformance {
  private static final MongoFixture FIXTURE = new MongoFixture("shared", "v0");

  @Override
  protected ConformanceFixture fixture() {
    return FIXTURE;
  }
}
