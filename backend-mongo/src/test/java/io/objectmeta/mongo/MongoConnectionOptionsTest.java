package io.objectmeta.mongo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectmeta.api.MetadataStores;
import io.objectmeta.api.error.InvalidArgumentException;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The driver's options pass through in any case; a misspelled one, ours or its, is refused. */
class MongoConnectionOptionsTest {

  @Test
  void aMisspelledOptionIsRefusedNamingIt() {
    assertThatThrownBy(() -> MongoConfig.from(URI.create("mongodb://h/db?layot=shared"), Map.of()))
        .isInstanceOfSatisfying(InvalidArgumentException.class,
            e -> assertThat(e.field()).isEqualTo("layot"))
        .hasMessageContaining("did you mean layout?");
    assertThatThrownBy(() -> MetadataStores.open(
        "mongodb://u:Sup3rS3cretPw@h/db?serverSelectionTimeoutMs=100&socketTimeotMS=5"))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("socketTimeotMS").hasMessageContaining("did you mean socketTimeoutMS?")
        .hasMessageNotContaining("Sup3rS3cretPw");
  }

  @Test
  void theDriversOwnOptionsPassThroughInAnyCase() {
    MongoConfig c = MongoConfig.from(URI.create("mongodb://h/db?readPreference=secondaryPreferred"
        + "&serverselectiontimeoutms=300&w=majority&layout=shared"), Map.of());
    assertThat(c.connection()).contains("readPreference=secondaryPreferred",
        "serverselectiontimeoutms=300", "w=majority").doesNotContain("layout");
    assertThat(c.layout()).isEqualTo(MongoConfig.Layout.SHARED);
  }
}
