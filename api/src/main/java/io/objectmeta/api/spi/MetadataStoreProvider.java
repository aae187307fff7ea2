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

  /**
   * Scratch namespaces next to the store {@code uri} names (same server and credentials), for
   * running the conformance suite against a live deployment.
   *
   * @throws io.objectmeta.api.error.NotImplementedException the backend has no namespaces to
   *     create (the default)
   */
  default ScratchSpace scratch(URI uri, Map<String, String> properties) {
    throw new io.objectmeta.api.error.NotImplementedException(
        "scratch namespaces: not supported by the " + String.join("/", schemes()) + " backend");
  }
}
