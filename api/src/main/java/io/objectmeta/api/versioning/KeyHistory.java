package io.objectmeta.api.versioning;

import io.objectmeta.api.model.ObjectVersion;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * All versions of one key, newest first (by revision): the state that {@link KeyWrites} reads and
 * rewrites. The first version is the latest. Immutable.
 */
public record KeyHistory(String key, List<ObjectVersion> versions) {
  public KeyHistory {
    List<ObjectVersion> sorted = new ArrayList<>(versions);
    sorted.sort((a, b) -> a.revision().compareTo(b.revision()));
    List<ObjectVersion> flagged = new ArrayList<>(sorted.size());
    for (int i = 0; i < sorted.size(); i++) {
      flagged.add(sorted.get(i).withLatest(i == 0));
    }
    versions = Collections.unmodifiableList(flagged);
  }

  public static KeyHistory empty(String key) {
    return new KeyHistory(key, List.of());
  }

  public boolean isEmpty() {
    return versions.isEmpty();
  }

  /** The latest version, or null. */
  public ObjectVersion latest() {
    return versions.isEmpty() ? null : versions.get(0);
  }

  /** The latest version if it is an object (not a delete marker), else null. */
  public ObjectVersion current() {
    ObjectVersion l = latest();
    return l == null || l.deleteMarker() ? null : l;
  }

  /** The null version, or null. */
  public ObjectVersion nullVersion() {
    for (ObjectVersion v : versions) {
      if (v.nullVersion()) {
        return v;
      }
    }
    return null;
  }

  /** The version with this external id, or null. */
  public ObjectVersion find(String versionId) {
    for (ObjectVersion v : versions) {
      if (v.versionId().equals(versionId)) {
        return v;
      }
    }
    return null;
  }
}
