package io.objectmeta.api.model;

/**
 * A precondition on a put, checked atomically with the write against the key's current object
 * (its latest version, when that is not a delete marker). At most one kind is set.
 *
 * @param ifNoneMatch create only: fails if the key has a current object (a delete marker on top
 *     counts as none)
 * @param ifMatchEtag fails unless the current object's etag equals this
 * @param ifMatchVersionId fails unless the current object's version id equals this ("null" for
 *     the null version)
 */
public record WriteCondition(boolean ifNoneMatch, String ifMatchEtag, String ifMatchVersionId) {
  private static final WriteCondition NONE = new WriteCondition(false, null, null);

  public static WriteCondition none() {
    return NONE;
  }

  /** If-None-Match: * (create only). */
  public static WriteCondition createOnly() {
    return new WriteCondition(true, null, null);
  }

  public static WriteCondition ifMatchEtag(String etag) {
    return new WriteCondition(false, etag, null);
  }

  public static WriteCondition ifMatchVersionId(String versionId) {
    return new WriteCondition(false, null, versionId);
  }

  public boolean isNone() {
    return !ifNoneMatch && ifMatchEtag == null && ifMatchVersionId == null;
  }
}
