package io.objectmeta.api.error;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.migrate.Mismatch;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each typed error carries S3's code and HTTP status (the table an S3 front end maps from). */
class ErrorCodesTest {

  private record Row(MetadataException e, String code, int status) {}

  @Test
  void everyErrorHasS3sCodeAndStatus() {
    List<Row> table = List.of(
        new Row(new BucketAlreadyExistsException("m"), "BucketAlreadyExists", 409),
        new Row(new BucketNotEmptyException("m"), "BucketNotEmpty", 409),
        new Row(new InternalErrorException("m"), "InternalError", 500),
        new Row(new StoreConfigurationException("m", null), "InternalError", 500),
        new Row(new InvalidArgumentException("f", "m"), "InvalidArgument", 400),
        new Row(new InvalidBucketNameException("m"), "InvalidBucketName", 400),
        new Row(new InvalidPartException("m"), "InvalidPart", 400),
        new Row(new InvalidPartOrderException("m"), "InvalidPartOrder", 400),
        new Row(new KeyTooLongException("m"), "KeyTooLongError", 400),
        new Row(new MethodNotAllowedException("m"), "MethodNotAllowed", 405),
        new Row(NoSuchBucketException.of("b"), "NoSuchBucket", 404),
        new Row(new NoSuchKeyException("m"), "NoSuchKey", 404),
        new Row(NoSuchUploadException.of("k", "u"), "NoSuchUpload", 404),
        new Row(new NoSuchVersionException("m"), "NoSuchVersion", 404),
        new Row(new NotImplementedException("m"), "NotImplemented", 501),
        new Row(new PreconditionFailedException("m"), "PreconditionFailed", 412),
        new Row(new ServiceUnavailableException("m"), "ServiceUnavailable", 503));
    for (Row r : table) {
      assertThat(r.e().code()).as(r.e().getClass().getSimpleName()).isEqualTo(r.code());
      assertThat(r.e().httpStatus()).as(r.e().getClass().getSimpleName()).isEqualTo(r.status());
    }
    assertThat(NoSuchBucketException.of("b")).hasMessage("bucket: \"b\" does not exist");
    assertThat(NoSuchUploadException.of("k", "u")).hasMessage("uploadId: no upload u of \"k\"");
  }

  @Test
  void aMismatchSaysWhereAndBothSides() {
    assertThat(new Mismatch("b", "owner", "x", "y"))
        .hasToString("bucket b: owner: source x, target y");
    assertThat(new Mismatch(null, "records", null, "3"))
        .hasToString("GC queue: records: source has none, target 3");
    assertThat(new Mismatch("b", "keys", "2", null))
        .hasToString("bucket b: keys: source 2, target has none");
  }
}
