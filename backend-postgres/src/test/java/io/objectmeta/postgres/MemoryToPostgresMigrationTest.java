package io.objectmeta.postgres;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.MemoryFixture;
import io.objectmeta.conformance.MigrationConformance;

/** A migration from the in-process store into PostgreSQL. */
class MemoryToPostgresMigrationTest extends MigrationConformance {
  private static final PostgresFixture TARGET = new PostgresFixture();

  @Override
  protected ConformanceFixture source() {
    return new MemoryFixture();
  }

  @Override
  protected ConformanceFixture target() {
    return TARGET;
  }
}
