package io.objectmeta.api.listing;

import java.util.Iterator;
import java.util.List;

/**
 * A {@link Cursor} over a database that answers ordered range queries: it fetches a batch at a
 * time, continues after the last entry it fetched, and on a seek drops what it holds and queries
 * again from the seek key. A backend implements {@link #fetch} (one query) and nothing else.
 * After a seek the first batch is small, because a listing often reads one entry and seeks again
 * (a common prefix skipped), unless the caller said how many entries it expects from there
 * ({@link #expect}); batches grow to {@code maxBatch}.
 */
public abstract class PagedCursor<E> implements Cursor<E> {
  private final int firstBatch;
  private final int maxBatch;
  private int batch;
  private String seekKey = "";
  private E last;
  private Iterator<E> buffered = java.util.Collections.emptyIterator();
  private boolean exhausted;
  private int expected;

  protected PagedCursor(int firstBatch, int maxBatch) {
    this.firstBatch = firstBatch;
    this.maxBatch = maxBatch;
    this.batch = firstBatch;
  }

  /**
   * One ordered query.
   *
   * @param from when {@code after} is null: entries with key greater than or equal to this
   * @param after when not null: the entries strictly after this one, in scan order
   * @param limit at most this many
   */
  protected abstract List<E> fetch(String from, E after, int limit);

  @Override
  public E next() {
    if (!buffered.hasNext()) {
      if (exhausted) {
        return null;
      }
      List<E> got = fetch(seekKey, last, batch);
      exhausted = got.size() < batch;
      batch = Math.min(batch * 4, maxBatch);
      buffered = got.iterator();
      if (!buffered.hasNext()) {
        return null;
      }
    }
    last = buffered.next();
    return last;
  }

  @Override
  public void expect(int entries) {
    expected = entries;
  }

  @Override
  public void seek(String key) {
    seekKey = key;
    last = null;
    buffered = java.util.Collections.emptyIterator();
    exhausted = false;
    batch = expected > 0 ? Math.min(expected, maxBatch) : firstBatch;
    expected = 0;
  }
}
