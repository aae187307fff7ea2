package io.objectmeta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BucketCommandsTest {
  private final Cli cli = new Cli();

  @Test
  void createdBucketsAreListedInNameOrderWithTheirVersioning() {
    cli.ok("bucket", "create", "zebra");
    cli.ok("bucket", "create", "alpha", "--versioning", "enabled", "--owner", "alice");

    Cli.Result table = cli.ok("bucket", "list");
    assertThat(table.outLines()).hasSize(3);
    assertThat(table.outLines().get(0)).startsWith("BUCKET").contains("VERSIONING", "OWNER");
    assertThat(table.outLines().get(1)).startsWith("alpha ").contains("Enabled", "alice");
    assertThat(table.outLines().get(2)).startsWith("zebra ").contains("Unversioned");

    JsonNode json = cli.ok("bucket", "list", "--json").json();
    assertThat(json.get("buckets")).extracting(b -> b.get("name").asText())
        .containsExactly("alpha", "zebra");
    assertThat(json.get("buckets").get(0).get("versioning").asText()).isEqualTo("ENABLED");
    assertThat(cli.ok("bucket", "list", "--owner", "alice", "--json").json().get("buckets"))
        .extracting(b -> b.get("name").asText()).containsExactly("alpha");
  }

  @Test
  void versioningIsShownAndSetWithS3sStatusNames() {
    cli.ok("bucket", "create", "photos");
    assertThat(cli.ok("bucket", "versioning", "photos").out()).isEqualTo("Unversioned\n");
    assertThat(cli.ok("bucket", "versioning", "photos", "Enabled").out()).isEqualTo("Enabled\n");
    assertThat(cli.ok("bucket", "versioning", "photos", "suspended").out()).isEqualTo("Suspended\n");
    assertThat(cli.ok("bucket", "versioning", "photos", "--json").json().get("versioning").asText())
        .isEqualTo("SUSPENDED");
  }

  @Test
  void aVersioningStatusOtherThanEnabledOrSuspendedIsAUsageError() {
    cli.ok("bucket", "create", "photos");
    Cli.Result r = cli.run("bucket", "versioning", "photos", "Unversioned");
    assertThat(r.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(r.errLines()).singleElement().asString()
        .startsWith("objectmeta: Invalid value for positional parameter").contains("Enabled, Suspended");
  }

  @Test
  void creatingAnExistingBucketIsTheStoresS3Error() {
    cli.ok("bucket", "create", "photos");
    Cli.Result r = cli.run("bucket", "create", "photos");
    assertThat(r.exit()).isEqualTo(ExitCode.S3_ERROR);
    assertThat(r.errLines()).containsExactly("objectmeta: BucketAlreadyExists: bucket: \"photos\" exists");
  }

  @Test
  void deletingABucketThatHoldsObjectsIsBucketNotEmptyAndAnEmptyOneGoes() {
    cli.ok("bucket", "create", "photos");
    cli.ok("put", "photos", "cat.jpg");
    Cli.Result r = cli.run("bucket", "delete", "photos");
    assertThat(r.exit()).isEqualTo(ExitCode.S3_ERROR);
    assertThat(r.errLines()).singleElement().asString().startsWith("objectmeta: BucketNotEmpty: ");

    cli.ok("delete", "photos", "cat.jpg");
    assertThat(cli.ok("bucket", "delete", "photos").out()).isEqualTo("deleted bucket photos\n");
    assertThat(cli.run("bucket", "versioning", "photos").errLines())
        .containsExactly("objectmeta: NoSuchBucket: bucket: \"photos\" does not exist");
  }

  @Test
  void anInvalidBucketNameIsRefusedBeforeTheStoreIsOpened() {
    // The store cannot be reached: exit 2 (not 3) proves the name was checked first.
    Cli unreachable = new Cli(Map.of("OBJECTMETA_STORE", "postgres://127.0.0.1:1/x"));
    Cli.Result r = unreachable.run("bucket", "create", "Bad_Name");
    assertThat(r.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(r.errLines()).singleElement().asString()
        .startsWith("objectmeta: InvalidBucketName: bucket: only lowercase letters");
    assertThat(r.out()).isEmpty();
  }
}
