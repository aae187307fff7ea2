package io.objectmeta.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.listing.ListObjectsRequest;
import io.objectmeta.api.listing.ListVersionsRequest;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PostgresSmokeTest {
  @Test
  void aVersionedBucketRoundTrips() {
    try (MetadataStore s = PostgresTestDatabase.openFresh()) {
      s.createBucket("bk1", "alice", null);
      s.updateBucket("bk1", BucketUpdate.versioning(VersioningState.ENABLED));
      for (String k : new String[] {"a/1", "a/2", "b", "c/x/y", "\uD83D\uDE00", "\uFFFD", "n\0ul"}) {
        s.putObject("bk1", k, ObjectMetadata.builder().size(3).etag("e").build());
      }
      s.putObject("bk1", "b", ObjectMetadata.builder().size(5).build());
      s.deleteObject("bk1", "a/2");
      var r = s.listObjects(ListObjectsRequest.of("bk1").withDelimiter("/"));
      assertThat(r.contents()).extracting(ObjectVersion::key)
          .containsExactly("b", "n\0ul", "\uFFFD", "\uD83D\uDE00");
      assertThat(r.commonPrefixes()).containsExactly("a/", "c/");
      assertThat(s.listObjectVersions(ListVersionsRequest.of("bk1")).versions()).hasSize(9);
      assertThat(s.bucketUsage("bk1").currentObjects()).isEqualTo(6);
      s.updateBucket("bk1", BucketUpdate.versioning(VersioningState.SUSPENDED));
      s.putObject("bk1", "b", ObjectMetadata.builder().size(7).build());
      s.putObject("bk1", "b", ObjectMetadata.builder().size(8).build());
      assertThat(s.gcQueueStats().queued()).isEqualTo(1);
      var claim = s.claimGarbage(10, Duration.ZERO, Duration.ofMinutes(1));
      assertThat(claim.records()).hasSize(1);
      assertThat(s.acknowledgeGarbage(claim.claimId(), java.util.List.of(claim.records().get(0).id())))
          .isEqualTo(1);
      assertThat(s.getUUID()).isEqualTo(s.getUUID());
    }
  }
}
