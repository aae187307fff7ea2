package io.objectmeta.bench;

import io.objectmeta.api.model.ObjectMetadata;

/**
 * One operation of a point workload, as the harness planned it, so the backend and the raw
 * baseline do the same thing to identically prepared buckets.
 *
 * @param key the key
 * @param versionId the version addressed (get/delete by version), or the id the raw side writes
 * @param metadata what a put writes
 * @param previous the key's current (or addressed) version's metadata before the operation
 */
public record Op(String key, String versionId, ObjectMetadata metadata, ObjectMetadata previous) {}
