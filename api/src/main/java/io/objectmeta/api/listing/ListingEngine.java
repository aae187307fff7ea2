package io.objectmeta.api.listing;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * S3 listing, written once over an ordered, seekable {@link Cursor}: prefix, delimiter with common
 * prefixes, a start marker, max keys, and truncation exactly as S3 reports it. The V1, V2,
 * versions, uploads and lifecycle listings are this one algorithm with different entries and
 * markers (see {@link Listings}).
 *
 * <p>Rules:
 * <ul>
 *   <li>Only keys starting with {@code prefix}; the scan starts at the prefix and stops at the
 *       first key past it.
 *   <li>With a delimiter, a key containing it after the prefix rolls up into the common prefix
 *       that ends with its first such delimiter; the rest of that prefix is skipped with one seek.
 *       A common prefix counts as one toward max keys.
 *   <li>The marker: entries of keys after it. If the marker lies inside a common prefix (it starts
 *       with one), listing resumes after that whole prefix, which is not reported again. A marker
 *       before the prefix is ignored; a marker past the prefix range gives an empty page.
 *   <li>Entries of the marker's own key are skipped while {@code skipAtMarker} says so (all of
 *       them for object listings; up to the version-id or upload-id marker for those listings).
 *   <li>{@code maxKeys == 0} gives an empty, non-truncated page. Truncated means another
 *       eligible entry or common prefix exists after the page: the engine reads one past.
 * </ul>
 */
public final class ListingEngine {
  private ListingEngine() {}

  /**
   * Runs one page.
   *
   * @param cursor the scan (closed by the caller)
   * @param keyOf the key of an entry
   * @param prefix the prefix ("" for none)
   * @param delimiter the delimiter, or null for none
   * @param marker the start marker, or null
   * @param skipAtMarker called, in order, for entries whose key equals the marker; such entries
   *     are skipped until it first returns false (then none of that key is skipped any more)
   * @param maxKeys 0 to 1000 (validated by the caller)
   */
  public static <E> Page<E> list(Cursor<E> cursor, Function<? super E, String> keyOf,
      String prefix, String delimiter, String marker, Predicate<? super E> skipAtMarker,
      int maxKeys) {
    if (maxKeys == 0) {
      return Page.empty();
    }
    String from = prefix;
    String skipKey = null;
    if (marker != null && KeyOrder.compare(marker, prefix) >= 0) {
      if (!marker.startsWith(prefix)) {
        return Page.empty();
      }
      String rolled = delimiter == null ? null : commonPrefix(marker, prefix, delimiter);
      if (rolled != null) {
        Optional<String> after = KeyOrder.prefixSuccessor(rolled);
        if (after.isEmpty()) {
          return Page.empty();
        }
        from = after.get();
      } else {
        from = marker;
        skipKey = marker;
      }
    }
    cursor.expect(maxKeys + 1);
    cursor.seek(from);

    List<E> entries = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    E lastEntry = null;
    String lastPrefix = null;
    boolean skipping = skipKey != null;
    E e;
    while ((e = cursor.next()) != null) {
      String key = keyOf.apply(e);
      if (!key.startsWith(prefix)) {
        if (KeyOrder.compare(key, prefix) < 0) {
          continue; // a cursor may hand back keys before the seek target; never list them
        }
        break;
      }
      if (skipping) {
        if (key.equals(skipKey) && skipAtMarker.test(e)) {
          continue;
        }
        skipping = false;
      }
      String rolled = delimiter == null ? null : commonPrefix(key, prefix, delimiter);
      if (entries.size() + prefixes.size() == maxKeys) {
        return new Page<>(entries, prefixes, true, lastEntry, lastPrefix);
      }
      if (rolled != null) {
        prefixes.add(rolled);
        lastPrefix = rolled;
        lastEntry = null;
        Optional<String> after = KeyOrder.prefixSuccessor(rolled);
        if (after.isEmpty()) {
          break;
        }
        cursor.seek(after.get());
      } else {
        entries.add(e);
        lastEntry = e;
        lastPrefix = null;
      }
    }
    return new Page<>(entries, prefixes, false, lastEntry, lastPrefix);
  }

  /**
   * The common prefix {@code key} rolls up into: the key up to and including the first
   * {@code delimiter} after {@code prefix}; null if there is none.
   */
  public static String commonPrefix(String key, String prefix, String delimiter) {
    int i = key.indexOf(delimiter, prefix.length());
    return i < 0 ? null : key.substring(0, i + delimiter.length());
  }
}
