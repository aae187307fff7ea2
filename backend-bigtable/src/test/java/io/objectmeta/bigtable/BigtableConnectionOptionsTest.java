package io.objectmeta.bigtable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectmeta.api.MetadataStores;
import io.objectmeta.api.error.InvalidArgumentException;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Endpoint, app profile and credentials come through the URI; a misspelled option is refused. */
class BigtableConnectionOptionsTest {

  @Test
  void aMisspelledOptionIsRefusedNotIgnored() {
    assertThatThrownBy(() -> BigtableConfig.from(URI.create("bigtable://p/inst?bucketCacheMS=0"),
        Map.of()))
        .isInstanceOfSatisfying(InvalidArgumentException.class,
            e -> assertThat(e.field()).isEqualTo("bucketCacheMS"))
        .hasMessageContaining("did you mean bucketCacheMs?");
  }

  @Test
  void endpointAppProfileAndCredentialsAreOptions() {
    BigtableConfig c = BigtableConfig.from(URI.create("bigtable://p/inst?endpoint=bigtable.example:443"
        + "&appProfile=batch&credentialsFile=/etc/key.json"), Map.of());
    assertThat(c.endpoint()).isEqualTo("bigtable.example:443");
    assertThat(c.appProfile()).isEqualTo("batch");
    assertThat(c.credentialsFile()).isEqualTo("/etc/key.json");
    assertThatThrownBy(() -> BigtableConfig.from(URI.create("bigtable://p/inst?endpoint=nohost"), Map.of()))
        .isInstanceOf(InvalidArgumentException.class).hasMessageStartingWith("endpoint: ");
    assertThatThrownBy(() -> MetadataStores.open("bigtable://p/inst?emulatorHost=127.0.0.1:9"
        + "&credentialsFile=/nonexistent/key.json"))
        .isInstanceOfSatisfying(InvalidArgumentException.class,
            e -> assertThat(e.field()).isEqualTo("credentialsFile"));
  }
}
