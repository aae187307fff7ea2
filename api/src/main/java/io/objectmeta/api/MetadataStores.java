package io.objectmeta.api;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.spi.MetadataStoreProvider;
import io.objectmeta.api.spi.ScratchSpace;
import io.objectmeta.api.spi.StoreOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeSet;

/** Opens a {@link MetadataStore} by URI, choosing the backend by scheme through ServiceLoader. */
public final class MetadataStores {
  private MetadataStores() {}

  /** Opens {@code uri} with no extra properties. */
  public static MetadataStore open(String uri) {
    return open(uri, Map.of());
  }

  /**
   * Opens {@code uri} with the backend registered for its scheme.
   *
   * @throws InvalidArgumentException the URI is malformed, or no backend on the class path
   *     handles its scheme (the message lists the schemes that are there)
   */
  public static MetadataStore open(String uri, Map<String, String> properties) {
    URI parsed = parse(uri);
    return provider(parsed, uri).open(parsed, properties);
  }

  /**
   * Scratch namespaces on the deployment {@code uri} names, each store empty and removed when the
   * space closes (what {@code objectmeta verify} runs the conformance suite in).
   *
   * @throws InvalidArgumentException as {@link #open(String, Map)}
   * @throws io.objectmeta.api.error.NotImplementedException the backend cannot create namespaces
   */
  public static ScratchSpace scratch(String uri, Map<String, String> properties) {
    URI parsed = parse(uri);
    return provider(parsed, uri).scratch(parsed, properties);
  }

  private static URI parse(String uri) {
    try {
      // "memory:" has an empty scheme-specific part, which java.net.URI refuses; read it as "memory:/".
      return uri != null && uri.matches("[A-Za-z][A-Za-z0-9+.-]*:") ? new URI(uri + "/") : new URI(uri);
    } catch (URISyntaxException | NullPointerException e) {
      throw new InvalidArgumentException("uri", "not a URI: " + StoreOptions.redact(uri));
    }
  }

  private static MetadataStoreProvider provider(URI parsed, String uri) {
    String scheme = parsed.getScheme();
    if (scheme == null) {
      throw new InvalidArgumentException("uri", "has no scheme (e.g. memory: or postgres://): "
          + StoreOptions.redact(uri));
    }
    scheme = scheme.toLowerCase(Locale.ROOT);
    TreeSet<String> known = new TreeSet<>();
    for (MetadataStoreProvider p : ServiceLoader.load(MetadataStoreProvider.class)) {
      if (p.schemes().contains(scheme)) {
        return p;
      }
      known.addAll(p.schemes());
    }
    throw new InvalidArgumentException("uri", "no backend for scheme \"" + scheme
        + "\" on the class path; schemes available: " + (known.isEmpty() ? "none" : String.join(", ", known)));
  }
}
