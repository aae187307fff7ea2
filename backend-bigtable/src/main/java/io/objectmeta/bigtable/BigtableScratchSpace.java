package io.objectmeta.bigtable;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.spi.ScratchSpace;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Throw-away table sets next to a store's: {@code <tablePrefix>s<hex>_<n>_*}, one per
 * {@link #open()}, all deleted on {@link #close()}. The stores share this space's clients.
 */
final class BigtableScratchSpace implements ScratchSpace {
  private final BigtableStoreProvider.Clients clients;
  private final BigtableConfig config;
  private final String base;
  private final List<BigtableMetadataStore> stores = new ArrayList<>();

  BigtableScratchSpace(BigtableStoreProvider.Clients clients, BigtableConfig config) {
    this.clients = clients;
    this.config = config;
    byte[] r = new byte[4];
    ThreadLocalRandom.current().nextBytes(r);
    this.base = config.tablePrefix() + "s" + HexFormat.of().formatHex(r) + "_";
  }

  @Override
  public String describe() {
    return "scratch tables " + base + "*_ on bigtable://" + config.project() + "/"
        + config.instance();
  }

  @Override
  public synchronized MetadataStore open() {
    BigtableMetadataStore s = new BigtableMetadataStore(clients.data(), clients.admin(), false,
        config.withTablePrefix(base + stores.size() + "_"));
    stores.add(s);
    return s;
  }

  @Override
  public synchronized void close() {
    try {
      for (BigtableMetadataStore s : stores) {
        s.close();
        for (String t : s.tables()) {
          Bt.call(() -> {
            clients.admin().deleteTable(t);
            return null;
          });
        }
      }
    } finally {
      clients.close();
    }
  }
}
