package io.objectmeta.conformance;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.listing.ListObjectsV2Request;
import io.objectmeta.api.listing.ListObjectsV2Result;
import io.objectmeta.api.listing.ListVersionsRequest;
import io.objectmeta.api.listing.ListVersionsResult;
import io.objectmeta.api.model.ObjectVersion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Reads that walk a whole listing page by page, and a non-destructive look at the GC queue. */
public final class Walks {
  private Walks() {}

  /** Every version and delete marker of a bucket, walking ListObjectVersions page by page. */
  public static List<ObjectVersion> allVersions(MetadataStore store, String bucket) {
    return allVersions(store, ListVersionsRequest.of(bucket));
  }

  /** Every version of the listing {@code first} starts, walking its markers. */
  public static List<ObjectVersion> allVersions(MetadataStore store, ListVersionsRequest first) {
    List<ObjectVersion> all = new ArrayList<>();
    ListVersionsRequest r = first;
    for (int pages = 0; pages < 100_000; pages++) {
      ListVersionsResult page = store.listObjectVersions(r);
      all.addAll(page.versions());
      if (!page.truncated()) {
        return all;
      }
      r = r.withKeyMarker(page.nextKeyMarker()).withVersionIdMarker(page.nextVersionIdMarker());
    }
    throw new AssertionError("version listing of " + first.bucket() + " never ends");
  }

  /** Every current object of a bucket, walking ListObjectsV2 page by page. */
  public static List<ObjectVersion> allCurrent(MetadataStore store, String bucket) {
    List<ObjectVersion> all = new ArrayList<>();
    ListObjectsV2Request r = ListObjectsV2Request.of(bucket);
    for (int pages = 0; pages < 100_000; pages++) {
      ListObjectsV2Result page = store.listObjectsV2(r);
      all.addAll(page.contents());
      if (!page.truncated()) {
        return all;
      }
      r = r.withContinuationToken(page.nextContinuationToken());
    }
    throw new AssertionError("listing of " + bucket + " never ends");
  }

  /**
   * The whole GC queue, oldest first, without changing it: claims everything claimable with no
   * grace period and releases it at once. Records under someone else's live lease are not seen.
   */
  public static List<GarbageRecord> gcQueue(MetadataStore store) {
    List<GarbageRecord> all = new ArrayList<>();
    List<GarbageClaim> claims = new ArrayList<>();
    try {
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (int i = 0; i < 1000; i++) {
        GarbageClaim c = store.claimGarbage(10_000, Duration.ZERO, Duration.ofMinutes(1));
        if (c.isEmpty()) {
          return all;
        }
        claims.add(c);
        for (GarbageRecord r : c.records()) {
          if (!seen.add(r.id())) {
            throw new AssertionError("GC record " + r.id() + " claimed twice while its lease lives");
          }
          all.add(r);
        }
      }
      throw new AssertionError("the GC queue never runs out of claimable records");
    } finally {
      for (GarbageClaim c : claims) {
        store.releaseGarbage(c.claimId(), c.records().stream().map(GarbageRecord::id).toList());
      }
    }
  }
}
