package io.objectmeta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class StatsAndUploadsTest {
  private final Cli cli = new Cli();

  @Test
  void statsShowTotalsPerBucketCountsTheUuidAndTheGcQueue() {
    cli.ok("bucket", "create", "photos", "--versioning", "Enabled");
    cli.ok("bucket", "create", "scratch");
    cli.ok("put", "photos", "a", "--size", "10");
    cli.ok("put", "photos", "a", "--size", "20");
    cli.ok("delete", "photos", "a");
    cli.ok("put", "scratch", "t", "--size", "5");
    cli.ok("put", "scratch", "t", "--size", "6");

    JsonNode json = cli.ok("stats", "--json").json();
    assertThat(json.get("uuid").asText()).matches("[0-9a-f-]{36}");
    assertThat(json.get("buckets").asLong()).isEqualTo(2);
    assertThat(json.get("total").get("currentObjects").asLong()).isEqualTo(1);
    assertThat(json.get("total").get("nonCurrentVersions").asLong()).isEqualTo(2);
    assertThat(json.get("total").get("deleteMarkers").asLong()).isEqualTo(1);
    assertThat(json.get("gcQueue").get("queued").asLong()).isEqualTo(1);
    assertThat(json.get("perBucket")).extracting(b -> b.get("bucket").asText())
        .containsExactly("photos", "scratch");
    assertThat(json.get("perBucket").get(1).get("usage").get("currentBytes").asLong()).isEqualTo(6);

    Cli.Result table = cli.ok("stats");
    assertThat(table.outLines()).anySatisfy(l -> assertThat(l).startsWith("store UUID")
        .contains(json.get("uuid").asText()));
    assertThat(table.outLines()).anySatisfy(l -> assertThat(l).matches("gc queue +1 records .*"));
    assertThat(table.outLines()).anySatisfy(l -> assertThat(l).matches("photos +Enabled +0 .*"));
  }

  @Test
  void uploadsAreCreatedListedAndAborted() {
    cli.ok("bucket", "create", "photos");
    String id = cli.ok("uploads", "create", "photos", "big.iso", "--content-type", "x/iso", "--json")
        .json().get("uploadId").asText();
    cli.ok("uploads", "create", "photos", "dir/other.iso");

    Cli.Result table = cli.ok("uploads", "list", "photos");
    assertThat(table.outLines()).hasSize(3);
    assertThat(table.outLines().get(1)).contains(id).endsWith(" big.iso");
    JsonNode byPrefix = cli.ok("uploads", "list", "photos", "--delimiter", "/", "--json").json();
    assertThat(byPrefix.get("commonPrefixes")).extracting(JsonNode::asText).containsExactly("dir/");
    assertThat(byPrefix.get("uploads")).singleElement()
        .satisfies(u -> assertThat(u.get("metadata").get("contentType").asText()).isEqualTo("x/iso"));

    cli.ok("uploads", "abort", "photos", "big.iso", id);
    assertThat(cli.ok("uploads", "list", "photos", "--json").json().get("uploads"))
        .extracting(u -> u.get("key").asText()).containsExactly("dir/other.iso");
    Cli.Result again = cli.run("uploads", "abort", "photos", "big.iso", id);
    assertThat(again.exit()).isEqualTo(ExitCode.S3_ERROR);
    assertThat(again.errLines()).singleElement().asString().startsWith("objectmeta: NoSuchUpload: ");
  }
}
