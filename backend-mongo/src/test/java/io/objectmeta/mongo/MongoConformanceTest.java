package io.objectmeta.mongo;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.MetadataStoreConformance;

/** The MongoDB backend, collection-per-bucket layout, v1 keys (the defaults), against the whole conformance suite. */
class MongoConformanceTest extends MetadataStoreConformance {
  private static final MongoFixture FIXTURE = new MongoFixture("collection-per-bucket", "v1");

  @Override
  protected ConformanceFixture fixture() {
    return FIXTURE;
  }
}
