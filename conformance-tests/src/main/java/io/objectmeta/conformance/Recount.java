package io.objectmeta.conformance;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Usage;
import java.util.List;

/** A bucket's object counters recomputed from its version listing, to check the stored ones. */
public final class Recount {
  private Recount() {}

  /** The version part of a bucket's usage (uploads and part bytes are left 0). */
  public static Usage versions(MetadataStore store, String bucket) {
    return of(Walks.allVersions(store, bucket));
  }

  /** The version part of usage over a version listing. */
  public static Usage of(List<ObjectVersion> versions) {
    long cur = 0;
    long curBytes = 0;
    long non = 0;
    long nonBytes = 0;
    long markers = 0;
    for (ObjectVersion v : versions) {
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

  /** A usage with its upload counters cleared, to compare with {@link #versions}. */
  public static Usage withoutUploads(Usage u) {
    return new Usage(u.currentObjects(), u.currentBytes(), u.nonCurrentVersions(), u.nonCurrentBytes(),
        u.deleteMarkers(), 0, 0);
  }
}
