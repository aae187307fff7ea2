package io.objectmeta.api.migrate;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.gc.GarbagePage;
import io.objectmeta.api.gc.GarbageRecord;

/**
 * A store's GC queue as a verification compares it: how many records, their bytes, and a digest
 * of their canonical fields (record ids left out: each store mints its own). The digest does not
 * depend on the order of records queued at the same time.
 *
 * @param records records queued (leased ones included)
 * @param bytes bytes of data they hold
 * @param digest hex digest of the multiset of records
 */
public record GarbageSummary(long records, long bytes, String digest) {

  /** Reads the whole queue with {@code listGarbage}, a page at a time, claiming nothing. */
  public static GarbageSummary of(MetadataStore store, int pageSize) {
    long records = 0;
    long bytes = 0;
    Canonical.MultisetDigest digest = new Canonical.MultisetDigest();
    String after = null;
    do {
      GarbagePage page = store.listGarbage(after, pageSize);
      for (GarbageRecord r : page.records()) {
        records++;
        bytes += r.size();
        digest.add(Canonical.garbage(r));
      }
      after = page.truncated() ? page.next() : null;
    } while (after != null);
    return new GarbageSummary(records, bytes, digest.hex());
  }
}
