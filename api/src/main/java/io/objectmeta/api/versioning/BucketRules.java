package io.objectmeta.api.versioning;

import io.objectmeta.api.error.BucketAlreadyExistsException;
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

  /**
   * What a restore of {@code given} makes of the live bucket of its name: {@code given} itself
   * when there is none; the same incarnation (same id) brought to the given owner, versioning
   * state and attributes by the rules of {@link #apply} (its creation time stays); a bucket of
   * another incarnation is refused.
   *
   * @param existing the live bucket of that name, or null
   * @throws BucketAlreadyExistsException another incarnation holds the name
   * @throws InvalidArgumentException UNVERSIONED asked of a bucket that has been versioned
   */
  public static Bucket restore(Bucket existing, Bucket given) {
    if (existing == null) {
      return given;
    }
    if (!existing.id().equals(given.id())) {
      throw new BucketAlreadyExistsException("bucket: \"" + given.name() + "\" exists as another"
          + " incarnation (id " + existing.id() + ", not " + given.id() + ")");
    }
    return apply(existing, new BucketUpdate(given.versioning(), given.owner(), given.attributes()));
  }
}
