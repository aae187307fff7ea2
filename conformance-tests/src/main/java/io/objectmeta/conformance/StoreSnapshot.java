package io.objectmeta.conformance;

import io.objectmeta.api.Capability;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.listing.BucketPage;
import io.objectmeta.api.listing.ListBucketsRequest;
import io.objectmeta.api.listing.ListUploadsRequest;
import io.objectmeta.api.listing.ListUploadsResult;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.StoreUsage;
import io.objectmeta.api.model.Usage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Everything a client can observe of a store, read through the public interface: every bucket
 * with all its versions, uploads and usage, the store's usage, and the GC queue. Two snapshots are
 * equal when nothing observable changed between them.
 */
public record StoreSnapshot(List<BucketState> buckets, StoreUsage usage, List<GarbageRecord> garbage,
    long gcQueued, long gcBytes, Instant gcOldest) {

  /** One bucket as observed. */
  public record BucketState(Bucket bucket, List<ObjectVersion> versions, List<MultipartUpload> uploads,
      Usage usage) {}

  public static StoreSnapshot of(MetadataStore store) {
    List<BucketState> buckets = new ArrayList<>();
    String marker = null;
    while (true) {
      BucketPage page = store.listBuckets(ListBucketsRequest.all().withMarker(marker));
      for (Bucket b : page.buckets()) {
        buckets.add(new BucketState(b, Walks.allVersions(store, b.name()), uploads(store, b.name()),
            store.bucketUsage(b.name())));
      }
      if (!page.truncated()) {
        break;
      }
      marker = page.nextMarker();
    }
    List<GarbageRecord> garbage = new ArrayList<>(Walks.gcQueue(store));
    garbage.sort(Comparator.comparing(GarbageRecord::id));
    var stats = store.gcQueueStats();
    return new StoreSnapshot(buckets, store.usage(), garbage, stats.queued(), stats.bytes(),
        stats.oldest());
  }

  private static List<MultipartUpload> uploads(MetadataStore store, String bucket) {
    if (!store.capabilities().contains(Capability.MULTIPART_UPLOADS)) {
      return List.of();
    }
    List<MultipartUpload> all = new ArrayList<>();
    ListUploadsRequest r = ListUploadsRequest.of(bucket);
    while (true) {
      ListUploadsResult page = store.listMultipartUploads(r);
      all.addAll(page.uploads());
      if (!page.truncated()) {
        return all;
      }
      r = r.withKeyMarker(page.nextKeyMarker()).withUploadIdMarker(page.nextUploadIdMarker());
    }
  }
}
