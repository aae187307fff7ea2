package io.objectmeta.api.spi;

import io.objectmeta.api.MetadataStore;
import java.net.URI;
import java.util.Map;
import java.util.Set;

/**
 * A backend, found through {@link java.util.ServiceLoader}: list the implementation class in
 * {@code META-INF/services/io.objectmeta.api.spi.MetadataStoreProvider}.
 */
public interface MetadataStoreProvider {

  /** The URI schemes this backend opens, e.g. {@code postgres} and {@code postgresql}. */
  Set<String> schemes();

  /**
   * Opens a store.
   *
   * @param uri the store URI (its scheme is one of {@link #schemes()})
   * @param properties settings not in the URI (credentials, pool sizes); may be empty
   */
  MetadataStore open(URI uri, Map<String, String> properties);
}
