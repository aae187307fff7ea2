package io.objectmeta.postgres;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.DifferentialProperties;

/** Random operation sequences on PostgreSQL and on the reference store give the same answers. */
class PostgresDifferentialProperties extends DifferentialProperties {
  private static final PostgresFixture FIXTURE = new PostgresFixture();

  @Override
  protected ConformanceFixture fixture() {
    return FIXTURE;
  }
}
