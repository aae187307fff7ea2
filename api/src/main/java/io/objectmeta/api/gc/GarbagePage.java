package io.objectmeta.api.gc;

import java.util.List;

/**
 * A page of the GC queue read by {@link io.objectmeta.api.MetadataStore#listGarbage}, in queue
 * order, claiming nothing.
 *
 * @param records the records of the page, leased ones included
 * @param truncated whether more records follow
 * @param next only when truncated: the cursor to pass as {@code after} for the next page
 */
public record GarbagePage(List<GarbageRecord> records, boolean truncated, String next) {
  public GarbagePage {
    records = List.copyOf(records);
  }
}
