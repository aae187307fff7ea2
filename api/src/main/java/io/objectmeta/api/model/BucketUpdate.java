package io.objectmeta.api.model;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A change to a bucket: each non-null field replaces the bucket's value, null fields are left.
 *
 * @param versioning new versioning state (ENABLED or SUSPENDED; UNVERSIONED only on a bucket that
 *     never left it)
 * @param owner new owner
 * @param attributes new attributes object (replaces the old one whole)
 */
public record BucketUpdate(VersioningState versioning, String owner, ObjectNode attributes) {
  public BucketUpdate {
    attributes = attributes == null ? null : attributes.deepCopy();
  }

  @Override
  public ObjectNode attributes() {
    return attributes == null ? null : attributes.deepCopy();
  }

  public static BucketUpdate versioning(VersioningState state) {
    return new BucketUpdate(state, null, null);
  }

  public static BucketUpdate owner(String owner) {
    return new BucketUpdate(null, owner, null);
  }

  public static BucketUpdate attributes(ObjectNode attributes) {
    return new BucketUpdate(null, null, attributes);
  }
}
