package io.objectmeta.bigtable;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.MigrationConformance;
import java.util.Map;

/** A migration from one Bigtable deployment into another (no bucket cache on the target). */
class BigtableToBigtableMigrationTest extends MigrationConformance {
  @Override
  protected ConformanceFixture source() {
    return new BigtableFixture();
  }

  @Override
  protected ConformanceFixture target() {
    return new BigtableFixture(Map.of("bucketCacheMs", "0"));
  }
}
