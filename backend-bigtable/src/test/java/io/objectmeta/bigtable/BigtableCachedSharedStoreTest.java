package io.objectmeta.bigtable;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.SharedStoreContract;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The suite's scenarios across two stores on one database, with the bucket cache turned on
 * ({@code bucketCacheMs=300}): each store declares that window, and every scenario (a versioning
 * change, a bucket deleted and created again, conditional writes, GC claims) holds once it has
 * passed. A cache that served a bucket state older than it declares fails them.
 */
class BigtableCachedSharedStoreTest implements SharedStoreContract {
  private static final BigtableFixture FIXTURE = new BigtableFixture(Map.of("bucketCacheMs", "300"));
  private MetadataStore store;

  @BeforeEach
  void open() {
    store = FIXTURE.open();
  }

  @AfterEach
  void close() {
    FIXTURE.close(store);
  }

  @Override
  public MetadataStore store() {
    return store;
  }

  @Override
  public ConformanceFixture fixture() {
    return FIXTURE;
  }

  @Test
  void theStoreDeclaresItsCacheWindow() throws Exception {
    assertThat(store.bucketStateWindow()).isEqualTo(Duration.ofMillis(300));
    try (MetadataStore peer = fixture().openPeer(store).orElseThrow()) {
      assertThat(peer.bucketStateWindow()).isEqualTo(Duration.ofMillis(300));
    }
  }
}
