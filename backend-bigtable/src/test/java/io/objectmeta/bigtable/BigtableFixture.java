package io.objectmeta.bigtable;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.conformance.ConformanceFixture;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The conformance fixture: a new set of tables per test (deleted after it), all through one
 * pair of clients on the Bigtable of {@link BigtableTestEmulator}.
 */
final class BigtableFixture implements ConformanceFixture {
  private static final AtomicInteger TABLES = new AtomicInteger();
  private static BigtableStoreProvider.Clients clients;
  private final Map<String, String> options;

  BigtableFixture() {
    this(Map.of());
  }

  BigtableFixture(Map<String, String> options) {
    this.options = options;
  }

  static synchronized BigtableStoreProvider.Clients clients() {
    if (clients == null) {
      clients = BigtableStoreProvider.clients(BigtableTestEmulator.config("probe_", Map.of()), true);
    }
    return clients;
  }

  @Override
  public String name() {
    return "bigtable (" + BigtableTestEmulator.kind() + ")" + (options.isEmpty() ? "" : " " + options);
  }

  BigtableMetadataStore openStore() {
    return openStore(Map.of());
  }

  BigtableMetadataStore openStore(Map<String, String> more) {
    Map<String, String> all = new java.util.HashMap<>(options);
    all.putAll(more);
    String prefix = "t" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet() + "_";
    return new BigtableMetadataStore(clients().data(), clients().admin(), false,
        BigtableTestEmulator.config(prefix, all));
  }

  @Override
  public MetadataStore open() {
    return openStore();
  }

  /** Another store (its own bucket cache, repair and intents) on the same tables. */
  @Override
  public java.util.Optional<MetadataStore> openPeer(MetadataStore store) {
    return java.util.Optional.of(new BigtableMetadataStore(clients().data(), clients().admin(),
        false, ((BigtableMetadataStore) store).config()));
  }

  @Override
  public void close(MetadataStore store) {
    BigtableMetadataStore s = (BigtableMetadataStore) store;
    s.close();
    for (String t : s.tables()) {
      clients().admin().deleteTable(t);
    }
  }
}
