package io.objectmeta.api.listing;

import java.time.Instant;

/**
 * ListObjectsV2: current objects of a bucket.
 *
 * @param bucket the bucket name
 * @param prefix only keys starting with it
 * @param delimiter roll up into common prefixes
 * @param startAfter list keys after it (ignored when a continuation token is given)
 * @param continuationToken the {@code nextContinuationToken} of the previous page
 * @param maxKeys 0 to 1000 (default 1000)
 * @param asOf if set, the bucket as it was at this instant
 */
public record ListObjectsV2Request(String bucket, String prefix, String delimiter,
    String startAfter, String continuationToken, int maxKeys, Instant asOf) {

  public static ListObjectsV2Request of(String bucket) {
    return new ListObjectsV2Request(bucket, null, null, null, null,
        ListObjectsRequest.DEFAULT_MAX_KEYS, null);
  }

  public ListObjectsV2Request withPrefix(String v) {
    return new ListObjectsV2Request(bucket, v, delimiter, startAfter, continuationToken, maxKeys, asOf);
  }

  public ListObjectsV2Request withDelimiter(String v) {
    return new ListObjectsV2Request(bucket, prefix, v, startAfter, continuationToken, maxKeys, asOf);
  }

  public ListObjectsV2Request withStartAfter(String v) {
    return new ListObjectsV2Request(bucket, prefix, delimiter, v, continuationToken, maxKeys, asOf);
  }

  public ListObjectsV2Request withContinuationToken(String v) {
    return new ListObjectsV2Request(bucket, prefix, delimiter, startAfter, v, maxKeys, asOf);
  }

  public ListObjectsV2Request withMaxKeys(int v) {
    return new ListObjectsV2Request(bucket, prefix, delimiter, startAfter, continuationToken, v, asOf);
  }

  public ListObjectsV2Request withAsOf(Instant v) {
    return new ListObjectsV2Request(bucket, prefix, delimiter, startAfter, continuationToken, maxKeys, v);
  }
}
