package io.objectmeta.conformance.memory;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.MemoryFixture;
import io.objectmeta.conformance.MigrationConformance;

/** A migration from one reference store into another: the engine on its own. */
class MemoryMigrationTest extends MigrationConformance {

  @Override
  protected ConformanceFixture source() {
    return new MemoryFixture();
  }

  @Override
  protected ConformanceFixture target() {
    return new MemoryFixture();
  }
}
