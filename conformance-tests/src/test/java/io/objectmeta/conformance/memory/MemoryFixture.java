package io.objectmeta.conformance.memory;

import io.objectmeta.conformance.ConformanceFixture;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.memory.MemoryMetadataStore;

/** A new reference in-memory store per test; it supports every capability. */
public final class MemoryFixture implements ConformanceFixture {

  @Override
  public String name() {
    return "memory";
  }

  @Override
  public MetadataStore open() {
    return new MemoryMetadataStore();
  }
}
