package io.objectmeta.mongo;

import com.mongodb.client.MongoClient;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.spi.ScratchSpace;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Throw-away databases on the server of a store URI: {@code <database>_s<hex>_<n>}, one per
 * {@link #open()}, all dropped on {@link #close()}. The stores share this space's client.
 */
final class MongoScratchSpace implements ScratchSpace {
  private final MongoClient client;
  private final MongoConfig config;
  private final String base;
  private final List<String> created = new ArrayList<>();
  private final List<MetadataStore> stores = new ArrayList<>();

  MongoScratchSpace(MongoClient client, MongoConfig config) {
    this.client = client;
    this.config = config;
    byte[] r = new byte[4];
    ThreadLocalRandom.current().nextBytes(r);
    String db = config.database();
    this.base = (db.length() > 40 ? db.substring(0, 40) : db) + "_s" + HexFormat.of().formatHex(r);
  }

  @Override
  public String describe() {
    return "scratch databases " + base + "_* (" + config.layout().text + ")";
  }

  @Override
  public synchronized MetadataStore open() {
    String db = base + "_" + created.size();
    created.add(db);
    MetadataStore s = new MongoMetadataStore(client, false, config.withDatabase(db));
    stores.add(s);
    return s;
  }

  @Override
  public synchronized void close() {
    try {
      for (MetadataStore s : stores) {
        s.close();
      }
      for (String db : created) {
        client.getDatabase(db).drop();
      }
    } finally {
      client.close();
    }
  }
}
