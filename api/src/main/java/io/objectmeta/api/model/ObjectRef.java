package io.objectmeta.api.model;

import java.util.Objects;

/** A key, and optionally one of its versions (null: the latest), as batch calls name them. */
public record ObjectRef(String key, String versionId) {
  public ObjectRef {
    Objects.requireNonNull(key, "key");
  }

  public static ObjectRef latest(String key) {
    return new ObjectRef(key, null);
  }

  public static ObjectRef version(String key, String versionId) {
    return new ObjectRef(key, versionId);
  }
}
