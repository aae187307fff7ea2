package io.objectmeta.api.versioning;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.VersioningState;

/** How a {@link BucketUpdate} changes a bucket; backends apply it atomically with the write. */
public final class BucketRules {
  private BucketRules() {}

  /**
   * The bucket after the update.
   *
   * @throws InvalidArgumentException UNVERSIONED asked of a bucket that has been versioned
   */
  public static Bucket apply(Bucket b, BucketUpdate u) {
    Bucket out = b;
    if (u.versioning() != null) {
      if (u.versioning() == VersioningState.UNVERSIONED && b.versioning().versioned()) {
        throw new InvalidArgumentException("versioning", "a bucket that has been versioned can only"
            + " be ENABLED or SUSPENDED, not UNVERSIONED");
      }
      out = out.withVersioning(u.versioning());
    }
    if (u.owner() != null) {
      out = out.withOwner(u.owner());
    }
    if (u.attributes() != null) {
      out = out.withAttributes(u.attributes());
    }
    return out;
  }
}
