package io.objectmeta.postgres;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.MetadataStoreConformance;

/** The PostgreSQL backend against the whole conformance suite. */
class PostgresConformanceTest extends MetadataStoreConformance {
  private static final PostgresFixture FIXTURE = new PostgresFixture();

  @Override
  protected ConformanceFixture fixture() {
    return FIXTURE;
  }
}
