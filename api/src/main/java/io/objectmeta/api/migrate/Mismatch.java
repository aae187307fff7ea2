package io.objectmeta.api.migrate;

/**
 * One difference a verification found.
 *
 * @param bucket the bucket (null for the GC queue)
 * @param what what differs: a setting ({@code owner}), a count ({@code keys}), a digest
 *     ({@code versions digest}), a bucket missing, or one key or version
 *     ({@code version "a/b" 0H2…: metadata})
 * @param source the source's value (null: absent there)
 * @param target the target's value (null: absent there)
 */
public record Mismatch(String bucket, String what, String source, String target) {
  @Override
  public String toString() {
    return (bucket == null ? "GC queue" : "bucket " + bucket) + ": " + what + ": source "
        + (source == null ? "has none" : source) + ", target " + (target == null ? "has none" : target);
  }
}
