package io.objectmeta.postgres;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.spi.MetadataStoreProvider;
import io.objectmeta.api.spi.ScratchSpace;
import java.net.URI;
import java.util.Map;
import java.util.Set;

/** Opens {@code postgres://} and {@code postgresql://} stores; see {@link PostgresConfig}. */
public final class PostgresStoreProvider implements MetadataStoreProvider {
  @Override
  public Set<String> schemes() {
    return Set.of("postgres", "postgresql");
  }

  @Override
  public MetadataStore open(URI uri, Map<String, String> properties) {
    return new PostgresMetadataStore(PostgresConfig.from(uri, properties));
  }

  /** Schemas next to the URI's, each dropped when the space closes; see {@link PostgresScratchSpace}. */
  @Override
  public ScratchSpace scratch(URI uri, Map<String, String> properties) {
    return new PostgresScratchSpace(PostgresConfig.from(uri, properties));
  }
}
