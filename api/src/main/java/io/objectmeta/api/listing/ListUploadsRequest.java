package io.objectmeta.api.listing;

/**
 * ListMultipartUploads: in-progress uploads of a bucket, keys in UTF-8 order, each key's uploads
 * oldest first.
 *
 * @param bucket the bucket name
 * @param prefix only keys starting with it
 * @param delimiter roll up into common prefixes
 * @param keyMarker start after this key; with {@code uploadIdMarker}, after that upload of it
 * @param uploadIdMarker an upload id of {@code keyMarker}; requires a key marker
 * @param maxUploads 0 to 1000 (default 1000)
 */
public record ListUploadsRequest(String bucket, String prefix, String delimiter, String keyMarker,
    String uploadIdMarker, int maxUploads) {

  public static ListUploadsRequest of(String bucket) {
    return new ListUploadsRequest(bucket, null, null, null, null, ListObjectsRequest.DEFAULT_MAX_KEYS);
  }

  public ListUploadsRequest withPrefix(String v) {
    return new ListUploadsRequest(bucket, v, delimiter, keyMarker, uploadIdMarker, maxUploads);
  }

  public ListUploadsRequest withDelimiter(String v) {
    return new ListUploadsRequest(bucket, prefix, v, keyMarker, uploadIdMarker, maxUploads);
  }

  public ListUploadsRequest withKeyMarker(String v) {
    return new ListUploadsRequest(bucket, prefix, delimiter, v, uploadIdMarker, maxUploads);
  }

  public ListUploadsRequest withUploadIdMarker(String v) {
    return new ListUploadsRequest(bucket, prefix, delimiter, keyMarker, v, maxUploads);
  }

  public ListUploadsRequest withMaxUploads(int v) {
    return new ListUploadsRequest(bucket, prefix, delimiter, keyMarker, uploadIdMarker, v);
  }
}
