package io.objectmeta.postgres;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.MigrationConformance;

/** A migration from one PostgreSQL schema into another (as from one server to another). */
class PostgresToPostgresMigrationTest extends MigrationConformance {
  private static final PostgresFixture SOURCE = new PostgresFixture();
  private static final PostgresFixture TARGET = new PostgresFixture();

  @Override
  protected ConformanceFixture source() {
    return SOURCE;
  }

  @Override
  protected ConformanceFixture target() {
    return TARGET;
  }
}
