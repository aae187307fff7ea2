package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.listing.ListObjectsRequest;
import io.objectmeta.api.listing.ListObjectsResult;
import io.objectmeta.api.listing.ListUploadsRequest;
import io.objectmeta.api.listing.ListUploadsResult;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.model.WriteCondition;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * One S3 error per case, as a gateway maps it to HTTP: the code and status each refusal carries,
 * none of them retryable; and the listing defaults S3 clients rely on.
 */
public interface ErrorContract extends StoreScenario {

  default void assertS3Error(String code, int status, ThrowingCallable call) {
    MetadataException e = catchThrowableOfType(MetadataException.class, call);
    assertThat(e).as("expected an S3 error %s", code).isNotNull();
    assertThat(e.code()).isEqualTo(code);
    assertThat(e.httpStatus()).isEqualTo(status);
    assertThat(e.isRetryable()).isFalse();
    assertThat(e.getMessage()).isNotBlank();
  }

  @Test
  default void eachRefusalCarriesItsS3CodeAndStatus() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v = put(b, "k", "v1");
    String marker = store().deleteObject(b, "gone").versionId();
    assertS3Error("NoSuchBucket", 404, () -> store().getObject(BucketNames.next(), "k"));
    assertS3Error("NoSuchKey", 404, () -> store().getObject(b, "absent"));
    assertS3Error("NoSuchVersion", 404, () -> store().getObjectVersion(b, "k", "null"));
    assertS3Error("MethodNotAllowed", 405, () -> store().getObjectVersion(b, "gone", marker));
    assertS3Error("BucketAlreadyExists", 409, () -> store().createBucket(b, OWNER, null));
    assertS3Error("BucketNotEmpty", 409, () -> store().deleteBucket(b));
    assertS3Error("PreconditionFailed", 412,
        () -> store().putObject(b, "k", Sample.object("x"), WriteCondition.createOnly()));
    assertS3Error("InvalidBucketName", 400, () -> store().getBucket("NO"));
    assertS3Error("KeyTooLongError", 400, () -> store().getObject(b, "k".repeat(1025)));
    assertS3Error("InvalidArgument", 400, () -> store().getObjectVersion(b, "k", v.versionId() + "x"));
  }

  @Test
  default void aListingDefaultsToAThousandKeysAndTruncatesThere() {
    String b = newBucket();
    for (int i = 0; i < 1001; i++) {
      put(b, String.format("k%04d", i), "v" + i, 1);
    }
    ListObjectsResult first = store().listObjects(ListObjectsRequest.of(b));
    assertThat(first.contents()).hasSize(1000);
    assertThat(first.truncated()).isTrue();
    ListObjectsResult second = store().listObjects(ListObjectsRequest.of(b)
        .withMarker(first.contents().get(999).key()));
    assertThat(second.contents()).extracting(ObjectVersion::key).containsExactly("k1000");
    assertThat(second.truncated()).isFalse();
    assertThat(store().bucketUsage(b).currentObjects()).isEqualTo(1001);
  }

  @Test
  default void anUploadPageEndingOnACommonPrefixOmitsTheUploadIdMarker() {
    String b = newBucket();
    requireCapability(io.objectmeta.api.Capability.MULTIPART_UPLOADS,
        () -> store().listMultipartUploads(ListUploadsRequest.of(b)));
    store().initiateMultipartUpload(b, "a", Sample.object("a", 0));
    store().initiateMultipartUpload(b, "d/1", Sample.object("d1", 0));
    store().initiateMultipartUpload(b, "d/2", Sample.object("d2", 0));
    store().initiateMultipartUpload(b, "z", Sample.object("z", 0));
    ListUploadsResult r = store().listMultipartUploads(ListUploadsRequest.of(b).withDelimiter("/").withMaxUploads(2));
    assertThat(r.uploads()).extracting(u -> u.key()).containsExactly("a");
    assertThat(r.commonPrefixes()).containsExactly("d/");
    assertThat(r.truncated()).isTrue();
    assertThat(r.nextKeyMarker()).isEqualTo("d/");
    assertThat(r.nextUploadIdMarker()).isNull();
    ListUploadsResult next = store().listMultipartUploads(ListUploadsRequest.of(b).withDelimiter("/")
        .withKeyMarker(r.nextKeyMarker()));
    assertThat(next.uploads()).extracting(u -> u.key()).containsExactly("z");
    assertThat(next.commonPrefixes()).isEmpty();
  }
}
