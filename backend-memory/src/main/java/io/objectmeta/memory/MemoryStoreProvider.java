package io.objectmeta.memory;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.spi.MetadataStoreProvider;
import io.objectmeta.api.spi.ScratchSpace;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens {@code memory:} stores. {@code memory:} alone is a new, private store; {@code memory:NAME}
 * is the store of that name in this JVM, shared by everyone who opens it (closing does not
 * discard it).
 */
public final class MemoryStoreProvider implements MetadataStoreProvider {
  private static final Map<String, MemoryMetadataStore> NAMED = new ConcurrentHashMap<>();

  @Override
  public Set<String> schemes() {
    return Set.of("memory");
  }

  @Override
  public MetadataStore open(URI uri, Map<String, String> properties) {
    String name = uri.getSchemeSpecificPart();
    if (name == null || name.isEmpty() || name.equals("/")) {
      return new MemoryMetadataStore();
    }
    return NAMED.computeIfAbsent(name, n -> new MemoryMetadataStore());
  }

  /** Every store of the space is a new private one; nothing outlives it. */
  @Override
  public ScratchSpace scratch(URI uri, Map<String, String> properties) {
    return new ScratchSpace() {
      @Override
      public String describe() {
        return "memory: (a new private store per namespace)";
      }

      @Override
      public MetadataStore open() {
        return new MemoryMetadataStore();
      }

      /** One process: a store is its own peer. */
      @Override
      public java.util.Optional<MetadataStore> openPeer(MetadataStore store) {
        return java.util.Optional.of(store);
      }

      @Override
      public void close() {
        // nothing to remove
      }
    };
  }
}
