package io.objectmeta.api.listing;

/**
 * ListObjectVersions: every version and delete marker of a bucket.
 *
 * @param bucket the bucket name
 * @param prefix only keys starting with it
 * @param delimiter roll up into common prefixes
 * @param keyMarker start after this key; with {@code versionIdMarker}, start after that version
 *     of this key
 * @param versionIdMarker a version id of {@code keyMarker} ("null" for the null version);
 *     requires a key marker
 * @param maxKeys 0 to 1000 (default 1000)
 */
public record ListVersionsRequest(String bucket, String prefix, String delimiter, String keyMarker,
    String versionIdMarker, int maxKeys) {

  public static ListVersionsRequest of(String bucket) {
    return new ListVersionsRequest(bucket, null, null, null, null, ListObjectsRequest.DEFAULT_MAX_KEYS);
  }

  public ListVersionsRequest withPrefix(String v) {
    return new ListVersionsRequest(bucket, v, delimiter, keyMarker, versionIdMarker, maxKeys);
  }

  public ListVersionsRequest withDelimiter(String v) {
    return new ListVersionsRequest(bucket, prefix, v, keyMarker, versionIdMarker, maxKeys);
  }

  public ListVersionsRequest withKeyMarker(String v) {
    return new ListVersionsRequest(bucket, prefix, delimiter, v, versionIdMarker, maxKeys);
  }

  public ListVersionsRequest withVersionIdMarker(String v) {
    return new ListVersionsRequest(bucket, prefix, delimiter, keyMarker, v, maxKeys);
  }

  public ListVersionsRequest withMaxKeys(int v) {
    return new ListVersionsRequest(bucket, prefix, delimiter, keyMarker, versionIdMarker, v);
  }
}
