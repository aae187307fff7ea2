package io.objectmeta.api.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectmeta.api.error.InvalidArgumentException;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StoreOptionsTest {
  private static final Set<String> KNOWN = Set.of("schema", "maxPoolSize", "bucketCacheMs");

  @Test
  void aMisspelledOptionIsRefusedNamingItTheLikelyOneAndAllKnownOnes() {
    assertThatThrownBy(() -> StoreOptions.of(URI.create("x://h/d?schma=s"), Map.of())
        .requireKnown(KNOWN, false))
        .isInstanceOfSatisfying(InvalidArgumentException.class,
            e -> assertThat(e.field()).isEqualTo("schma"))
        .hasMessageContaining("did you mean schema?")
        .hasMessageContaining("bucketCacheMs, maxPoolSize, schema");
    assertThatThrownBy(() -> StoreOptions.of(URI.create("x://h/d?bucketCacheMS=0"), Map.of())
        .requireKnown(KNOWN, false))
        .hasMessageContaining("bucketCacheMS: unknown option (did you mean bucketCacheMs?)");
    assertThatThrownBy(() -> StoreOptions.of(URI.create("x://h/d"), Map.of("colour", "red"))
        .requireKnown(KNOWN, false))
        .hasMessageStartingWith("colour: unknown option; known options:");
  }

  @Test
  void knownOptionsPassAndACaseInsensitiveBackendTakesAnyCase() {
    StoreOptions o = StoreOptions.of(URI.create("x://h/d?schema=s&MAXPOOLSIZE=3"), Map.of());
    assertThat(o.requireKnown(KNOWN, true).get("schema")).isEqualTo("s");
    assertThatThrownBy(() -> o.requireKnown(KNOWN, false)).hasMessageContaining("MAXPOOLSIZE");
  }

  @Test
  void aRedactedUriShowsNoSecretWhetherOrNotItParses() {
    String pw = "Sup3rS3cretPw";
    assertThat(StoreOptions.redact("postgres://alice:" + pw + "@db:5432/meta"))
        .isEqualTo("postgres://alice:***@db:5432/meta");
    assertThat(StoreOptions.redact("postgres://db/meta?user=a&password=" + pw + "&schema=x"))
        .isEqualTo("postgres://db/meta?user=a&password=***&schema=x");
    for (String bad : new String[] {"postgres://alice:" + pw + "@db host/meta",
        "postgres://alice:" + pw + "/x@db:5432/meta", "postgres://alice:" + pw + "#@db/meta",
        "postgres://alice:pw" + pw + "@[bad/meta", "mongodb://u:" + pw + "@h/?proxyPassword=" + pw}) {
      assertThat(StoreOptions.redact(bad)).as(bad).doesNotContain(pw).contains("***");
    }
    assertThat(StoreOptions.redact("memory:")).isEqualTo("memory:");
  }
}
