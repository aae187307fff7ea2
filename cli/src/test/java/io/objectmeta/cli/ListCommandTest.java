package io.objectmeta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ListCommandTest {
  private static final Pattern NEXT = Pattern.compile("the next page: (.*) \\(or --all\\)");
  private final Cli cli = new Cli();

  private void keys(String bucket, int n) {
    for (int i = 0; i < n; i++) {
      cli.ok("put", bucket, String.format("k%02d", i), "--size", Integer.toString(i));
    }
  }

  private static List<String> keysOf(JsonNode listing, String field) {
    List<String> keys = new ArrayList<>();
    listing.get(field).forEach(e -> keys.add(e.get("key").asText()));
    return keys;
  }

  /** The options a truncated page's stderr line gives for the next page. */
  private static List<String> nextPage(Cli.Result r) {
    Matcher m = NEXT.matcher(r.err());
    assertThat(m.find()).as("a next-page line in: " + r.err()).isTrue();
    return List.of(m.group(1).split(" "));
  }

  @Test
  void aTruncatedPageSaysHowToGetTheNextOne() {
    cli.ok("bucket", "create", "bk1");
    keys("bk1", 25);
    Cli.Result first = cli.ok("list", "bk1", "--max-keys", "10");
    assertThat(first.outLines()).hasSize(11);
    assertThat(first.outLines().get(0)).matches("LAST MODIFIED +SIZE +KEY");
    assertThat(first.outLines().get(1)).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d +0 +k00");
    assertThat(first.outLines().get(10)).endsWith(" k09");

    List<String> args = new ArrayList<>(List.of("list", "bk1", "--max-keys", "10"));
    args.addAll(nextPage(first));
    Cli.Result second = cli.ok(args.toArray(String[]::new));
    assertThat(second.outLines().get(1)).endsWith(" k10");
    assertThat(second.outLines()).hasSize(11);
  }

  @Test
  void allPagesTogetherHoldEveryKeyOnce() {
    cli.ok("bucket", "create", "bk1");
    keys("bk1", 25);
    Cli.Result table = cli.ok("list", "bk1", "--max-keys", "10", "--all");
    assertThat(table.outLines()).hasSize(26);
    assertThat(table.err()).isEmpty();

    JsonNode json = cli.ok("list", "bk1", "--max-keys", "7", "--all", "--json").json();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      expected.add(String.format("k%02d", i));
    }
    assertThat(keysOf(json, "contents")).isEqualTo(expected);
    assertThat(json.get("truncated").asBoolean()).isFalse();
    assertThat(json.get("keyCount").asInt()).isEqualTo(25);
    assertThat(json.has("nextContinuationToken")).isFalse();
  }

  @Test
  void aJsonPageCarriesTheTokenOfTheNextAndStartAfterSkips() {
    cli.ok("bucket", "create", "bk1");
    keys("bk1", 5);
    JsonNode first = cli.ok("list", "bk1", "--max-keys", "2", "--json").json();
    assertThat(keysOf(first, "contents")).containsExactly("k00", "k01");
    assertThat(first.get("truncated").asBoolean()).isTrue();
    JsonNode second = cli.ok("list", "bk1", "--max-keys", "2", "--json", "--continuation-token",
        first.get("nextContinuationToken").asText()).json();
    assertThat(keysOf(second, "contents")).containsExactly("k02", "k03");
    assertThat(keysOf(cli.ok("list", "bk1", "--start-after", "k02", "--json").json(), "contents"))
        .containsExactly("k03", "k04");
  }

  @Test
  void aDelimiterRollsKeysUpIntoCommonPrefixes() {
    cli.ok("bucket", "create", "bk1");
    for (String k : List.of("2026/01/a", "2026/01/b", "2026/02/a", "2026/readme")) {
      cli.ok("put", "bk1", k);
    }
    Cli.Result table = cli.ok("list", "bk1", "--prefix", "2026/", "--delimiter", "/");
    assertThat(table.outLines()).hasSize(4);
    assertThat(table.outLines().get(1)).matches(" +PRE +2026/01/");
    assertThat(table.outLines().get(2)).matches(" +PRE +2026/02/");
    assertThat(table.outLines().get(3)).endsWith(" 2026/readme");
    JsonNode json = cli.ok("list", "bk1", "--prefix", "2026/", "--delimiter", "/", "--json").json();
    assertThat(json.get("commonPrefixes")).extracting(JsonNode::asText)
        .containsExactly("2026/01/", "2026/02/");
    assertThat(keysOf(json, "contents")).containsExactly("2026/readme");
  }

  @Test
  void versionsListEveryVersionAndMarkerAndPageByKeyAndVersionMarkers() {
    cli.ok("bucket", "create", "vb1", "--versioning", "Enabled");
    cli.ok("put", "vb1", "a", "--size", "1");
    cli.ok("put", "vb1", "a", "--size", "2");
    cli.ok("delete", "vb1", "a");
    cli.ok("put", "vb1", "b", "--size", "3");

    Cli.Result table = cli.ok("list", "vb1", "--versions");
    assertThat(table.outLines()).hasSize(5);
    assertThat(table.outLines().get(0)).matches("LAST MODIFIED +SIZE +LATEST +VERSION ID +KEY");
    assertThat(table.outLines().get(1)).contains("(marker)", "latest").endsWith(" a");
    assertThat(table.outLines().get(2)).contains(" 2 ").doesNotContain("latest");
    assertThat(table.outLines().get(4)).contains(" 3 ", "latest").endsWith(" b");

    List<String> seen = new ArrayList<>();
    List<String> args = new ArrayList<>(List.of("list", "vb1", "--versions", "--max-keys", "1"));
    for (int page = 0; page < 4; page++) {
      Cli.Result r = cli.ok(args.toArray(String[]::new));
      seen.add(r.outLines().get(1));
      if (page < 3) {
        args = new ArrayList<>(List.of("list", "vb1", "--versions", "--max-keys", "1"));
        args.addAll(nextPage(r));
      } else {
        assertThat(r.err()).isEmpty();
      }
    }
    assertThat(seen).containsExactlyElementsOf(table.outLines().subList(1, 5));
    JsonNode json = cli.ok("list", "vb1", "--versions", "--json").json();
    assertThat(json.get("versions").get(0).get("deleteMarker").asBoolean()).isTrue();
  }

  @Test
  void asOfListsTheBucketAsItWasThen() throws Exception {
    cli.ok("bucket", "create", "vb1", "--versioning", "Enabled");
    Instant put = Instant.now();
    cli.ok("put", "vb1", "old");
    io.objectmeta.conformance.Polling.clockPast(put);
    Instant then = Instant.now();
    io.objectmeta.conformance.Polling.clockPast(then);
    cli.ok("delete", "vb1", "old");
    cli.ok("put", "vb1", "new");
    assertThat(keysOf(cli.ok("list", "vb1", "--json").json(), "contents")).containsExactly("new");
    assertThat(keysOf(cli.ok("list", "vb1", "--as-of", then.toString(), "--json").json(), "contents"))
        .containsExactly("old");
  }

  @Test
  void optionsThatDoNotGoTogetherAreUsageErrors() {
    cli.ok("bucket", "create", "bk1");
    for (String[] args : List.of(
        new String[] {"list", "bk1", "--versions", "--start-after", "x"},
        new String[] {"list", "bk1", "--key-marker", "x"},
        new String[] {"list", "bk1", "--max-keys", "5000"},
        new String[] {"list", "bk1", "--as-of", "yesterday"})) {
      Cli.Result r = cli.run(args);
      assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(ExitCode.USAGE);
      assertThat(r.errLines()).as(String.join(" ", args)).hasSize(1);
    }
  }
}
