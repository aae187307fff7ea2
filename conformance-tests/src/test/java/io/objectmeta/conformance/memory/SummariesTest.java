package io.objectmeta.conformance.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.migrate.BucketSummary;
import io.objectmeta.api.migrate.GarbageSummary;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.conformance.Sample;
import io.objectmeta.memory.MemoryMetadataStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a verification compares of a bucket and of the GC queue, counted and digested. */
class SummariesTest {

  @Test
  void aBucketSummaryCountsUploadsAndPartsAndTheirDigestFollowsThem() {
    MemoryMetadataStore store = new MemoryMetadataStore();
    store.createBucket("bkt", "owner", null);
    store.updateBucket("bkt", BucketUpdate.versioning(VersioningState.ENABLED));
    store.putObject("bkt", "k", Sample.object("v1"));
    store.putObject("bkt", "k", Sample.object("v2"));
    store.deleteObject("bkt", "k");
    MultipartUpload u1 = store.initiateMultipartUpload("bkt", "m", Sample.object("m"));
    store.putPart("bkt", "m", u1.uploadId(), Part.of(1, 5, "e1", List.of()));
    store.putPart("bkt", "m", u1.uploadId(), Part.of(2, 6, "e2", List.of()));
    MultipartUpload u2 = store.initiateMultipartUpload("bkt", "n", Sample.object("n"));
    Bucket b = store.getBucket("bkt");

    BucketSummary small = BucketSummary.of(store, b, 1);
    BucketSummary large = BucketSummary.of(store, b, 1000);
    assertThat(small).isEqualTo(large);
    assertThat(small.keys()).isEqualTo(1);
    assertThat(small.versions()).as("objects, not counting the marker").isEqualTo(2);
    assertThat(small.deleteMarkers()).isEqualTo(1);
    assertThat(small.uploads()).isEqualTo(2);
    assertThat(small.parts()).isEqualTo(2);

    store.putPart("bkt", "n", u2.uploadId(), Part.of(1, 7, "e3", List.of()));
    BucketSummary after = BucketSummary.of(store, b, 1000);
    assertThat(after.parts()).isEqualTo(3);
    assertThat(after.uploadsDigest()).isNotEqualTo(small.uploadsDigest());
    assertThat(after.versionsDigest()).isEqualTo(small.versionsDigest());
  }

  @Test
  void aGarbageSummaryCountsRecordsAndBytesWhateverThePageSize() {
    MemoryMetadataStore store = new MemoryMetadataStore();
    store.createBucket("bkt", "owner", null);
    for (int i = 1; i <= 3; i++) {
      store.putObject("bkt", "k" + i, Sample.object("v" + i, 10 * i));
      store.deleteObject("bkt", "k" + i);
    }
    GarbageSummary one = GarbageSummary.of(store, 1);
    assertThat(one.records()).isEqualTo(3);
    assertThat(one.bytes()).isEqualTo(60);
    assertThat(GarbageSummary.of(store, 1000)).isEqualTo(one);
    store.putObject("bkt", "k4", Sample.object("v4", 1));
    store.deleteObject("bkt", "k4");
    GarbageSummary more = GarbageSummary.of(store, 2);
    assertThat(more.records()).isEqualTo(4);
    assertThat(more.bytes()).isEqualTo(61);
    assertThat(more.digest()).isNotEqualTo(one.digest());
  }
}
