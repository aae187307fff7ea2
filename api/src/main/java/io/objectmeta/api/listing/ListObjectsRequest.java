package io.objectmeta.api.listing;

import java.time.Instant;

/**
 * ListObjects (V1): current objects of a bucket.
 *
 * @param bucket the bucket name
 * @param prefix only keys starting with it (null or "" for all)
 * @param delimiter roll keys up into common prefixes at its first occurrence after the prefix
 *     (null or "" for none)
 * @param marker list keys after it
 * @param maxKeys 0 to 1000 (default 1000)
 * @param asOf if set, the bucket as it was at this instant (versioned buckets; see
 *     {@code MetadataStore.listObjects})
 */
public record ListObjectsRequest(String bucket, String prefix, String delimiter, String marker,
    int maxKeys, Instant asOf) {

  public static final int DEFAULT_MAX_KEYS = 1000;

  public static ListObjectsRequest of(String bucket) {
    return new ListObjectsRequest(bucket, null, null, null, DEFAULT_MAX_KEYS, null);
  }

  public ListObjectsRequest withPrefix(String v) {
    return new ListObjectsRequest(bucket, v, delimiter, marker, maxKeys, asOf);
  }

  public ListObjectsRequest withDelimiter(String v) {
    return new ListObjectsRequest(bucket, prefix, v, marker, maxKeys, asOf);
  }

  public ListObjectsRequest withMarker(String v) {
    return new ListObjectsRequest(bucket, prefix, delimiter, v, maxKeys, asOf);
  }

  public ListObjectsRequest withMaxKeys(int v) {
    return new ListObjectsRequest(bucket, prefix, delimiter, marker, v, asOf);
  }

  public ListObjectsRequest withAsOf(Instant v) {
    return new ListObjectsRequest(bucket, prefix, delimiter, marker, maxKeys, v);
  }
}
