package io.objectmeta.api.model;

import java.util.Objects;

/**
 * Where a piece of an object's data lives in the data store: what a GC sink frees.
 *
 * @param store the name of the data store (backend, location constraint)
 * @param key the data store's key for the piece
 * @param offset the piece's offset within the object
 * @param size the piece's size in bytes
 */
public record DataLocation(String store, String key, long offset, long size) {
  public DataLocation {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(key, "key");
  }
}
