package io.objectmeta.bigtable;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.MetadataStoreConformance;

/** The Bigtable backend against the whole conformance suite, on Google's emulator. */
class BigtableConformanceTest extends MetadataStoreConformance {
  private static final BigtableFixture FIXTURE = new BigtableFixture();

  @Override
  protected ConformanceFixture fixture() {
    return FIXTURE;
  }
}
