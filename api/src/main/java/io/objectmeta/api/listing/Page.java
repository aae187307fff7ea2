package io.objectmeta.api.listing;

import java.util.List;

/**
 * One page of a listing as the engine produced it: entries and common prefixes (each in key
 * order), whether another eligible entry exists after the page, and what the page ended on.
 *
 * @param entries the entries, in order
 * @param commonPrefixes the common prefixes, in order
 * @param truncated whether at least one more entry or common prefix follows
 * @param lastEntry the last thing emitted if it was an entry, else null
 * @param lastPrefix the last thing emitted if it was a common prefix, else null
 */
public record Page<E>(List<E> entries, List<String> commonPrefixes, boolean truncated,
    E lastEntry, String lastPrefix) {

  static <E> Page<E> empty() {
    return new Page<>(List.of(), List.of(), false, null, null);
  }
}
