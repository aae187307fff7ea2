package io.objectmeta.api.listing;

import java.time.Instant;

/**
 * A lifecycle listing: the candidates of an expiration or transition rule, page by page.
 *
 * @param bucket the bucket name
 * @param prefix only keys starting with it
 * @param before only entries older than this (last-modified, or for non-current versions the
 *     time they became non-current); null for all
 * @param keyMarker start after this key (with {@code versionIdMarker}: after that version)
 * @param versionIdMarker a version id of {@code keyMarker} (non-current listing only)
 * @param maxKeys 0 to 1000 (default 1000)
 */
public record LifecycleRequest(String bucket, String prefix, Instant before, String keyMarker,
    String versionIdMarker, int maxKeys) {

  public static LifecycleRequest of(String bucket) {
    return new LifecycleRequest(bucket, null, null, null, null, ListObjectsRequest.DEFAULT_MAX_KEYS);
  }

  public LifecycleRequest withPrefix(String v) {
    return new LifecycleRequest(bucket, v, before, keyMarker, versionIdMarker, maxKeys);
  }

  public LifecycleRequest withBefore(Instant v) {
    return new LifecycleRequest(bucket, prefix, v, keyMarker, versionIdMarker, maxKeys);
  }

  public LifecycleRequest withKeyMarker(String v) {
    return new LifecycleRequest(bucket, prefix, before, v, versionIdMarker, maxKeys);
  }

  public LifecycleRequest withVersionIdMarker(String v) {
    return new LifecycleRequest(bucket, prefix, before, keyMarker, v, maxKeys);
  }

  public LifecycleRequest withMaxKeys(int v) {
    return new LifecycleRequest(bucket, prefix, before, keyMarker, versionIdMarker, v);
  }
}
