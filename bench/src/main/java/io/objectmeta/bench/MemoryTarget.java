package io.objectmeta.bench;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.MetadataStores;

/** The in-memory reference store: no baseline, the SPI is all it has. */
public final class MemoryTarget implements BenchTarget {
  @Override
  public String name() {
    return "memory";
  }

  @Override
  public String describe() {
    return "in-process reference store";
  }

  @Override
  public MetadataStore openStore() {
    return MetadataStores.open("memory:");
  }
}
