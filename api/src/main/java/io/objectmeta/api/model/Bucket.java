package io.objectmeta.api.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Objects;

/**
 * A bucket incarnation. {@code id} is unique per incarnation: a bucket deleted and created again
 * under the same name has a new id and sees nothing of the old one's objects.
 *
 * @param name the S3 bucket name
 * @param id the incarnation id, opaque, unique for all time in one store
 * @param owner the owner's canonical id
 * @param created when this incarnation was created
 * @param versioning the versioning state
 * @param attributes free-form JSON the application keeps with the bucket (never null; a copy)
 */
public record Bucket(
    String name, String id, String owner, Instant created, VersioningState versioning,
    ObjectNode attributes) {

  public Bucket {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(created, "created");
    Objects.requireNonNull(versioning, "versioning");
    attributes = Json.copyOrEmpty(attributes);
  }

  @Override
  public ObjectNode attributes() {
    return attributes.deepCopy();
  }

  public Bucket withVersioning(VersioningState state) {
    return new Bucket(name, id, owner, created, state, attributes);
  }

  public Bucket withOwner(String newOwner) {
    return new Bucket(name, id, newOwner, created, versioning, attributes);
  }

  public Bucket withAttributes(ObjectNode newAttributes) {
    return new Bucket(name, id, owner, created, versioning, newAttributes);
  }

  /** A bucket created now: a new incarnation id, unversioned. */
  public static Bucket newIncarnation(String name, String owner, Instant created,
      ObjectNode attributes) {
    return new Bucket(name, java.util.UUID.randomUUID().toString(), owner, created,
        VersioningState.UNVERSIONED, attributes);
  }
}
