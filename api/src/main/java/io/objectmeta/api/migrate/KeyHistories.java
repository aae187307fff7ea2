package io.objectmeta.api.migrate;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.listing.ListVersionsRequest;
import io.objectmeta.api.listing.ListVersionsResult;
import io.objectmeta.api.model.ObjectVersion;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * The keys of a bucket, each with its whole history (newest first), read from
 * {@code listObjectVersions} one page at a time. A key whose versions run across pages is
 * assembled before it is returned, so this holds one page and one key's history, never the
 * bucket: that is the memory a migration or a verification needs.
 */
final class KeyHistories {
  private final MetadataStore store;
  private ListVersionsRequest next;
  private Iterator<ObjectVersion> page = Collections.emptyIterator();
  private List<ObjectVersion> pending = new ArrayList<>();

  /**
   * @param afterKey start after this key (null: from the first)
   * @param pageSize versions per listing page, 1 to 1000
   */
  KeyHistories(MetadataStore store, String bucket, String afterKey, int pageSize) {
    this.store = store;
    this.next = ListVersionsRequest.of(bucket).withKeyMarker(afterKey).withMaxKeys(pageSize);
  }

  /** The next key's versions, newest first, or null after the last key. */
  List<ObjectVersion> next() {
    while (true) {
      ObjectVersion v = nextVersion();
      if (v == null || (!pending.isEmpty() && !pending.get(0).key().equals(v.key()))) {
        List<ObjectVersion> key = pending;
        pending = new ArrayList<>();
        if (v != null) {
          pending.add(v);
        }
        return key.isEmpty() ? null : key;
      }
      pending.add(v);
    }
  }

  private ObjectVersion nextVersion() {
    while (!page.hasNext()) {
      if (next == null) {
        return null;
      }
      ListVersionsResult got = store.listObjectVersions(next);
      next = got.truncated()
          ? next.withKeyMarker(got.nextKeyMarker()).withVersionIdMarker(got.nextVersionIdMarker())
          : null;
      page = got.versions().iterator();
    }
    return page.next();
  }
}
