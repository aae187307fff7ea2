package io.objectmeta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObjectCommandsTest {
  private final Cli cli = new Cli();

  @BeforeEach
  void buckets() {
    cli.ok("bucket", "create", "photos");
    cli.ok("bucket", "create", "history", "--versioning", "Enabled");
  }

  @Test
  void putThenGetShowsAllTheMetadataAndHeadTheSummary() {
    cli.ok("put", "photos", "cat.jpg", "--size", "1234", "--etag", "9b2c", "--content-type",
        "image/jpeg", "--metadata", "color=red", "--metadata", "camera=x100", "--tag", "team=a");

    Cli.Result get = cli.ok("get", "photos", "cat.jpg");
    assertThat(get.outLines()).anySatisfy(l -> assertThat(l).matches("size +1234"))
        .anySatisfy(l -> assertThat(l).matches("etag +9b2c"))
        .anySatisfy(l -> assertThat(l).matches("contentType +image/jpeg"))
        .anySatisfy(l -> assertThat(l).matches("metadata\\.color +red"))
        .anySatisfy(l -> assertThat(l).matches("tag\\.team +a"))
        .anySatisfy(l -> assertThat(l).matches("versionId +null"));
    JsonNode full = cli.ok("get", "photos", "cat.jpg", "--json").json();
    assertThat(full.get("metadata").get("userMetadata").get("camera").asText()).isEqualTo("x100");
    assertThat(full.get("size").asLong()).isEqualTo(1234);

    Cli.Result head = cli.ok("head", "photos", "cat.jpg");
    assertThat(head.out()).contains("1234", "9b2c").doesNotContain("metadata.color");
    assertThat(cli.ok("head", "photos", "cat.jpg", "--json").json().has("metadata")).isFalse();
  }

  @Test
  void aVersionedBucketKeepsVersionsAndADeleteAddsAMarkerThatHidesTheKey() {
    String v1 = cli.ok("put", "history", "doc", "--size", "1", "--json").json().get("versionId").asText();
    String v2 = cli.ok("put", "history", "doc", "--size", "2", "--json").json().get("versionId").asText();
    assertThat(v1).isNotEqualTo(v2).isNotEqualTo("null");

    Cli.Result deleted = cli.ok("delete", "history", "doc");
    assertThat(deleted.out()).startsWith("deleted doc: delete marker ");
    String marker = deleted.out().trim().substring("deleted doc: delete marker ".length());

    Cli.Result hidden = cli.run("get", "history", "doc");
    assertThat(hidden.exit()).isEqualTo(ExitCode.S3_ERROR);
    assertThat(hidden.errLines()).singleElement().asString()
        .startsWith("objectmeta: NoSuchKey: ").endsWith("[delete marker " + marker + "]");
    assertThat(cli.ok("get", "history", "doc", "--version-id", v1, "--json").json().get("size").asLong())
        .isEqualTo(1);

    assertThat(cli.ok("delete", "history", "doc", "--version-id", marker).out())
        .isEqualTo("removed delete marker " + marker + " of doc\n");
    assertThat(cli.ok("head", "history", "doc", "--json").json().get("versionId").asText()).isEqualTo(v2);
  }

  @Test
  void conditionsAreCheckedByTheStore() {
    cli.ok("put", "photos", "cat.jpg", "--etag", "aaa");
    Cli.Result exists = cli.run("put", "photos", "cat.jpg", "--if-none-match", "*");
    assertThat(exists.exit()).isEqualTo(ExitCode.S3_ERROR);
    assertThat(exists.errLines()).singleElement().asString().startsWith("objectmeta: PreconditionFailed: ");

    assertThat(cli.run("put", "photos", "cat.jpg", "--if-match", "bbb").exit()).isEqualTo(ExitCode.S3_ERROR);
    cli.ok("put", "photos", "cat.jpg", "--if-match", "aaa", "--etag", "ccc");
    assertThat(cli.ok("head", "photos", "cat.jpg", "--json").json().get("etag").asText()).isEqualTo("ccc");
    cli.ok("put", "photos", "dog.jpg", "--if-none-match", "*");
  }

  @Test
  void aMalformedConditionIsAUsageError() {
    Cli.Result notStar = cli.run("put", "photos", "cat.jpg", "--if-none-match", "abc");
    assertThat(notStar.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(notStar.errLines()).singleElement().asString().contains("--if-none-match takes only '*'");

    Cli.Result both = cli.run("put", "photos", "cat.jpg", "--if-none-match", "*", "--if-match", "x");
    assertThat(both.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(both.errLines()).singleElement().asString().contains("mutually exclusive");
  }

  @Test
  void aMetadataFileGivesTheMetadataAndFlagsOverrideIt(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("meta.json");
    Files.writeString(file, "{\"size\": 10, \"contentType\": \"text/plain\","
        + " \"userMetadata\": {\"a\": \"1\"},"
        + " \"dataLocations\": [{\"store\": \"disk-1\", \"key\": \"blob-7\", \"offset\": 0, \"size\": 10}]}");
    cli.ok("put", "photos", "notes.txt", "--metadata-file", file.toString(), "--size", "11",
        "--metadata", "b=2");

    JsonNode m = cli.ok("get", "photos", "notes.txt", "--json").json().get("metadata");
    assertThat(m.get("size").asLong()).isEqualTo(11);
    assertThat(m.get("contentType").asText()).isEqualTo("text/plain");
    assertThat(m.get("userMetadata").get("a").asText()).isEqualTo("1");
    assertThat(m.get("userMetadata").get("b").asText()).isEqualTo("2");
    assertThat(m.get("dataLocations").get(0).get("key").asText()).isEqualTo("blob-7");
  }

  @Test
  void aMetadataFileThatIsNotMetadataIsAUsageError(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("meta.json");
    Files.writeString(file, "{\"size\": \"big\"}");
    Cli.Result r = cli.run("put", "photos", "x", "--metadata-file", file.toString());
    assertThat(r.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(r.errLines()).singleElement().asString()
        .startsWith("objectmeta: --metadata-file " + file + ": not metadata JSON");
    for (String lenient : new String[] {"null", "{\"size\": 5} trailing", "{\"size\": 1.5}",
        "{\"size\": 5, \"size\": 6}", "{\"size\": null}", ""}) {
      Files.writeString(file, lenient);
      Cli.Result refused = cli.run("put", "photos", "x", "--metadata-file", file.toString());
      assertThat(refused.exit()).as(lenient + ": " + refused.err()).isEqualTo(ExitCode.USAGE);
      assertThat(refused.errLines()).as(lenient).singleElement().asString()
          .startsWith("objectmeta: --metadata-file " + file + ": not metadata JSON");
    }
    Cli.Result missing = cli.run("put", "photos", "x", "--metadata-file", dir.resolve("nope").toString());
    assertThat(missing.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(cli.run("get", "photos", "x").exit()).isEqualTo(ExitCode.S3_ERROR);
  }

  @Test
  void keysWithControlCharactersStayOnOneLineInTablesAndExactInJson() {
    cli.ok("put", "photos", "a\nb\u0000c");
    assertThat(cli.ok("head", "photos", "a\nb\u0000c").outLines())
        .anySatisfy(l -> assertThat(l).matches("key +a\\\\nb\\\\u0000c"));
    assertThat(cli.ok("list", "photos", "--json").json().get("contents").get(0).get("key").asText())
        .isEqualTo("a\nb\u0000c");
    Cli.Result missing = cli.run("get", "photos", "x\ny");
    assertThat(missing.errLines()).singleElement().asString().contains("x\\ny");
  }

  @Test
  void anInvalidVersionIdIsAUsageErrorAndAMissingBucketAnS3Error() {
    Cli.Result badId = cli.run("get", "photos", "cat.jpg", "--version-id", "nonsense");
    assertThat(badId.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(badId.errLines()).singleElement().asString().startsWith("objectmeta: InvalidArgument: versionId");

    Cli.Result noBucket = cli.run("put", "nowhere", "cat.jpg");
    assertThat(noBucket.exit()).isEqualTo(ExitCode.S3_ERROR);
    assertThat(noBucket.errLines()).containsExactly(
        "objectmeta: NoSuchBucket: bucket: \"nowhere\" does not exist");
  }
}
