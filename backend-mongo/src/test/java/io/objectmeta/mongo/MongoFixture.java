package io.objectmeta.mongo;

import com.mongodb.client.MongoClient;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.conformance.ConformanceFixture;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The conformance fixture: a new database per test (dropped after it), in one layout and key
 * format, on the server of {@link MongoTestServer}, all through one client.
 */
final class MongoFixture implements ConformanceFixture {
  private static final AtomicInteger DATABASES = new AtomicInteger();
  private static MongoClient client;
  private final String layout;
  private final String keyFormat;

  MongoFixture(String layout, String keyFormat) {
    this.layout = layout;
    this.keyFormat = keyFormat;
  }

  static synchronized MongoClient client() {
    if (client == null) {
      client = MongoStoreProvider.client(config("probe", "shared", "v1"));
    }
    return client;
  }

  static MongoConfig config(String db, String layout, String keyFormat) {
    return MongoConfig.from(URI.create(MongoTestServer.uri() + db),
        Map.of("layout", layout, "keyFormat", keyFormat));
  }

  @Override
  public String name() {
    return "mongodb " + layout + " " + keyFormat + " (" + MongoTestServer.kind() + ")";
  }

  MongoMetadataStore openStore() {
    String db = "om_test_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
    return new MongoMetadataStore(client(), false, config(db, layout, keyFormat));
  }

  @Override
  public MetadataStore open() {
    return openStore();
  }

  /** A client of its own on the same database, as another process would have. */
  @Override
  public java.util.Optional<MetadataStore> openPeer(MetadataStore store) {
    MongoConfig c = ((MongoMetadataStore) store).config();
    return java.util.Optional.of(new MongoMetadataStore(MongoStoreProvider.client(c), true, c));
  }

  @Override
  public void close(MetadataStore store) {
    MongoMetadataStore s = (MongoMetadataStore) store;
    s.close();
    s.database().drop();
  }
}
