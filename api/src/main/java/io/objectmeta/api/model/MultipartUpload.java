package io.objectmeta.api.model;

import java.time.Instant;

/**
 * An in-progress multipart upload.
 *
 * @param key the key the upload will write
 * @param uploadId the upload id (opaque; ascending order is initiation order)
 * @param initiated when it was initiated
 * @param metadata the metadata given at initiation (size and data locations are computed at
 *     completion from the parts)
 */
public record MultipartUpload(String key, String uploadId, Instant initiated, ObjectMetadata metadata) {

  /**
   * An upload initiated now: its id is the minted version id in oldest-first order (so a key's
   * uploads list in initiation order), its time the id's.
   */
  public static MultipartUpload initiate(String key, io.objectmeta.api.version.VersionId id,
      ObjectMetadata metadata) {
    return new MultipartUpload(key, id.encodeOldestFirst(), id.timestamp(), metadata);
  }
}
