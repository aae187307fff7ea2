package io.objectmeta.api.versioning;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.MethodNotAllowedException;
import io.objectmeta.api.error.NoSuchKeyException;
import io.objectmeta.api.error.NoSuchVersionException;
import io.objectmeta.api.error.PreconditionFailedException;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectMetadataUpdate;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.model.WriteCondition;
import io.objectmeta.api.version.VersionId;
import java.util.ArrayList;
import java.util.List;

/**
 * S3's versioning rules for one key, as pure functions from a {@link KeyHistory} to a
 * {@link KeyChange}. A backend that can read and rewrite a key atomically (a lock, a transaction,
 * a check-and-mutate) applies these and persists the result; the rules then live here once.
 * Every function throws the contract's typed error when the write must be refused, before
 * anything changes.
 *
 * <p>A backend need not read a key's whole history: the functions give the same change (for the
 * versions they see) on any part of it that holds the two newest versions, the null version and
 * the version the call names. Versions outside that part are never touched by a write, keep
 * their place, and count the same in usage before and after.
 */
public final class KeyWrites {
  private KeyWrites() {}

  /** A put in the given versioning state, minting {@code revision} for the new version. */
  public static KeyChange put(KeyHistory h, VersioningState state, ObjectMetadata metadata,
      WriteCondition condition, VersionId revision) {
    check(h, condition);
    ObjectVersion written = new ObjectVersion(h.key(), revision, state != VersioningState.ENABLED,
        false, true, metadata);
    return write(h, state, written);
  }

  /** A delete without version id: removes (unversioned) or adds a delete marker. */
  public static KeyChange delete(KeyHistory h, VersioningState state, VersionId revision) {
    if (state == VersioningState.UNVERSIONED) {
      ObjectVersion current = h.latest();
      if (current == null) {
        throw new NoSuchKeyException("key: no object \"" + h.key() + "\"");
      }
      return new KeyChange(h, KeyHistory.empty(h.key()), current, h.versions());
    }
    ObjectVersion marker = new ObjectVersion(h.key(), revision,
        state == VersioningState.SUSPENDED, true, true, null);
    return write(h, state, marker);
  }

  /** Removes one version for good; the newest remaining becomes the latest. */
  public static KeyChange deleteVersion(KeyHistory h, String versionId) {
    ObjectVersion v = h.find(versionId);
    if (v == null) {
      throw new NoSuchVersionException("versionId: \"" + h.key() + "\" has no version " + versionId);
    }
    List<ObjectVersion> rest = new ArrayList<>(h.versions());
    rest.remove(v);
    return new KeyChange(h, new KeyHistory(h.key(), rest), v, List.of(v));
  }

  /** Changes one version's metadata in place (null id: the current object). */
  public static KeyChange update(KeyHistory h, String versionId, ObjectMetadataUpdate update) {
    ObjectVersion v = versionId == null ? current(h) : version(h, versionId);
    ObjectVersion updated = v.withMetadata(update.applyTo(v.metadata()));
    List<ObjectVersion> rest = new ArrayList<>(h.versions());
    rest.set(rest.indexOf(v), updated);
    KeyHistory after = new KeyHistory(h.key(), rest);
    return new KeyChange(h, after, after.find(updated.versionId()), List.of());
  }

  /**
   * A restore: the key's whole history becomes exactly {@code versions} (already validated:
   * newest first, at most one null version), whatever it was. Nothing goes to the GC queue (a
   * restore frees no data); the usage delta is that of the whole history, so counters end as if
   * the versions had been written one by one. An unversioned bucket holds at most one version
   * of a key, the null version, and no delete marker.
   *
   * @param h the key's whole history (not a part of it: usage and removals need all of it)
   * @throws InvalidArgumentException the versions break the rule of an unversioned bucket
   */
  public static KeyChange restore(KeyHistory h, VersioningState state, List<ObjectVersion> versions) {
    if (state == VersioningState.UNVERSIONED) {
      if (versions.size() > 1) {
        throw new InvalidArgumentException("versions", "an unversioned bucket holds one version of"
            + " a key, the null version; got " + versions.size());
      }
      ObjectVersion only = versions.get(0);
      if (!only.nullVersion()) {
        throw new InvalidArgumentException("versions[0].nullVersion", "an unversioned bucket holds"
            + " only the null version of a key");
      }
      if (only.deleteMarker()) {
        throw new InvalidArgumentException("versions[0].deleteMarker", "an unversioned bucket holds"
            + " no delete markers");
      }
    }
    KeyHistory after = new KeyHistory(h.key(), versions);
    java.util.Set<VersionId> kept = new java.util.HashSet<>();
    for (ObjectVersion v : after.versions()) {
      kept.add(v.revision());
    }
    List<ObjectVersion> removed = h.versions().stream().filter(v -> !kept.contains(v.revision()))
        .toList();
    return new KeyChange(h, after, after.latest(), removed, false);
  }

  /** The current object, or the contract's NoSuchKey (saying whether a marker hides it). */
  public static ObjectVersion current(KeyHistory h) {
    ObjectVersion latest = h.latest();
    if (latest == null) {
      throw new NoSuchKeyException("key: no object \"" + h.key() + "\"");
    }
    if (latest.deleteMarker()) {
      throw new NoSuchKeyException("key: \"" + h.key() + "\" is deleted (a delete marker is its latest version)",
          true, latest.versionId());
    }
    return latest;
  }

  /** A version by id: NoSuchVersion if absent, MethodNotAllowed if a delete marker. */
  public static ObjectVersion version(KeyHistory h, String versionId) {
    ObjectVersion v = h.find(versionId);
    if (v == null) {
      throw new NoSuchVersionException("versionId: \"" + h.key() + "\" has no version " + versionId);
    }
    if (v.deleteMarker()) {
      throw new MethodNotAllowedException("versionId: " + versionId + " of \"" + h.key()
          + "\" is a delete marker");
    }
    return v;
  }

  /** Checks a write condition against the key's current object. */
  public static void check(KeyHistory h, WriteCondition c) {
    if (c == null || c.isNone()) {
      return;
    }
    ObjectVersion current = h.current();
    if (c.ifNoneMatch()) {
      if (current != null) {
        throw new PreconditionFailedException("ifNoneMatch: \"" + h.key() + "\" exists");
      }
      return;
    }
    if (current == null) {
      throw new NoSuchKeyException("ifMatch: no object \"" + h.key() + "\" to match");
    }
    if (c.ifMatchEtag() != null && !c.ifMatchEtag().equals(current.metadata().etag())) {
      throw new PreconditionFailedException("ifMatchEtag: the current etag of \"" + h.key()
          + "\" is " + current.metadata().etag() + ", not " + c.ifMatchEtag());
    }
    if (c.ifMatchVersionId() != null && !c.ifMatchVersionId().equals(current.versionId())) {
      throw new PreconditionFailedException("ifMatchVersionId: the current version of \"" + h.key()
          + "\" is " + current.versionId() + ", not " + c.ifMatchVersionId());
    }
  }

  /** A key's contribution to its bucket's usage. */
  public static Usage usage(KeyHistory h) {
    long cur = 0;
    long curBytes = 0;
    long non = 0;
    long nonBytes = 0;
    long markers = 0;
    for (ObjectVersion v : h.versions()) {
      if (v.deleteMarker()) {
        markers++;
      } else if (v.latest()) {
        cur++;
        curBytes += v.size();
      } else {
        non++;
        nonBytes += v.size();
      }
    }
    return new Usage(cur, curBytes, non, nonBytes, markers, 0, 0);
  }

  /**
   * Adds {@code written} on top: unversioned replaces everything (there is only the null
   * version); suspended replaces the null version wherever it stands; enabled keeps all.
   */
  private static KeyChange write(KeyHistory h, VersioningState state, ObjectVersion written) {
    List<ObjectVersion> kept = new ArrayList<>();
    List<ObjectVersion> removed = new ArrayList<>();
    for (ObjectVersion v : h.versions()) {
      boolean replaced = state == VersioningState.UNVERSIONED
          || (state == VersioningState.SUSPENDED && v.nullVersion());
      (replaced ? removed : kept).add(v);
    }
    kept.add(written);
    KeyHistory after = new KeyHistory(h.key(), kept);
    return new KeyChange(h, after, after.find(written.versionId()), removed);
  }
}
