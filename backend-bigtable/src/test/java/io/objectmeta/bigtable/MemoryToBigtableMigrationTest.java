package io.objectmeta.bigtable;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.MemoryFixture;
import io.objectmeta.conformance.MigrationConformance;

/** A migration from the in-process store into Bigtable. */
class MemoryToBigtableMigrationTest extends MigrationConformance {
  @Override
  protected ConformanceFixture source() {
    return new MemoryFixture();
  }

  @Override
  protected ConformanceFixture target() {
    return new BigtableFixture();
  }
}
