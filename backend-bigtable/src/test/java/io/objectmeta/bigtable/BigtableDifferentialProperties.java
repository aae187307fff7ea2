package io.objectmeta.bigtable;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.DifferentialProperties;

/** Random operation sequences on Bigtable and on the reference store give the same answers. */
class BigtableDifferentialProperties extends DifferentialProperties {
  private static final BigtableFixture FIXTURE = new BigtableFixture();

  @Override
  protected ConformanceFixture fixture() {
    return FIXTURE;
  }
}
