package io.objectmeta.mongo;

/**
 * How a bucket's keys become document ids (the reference's bucket key formats).
 * <ul>
 *   <li>{@code V0}: master {@code key}, versions {@code key\0\0versionId}: masters and versions
 *       interleaved, so listing current objects walks every version of every key.
 *   <li>{@code V1}: master {@code \x7fM key}, versions {@code \x7fV key\0\0versionId}: two
 *       ranges, and no master while a key's latest version is a delete marker, so listing
 *       current objects reads only what it returns.
 * </ul>
 * Keys are escaped in both ({@link Ids}), so the separator is {@code \0\0} where the reference
 * has {@code \0}: a key may contain NUL.
 */
public enum KeyFormat {
  V0, V1;

  public String text() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  static KeyFormat of(String text) {
    return valueOf(text.toUpperCase(java.util.Locale.ROOT));
  }
}
