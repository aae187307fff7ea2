package io.objectmeta.api.listing;

/**
 * ListBuckets: live buckets in name order.
 *
 * @param owner only this owner's buckets (null: all owners)
 * @param marker buckets with names after it
 * @param maxBuckets 0 to 1000 (default 1000)
 */
public record ListBucketsRequest(String owner, String marker, int maxBuckets) {
  public static ListBucketsRequest all() {
    return new ListBucketsRequest(null, null, ListObjectsRequest.DEFAULT_MAX_KEYS);
  }

  public static ListBucketsRequest ofOwner(String owner) {
    return new ListBucketsRequest(owner, null, ListObjectsRequest.DEFAULT_MAX_KEYS);
  }

  public ListBucketsRequest withMarker(String v) {
    return new ListBucketsRequest(owner, v, maxBuckets);
  }

  public ListBucketsRequest withMaxBuckets(int v) {
    return new ListBucketsRequest(owner, marker, v);
  }
}
