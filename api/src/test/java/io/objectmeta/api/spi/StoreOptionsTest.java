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

  private static StoreOptions opts(String query) {
    return StoreOptions.of(URI.create("x://h/d?" + query), Map.of());
  }

  @Test
  void booleansAreExactlyTrueOrFalseAndAbsentOnesTakeTheDefault() {
    assertThat(opts("a=true").bool("a", false)).isTrue();
    assertThat(opts("a=false").bool("a", true)).isFalse();
    assertThat(opts("b=true").bool("a", true)).isTrue();
    assertThat(opts("b=true").bool("a", false)).isFalse();
    assertThatThrownBy(() -> opts("a=yes").bool("a", true))
        .isInstanceOf(InvalidArgumentException.class).hasMessage("a: must be true or false: yes");
    assertThatThrownBy(() -> opts("a=TRUE").bool("a", true))
        .isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void positiveNumbersStartAtOneAndIntsStopAtTheirRange() {
    assertThat(opts("n=1").positiveInt("n", 5)).isEqualTo(1);
    assertThat(opts("n=2147483647").positiveInt("n", 5)).isEqualTo(Integer.MAX_VALUE);
    assertThat(opts("m=1").positiveInt("n", 5)).isEqualTo(5);
    assertThat(opts("n=1").positiveLong("n", 5)).isEqualTo(1);
    assertThat(opts("m=1").positiveLong("n", 5)).isEqualTo(5);
    assertThatThrownBy(() -> opts("n=0").positiveInt("n", 5))
        .hasMessage("n: must be a positive integer: 0");
    assertThatThrownBy(() -> opts("n=0").positiveLong("n", 5))
        .hasMessage("n: must be a positive integer: 0");
    assertThatThrownBy(() -> opts("n=2147483648").positiveInt("n", 5))
        .hasMessage("n: must be a positive integer: 2147483648");
    assertThatThrownBy(() -> opts("n=x").positiveLong("n", 5))
        .isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void oneOfAndPlainValues() {
    assertThat(opts("l=shared").oneOf("l", "per", Set.of("per", "shared"))).isEqualTo("shared");
    assertThat(opts("x=1").oneOf("l", "per", Set.of("per", "shared"))).isEqualTo("per");
    assertThatThrownBy(() -> opts("l=other").oneOf("l", "per", Set.of("shared", "per")))
        .hasMessage("l: must be one of [per, shared], got \"other\"");
    assertThat(opts("a=1&b=").get("b")).isEmpty();
    assertThat(opts("a=1").get("b")).isNull();
    assertThat(opts("a=1").get("b", "d")).isEqualTo("d");
    assertThat(opts("a=1&b=2").names()).containsExactlyInAnyOrder("a", "b");
    assertThat(StoreOptions.queryOf(URI.create("x://h?a=%20b&c&&d=e%3Df")))
        .containsExactlyInAnyOrderEntriesOf(Map.of("a", " b", "c", "", "d", "e=f"));
    assertThat(StoreOptions.queryOf(URI.create("x://h"))).isEmpty();
    assertThat(StoreOptions.first(null, "b", "c")).isEqualTo("b");
    assertThat(StoreOptions.<String>first(null, null)).isNull();
  }

  @Test
  void theSuggestionIsTheKnownNameOneEditAwayOrNone() {
    Set<String> known = Set.of("schema", "maxPoolSize");
    for (String[] c : new String[][] {{"schem", "schema"}, {"schemas", "schema"},
        {"xchema", "schema"}, {"scheam", null}, {"sch", null}, {"maxpoolsize", "maxPoolSize"},
        {"schemaaa", null}, {"s", null}}) {
      String message = org.assertj.core.api.Assertions.catchThrowable(() -> opts(c[0] + "=1")
          .requireKnown(known, false)).getMessage();
      if (c[1] == null) {
        assertThat(message).as(c[0]).doesNotContain("did you mean");
      } else {
        assertThat(message).as(c[0]).contains("did you mean " + c[1] + "?");
      }
    }
    assertThat(opts("MAXPOOLSIZE=1").requireKnown(known, true).names()).contains("MAXPOOLSIZE");
  }

  @Test
  void redactionHidesPasswordsAndSecretsInUrisAndInTextThatIsNot() {
    assertThat(StoreOptions.redact(null)).isNull();
    assertThat(StoreOptions.redact("postgres://u:p4ss@h:5432/d?a=1"))
        .isEqualTo("postgres://u:***@h:5432/d?a=1");
    assertThat(StoreOptions.redact("postgres://u@h/d")).isEqualTo("postgres://u@h/d");
    assertThat(StoreOptions.redact("x://h/d?password=p&token=t&apiKey=k&keep=v"))
        .isEqualTo("x://h/d?password=***&token=***&apiKey=***&keep=v");
    assertThat(StoreOptions.redact("postgres://u:p w@h/d")).isEqualTo("postgres://***@h/d");
    assertThat(StoreOptions.redact("not a uri @ all")).isEqualTo("not a uri @ all");
    assertThat(StoreOptions.redact("://u:p@h")).isEqualTo("://***@h");
    assertThat(StoreOptions.redact("x://a@")).isEqualTo("x://***@");
  }
}
