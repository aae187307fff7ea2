package io.objectmeta.conformance.memory;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.MemoryFixture;
import io.objectmeta.conformance.MetadataStoreConformance;

/** The reference in-memory store against the whole suite. */
class MemoryConformanceTest extends MetadataStoreConformance {

  @Override
  protected ConformanceFixture fixture() {
    return new MemoryFixture();
  }
}
