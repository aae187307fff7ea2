package io.objectmeta.cli;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.MetadataStores;
import io.objectmeta.cli.embedded.EmbeddedPostgresServer;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The store one command works on: {@code --store URI}, else {@code OBJECTMETA_STORE}, else the
 * embedded PostgreSQL of {@code $OBJECTMETA_HOME} (default {@code ~/.objectmeta}), which the URI
 * {@code embedded} names too ({@code embedded?schema=S} for another schema on it). Closing it
 * closes the store, then lets go of the embedded server (the last process stops it).
 */
public final class Session implements AutoCloseable {
  /** The store URI that names the embedded default (options may follow: {@code embedded?schema=s}). */
  public static final String EMBEDDED = "embedded";

  private final MetadataStore store;
  private final String uri;
  private final EmbeddedPostgresServer server;
  private final String description;
  private boolean closed;

  private Session(MetadataStore store, String uri, EmbeddedPostgresServer server,
      String description) {
    this.store = store;
    this.uri = uri;
    this.server = server;
    this.description = description;
  }

  /**
   * Opens the store the options and environment name, and says on {@code notice} which it is.
   *
   * @throws io.objectmeta.api.error.InvalidArgumentException the URI is malformed or no backend
   *     handles its scheme
   * @throws io.objectmeta.api.error.ServiceUnavailableException the store cannot be reached
   */
  static Session open(String storeOption, Map<String, String> env, Consumer<String> notice) {
    String uri = storeOption != null ? storeOption : blankToNull(env.get("OBJECTMETA_STORE"));
    // "embedded", or "embedded?schema=S&...": the embedded server, with the options given
    String embeddedOptions = "";
    if (uri != null && (uri.equals(EMBEDDED) || uri.startsWith(EMBEDDED + "?"))) {
      embeddedOptions = uri.substring(EMBEDDED.length());
      uri = null;
    }
    if (uri != null) {
      MetadataStore store = MetadataStores.open(uri);
      Session s = new Session(store, uri, null, redact(uri));
      notice.accept("store: " + s.description);
      return s;
    }
    Path home = home(env);
    EmbeddedPostgresServer server = EmbeddedPostgresServer.attach(home, notice);
    try {
      String embeddedUri = server.uri() + embeddedOptions;
      MetadataStore store = MetadataStores.open(embeddedUri);
      Session s = new Session(store, embeddedUri, server, "embedded PostgreSQL " + redact(embeddedUri) + ", data in "
          + server.dataDirectory() + (server.started() ? "" : " (already running)"));
      notice.accept("store: " + s.description);
      return s;
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** $OBJECTMETA_HOME, or ~/.objectmeta; absolute (the server records its data directory by path). */
  static Path home(Map<String, String> env) {
    String h = blankToNull(env.get("OBJECTMETA_HOME"));
    Path p = h != null ? Path.of(h) : Path.of(System.getProperty("user.home"), ".objectmeta");
    return p.toAbsolutePath().normalize();
  }

  public MetadataStore store() {
    return store;
  }

  /** The URI the store was opened with (credentials included: not for display). */
  public String uri() {
    return uri;
  }

  /** Which store this is, for people (a password in the URI is masked). */
  public String description() {
    return description;
  }

  /** Idempotent; safe from a shutdown hook while the command's thread closes it too. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      store.close();
    } finally {
      if (server != null) {
        server.close();
      }
    }
  }

  /** The URI with its secrets masked (StoreOptions.redact). */
  static String redact(String uri) {
    return io.objectmeta.api.spi.StoreOptions.redact(uri);
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
