package io.objectmeta.mongo;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.MetadataStoreConformance;

/** The MongoDB backend, shared layout, v1 keys, against the whole conformance suite. */
class MongoSharedConformanceTest extends MetadataStoreConformance {
  private static final MongoFixture FIXTURE = new MongoFixture("shared", "v1");

  @Override
  protected ConformanceFixture fixture() {
    return FIXTURE;
  }
}
