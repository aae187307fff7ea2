package io.objectmeta.api.model;

import io.objectmeta.api.error.MetadataException;

/**
 * The per-entry outcome of a batch call: exactly one of {@code value} and {@code error} is set.
 * Entries come back in the order of the request.
 */
public record BatchEntry<T>(ObjectRef ref, T value, MetadataException error) {
  public BatchEntry {
    if ((value == null) == (error == null)) {
      throw new IllegalArgumentException("exactly one of value and error");
    }
  }

  public boolean ok() {
    return error == null;
  }

  public static <T> BatchEntry<T> success(ObjectRef ref, T value) {
    return new BatchEntry<>(ref, value, null);
  }

  public static <T> BatchEntry<T> failure(ObjectRef ref, MetadataException error) {
    return new BatchEntry<>(ref, null, error);
  }
}
