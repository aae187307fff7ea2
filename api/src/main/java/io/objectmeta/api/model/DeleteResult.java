package io.objectmeta.api.model;

/**
 * What a delete did.
 *
 * @param key the key
 * @param versionId the version id of the delete marker it created, or of the version it removed;
 *     null when an unversioned object was removed
 * @param deleteMarker true if a delete marker was created, or the removed version was a marker
 */
public record DeleteResult(String key, String versionId, boolean deleteMarker) {}
