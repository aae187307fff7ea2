package io.objectmeta.api.model;

import io.objectmeta.api.version.VersionId;
import java.time.Instant;
import java.util.Objects;

/**
 * One version of a key as a store reports it: an object or a delete marker.
 *
 * @param key the object key
 * @param revision the internal revision; orders the versions of a key (newest first) and dates it
 * @param nullVersion whether this is the key's null version (reported with version id "null")
 * @param deleteMarker whether this is a delete marker (then {@code metadata} is null)
 * @param latest whether this is the newest version of its key at the time of the read
 * @param metadata the object's metadata; null for a delete marker
 */
public record ObjectVersion(
    String key, VersionId revision, boolean nullVersion, boolean deleteMarker, boolean latest,
    ObjectMetadata metadata) {

  public ObjectVersion {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(revision, "revision");
    if (deleteMarker != (metadata == null)) {
      throw new IllegalArgumentException("a delete marker has no metadata, an object has some");
    }
  }

  /** The external version id: {@code "null"} for the null version, else the encoded revision. */
  public String versionId() {
    return nullVersion ? VersionId.NULL : revision.encode();
  }

  /** When this version was written (its revision's timestamp). */
  public Instant lastModified() {
    return revision.timestamp();
  }

  /** The object's size; 0 for a delete marker. */
  public long size() {
    return metadata == null ? 0 : metadata.size();
  }

  public ObjectVersion withLatest(boolean isLatest) {
    return isLatest == latest ? this
        : new ObjectVersion(key, revision, nullVersion, deleteMarker, isLatest, metadata);
  }

  public ObjectVersion withMetadata(ObjectMetadata m) {
    return new ObjectVersion(key, revision, nullVersion, deleteMarker, latest, m);
  }
}
