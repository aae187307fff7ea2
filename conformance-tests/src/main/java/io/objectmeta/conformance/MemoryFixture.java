package io.objectmeta.conformance;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.memory.MemoryMetadataStore;

/**
 * A new reference in-memory store per test; it supports every capability. The suite's own
 * fixture, and a source or target for a backend's migration tests.
 */
public final class MemoryFixture implements ConformanceFixture {

  @Override
  public String name() {
    return "memory";
  }

  @Override
  public MetadataStore open() {
    return new MemoryMetadataStore();
  }

  /** One process: its one store is its own peer. */
  @Override
  public java.util.Optional<MetadataStore> openPeer(MetadataStore store) {
    return java.util.Optional.of(store);
  }
}
