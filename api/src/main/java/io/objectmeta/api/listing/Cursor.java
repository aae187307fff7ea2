package io.objectmeta.api.listing;

/**
 * An ordered, seekable scan that a backend supplies to the listing engine. Entries come in UTF-8
 * byte order of their keys ({@link KeyOrder}); entries of one key come in the order the listing
 * defines (versions newest first, uploads oldest first).
 *
 * <p>A cursor is single-threaded and must be closed. It may read ahead in batches; the engine
 * stops pulling as soon as a page is full, so a backend should fetch lazily (a page of 1000
 * needs about 1001 entries, plus what seeks skip).
 */
public interface Cursor<E> extends AutoCloseable {

  /** The next entry, or null when the scan is exhausted. */
  E next();

  /**
   * Repositions the scan: the next {@link #next()} returns the first entry whose key is greater
   * than or equal to {@code key} (UTF-8 order), whatever was read before. For multi-entry keys
   * that is the key's first entry.
   */
  void seek(String key);

  /**
   * A hint before the next {@link #seek}: about how many entries the caller will read from there
   * (a page's worth plus one). A cursor that fetches in batches sizes its first batch by it
   * instead of guessing; after later seeks (a common prefix skipped) it starts small again.
   */
  default void expect(int entries) {}

  @Override
  default void close() {}
}
