package io.objectmeta.mongo;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.MetadataStoreConformance;

/** The MongoDB backend, collection-per-bucket layout, v0 keys, against the whole conformance suite. */
class MongoV0ConformanceTest extends MetadataStoreConformance {
  private static final MongoFixture FIXTURE = new MongoFixture("collection-per-bucket", "v0");

  @Override
  protected ConformanceFixture fixture() {
    return FIXTURE;
  }
}
