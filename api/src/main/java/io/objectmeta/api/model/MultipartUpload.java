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
public record MultipartUpload(String key, String uploadId, Instant initiated, ObjectMetadata metadata) {}
