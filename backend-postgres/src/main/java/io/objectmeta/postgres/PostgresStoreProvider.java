package io.objectmeta.postgres;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.spi.MetadataStoreProvider;
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
}
