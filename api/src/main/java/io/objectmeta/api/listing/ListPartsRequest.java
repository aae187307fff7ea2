package io.objectmeta.api.listing;

/**
 * ListParts: the part records of one upload, by part number.
 *
 * @param bucket the bucket name
 * @param key the upload's key
 * @param uploadId the upload id
 * @param partNumberMarker list parts with a number above it (0 for all)
 * @param maxParts 0 to 1000 (default 1000)
 */
public record ListPartsRequest(String bucket, String key, String uploadId, int partNumberMarker,
    int maxParts) {

  public static ListPartsRequest of(String bucket, String key, String uploadId) {
    return new ListPartsRequest(bucket, key, uploadId, 0, ListObjectsRequest.DEFAULT_MAX_KEYS);
  }

  public ListPartsRequest withPartNumberMarker(int v) {
    return new ListPartsRequest(bucket, key, uploadId, v, maxParts);
  }

  public ListPartsRequest withMaxParts(int v) {
    return new ListPartsRequest(bucket, key, uploadId, partNumberMarker, v);
  }
}
