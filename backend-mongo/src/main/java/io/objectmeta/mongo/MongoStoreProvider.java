package io.objectmeta.mongo;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.error.ServiceUnavailableException;
import io.objectmeta.api.spi.MetadataStoreProvider;
import io.objectmeta.api.spi.ScratchSpace;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/** Opens {@code mongodb://} and {@code mongodb+srv://} stores; see {@link MongoConfig}. */
public final class MongoStoreProvider implements MetadataStoreProvider {
  @Override
  public Set<String> schemes() {
    return Set.of("mongodb", "mongodb+srv");
  }

  @Override
  public MetadataStore open(URI uri, Map<String, String> properties) {
    MongoConfig config = MongoConfig.from(uri, properties);
    return new MongoMetadataStore(client(config), true, config);
  }

  /** Databases next to the URI's, each dropped when the space closes. */
  @Override
  public ScratchSpace scratch(URI uri, Map<String, String> properties) {
    MongoConfig config = MongoConfig.from(uri, properties);
    return new MongoScratchSpace(client(config), config);
  }

  /**
   * A client that fails within seconds when no server answers (the driver's default of 30 s
   * makes a missing database look like a hang), unless the URI sets its own timeouts.
   */
  static MongoClient client(MongoConfig config) {
    ConnectionString cs = new ConnectionString(config.connection());
    MongoClientSettings.Builder b = MongoClientSettings.builder().applyConnectionString(cs);
    if (!config.connection().contains("serverSelectionTimeoutMS")) {
      b.applyToClusterSettings(c -> c.serverSelectionTimeout(5, TimeUnit.SECONDS));
    }
    if (!config.connection().contains("connectTimeoutMS")) {
      b.applyToSocketSettings(s -> s.connectTimeout(5, TimeUnit.SECONDS));
    }
    if (cs.getSocketTimeout() == null && cs.getTimeout() == null) {
      b.applyToSocketSettings(s -> s.readTimeout(300, TimeUnit.SECONDS));
    }
    try {
      return MongoClients.create(b.build());
    } catch (MongoException | IllegalArgumentException e) {
      throw new ServiceUnavailableException("mongodb: cannot connect to " + cs.getHosts() + ": "
          + io.objectmeta.api.spi.StoreOptions.redact(e.getMessage()), e);
    }
  }
}
