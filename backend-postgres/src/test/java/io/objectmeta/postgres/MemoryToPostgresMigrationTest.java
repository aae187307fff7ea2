package io.objectmeta.postgres;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.MigrationConformance;
import io.objectmeta.memory.MemoryMetadataStore;

/** A migration from the in-process store into PostgreSQL. */
class MemoryToPostgresMigrationTest extends MigrationConformance {
  private static final PostgresFixture TARGET = new PostgresFixture();

  @Override
  protected ConformanceFixture source() {
    return new ConformanceFixture() {
      @Override
      public String name() {
        return "memory";
      }

      @Override
      public MetadataStore open() {
        return new MemoryMetadataStore();
      }
    };
  }

  @Override
  protected ConformanceFixture target() {
    return TARGET;
  }
}
