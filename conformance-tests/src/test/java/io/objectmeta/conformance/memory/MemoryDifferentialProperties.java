package io.objectmeta.conformance.memory;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.MemoryFixture;
import io.objectmeta.conformance.DifferentialProperties;

/** The memory store against a fresh memory store: the differential test's own sanity check. */
class MemoryDifferentialProperties extends DifferentialProperties {

  @Override
  protected ConformanceFixture fixture() {
    return new MemoryFixture();
  }
}
