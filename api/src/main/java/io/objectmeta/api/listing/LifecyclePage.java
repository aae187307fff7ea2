package io.objectmeta.api.listing;

import java.util.List;

/**
 * A page of a lifecycle listing.
 *
 * @param entries the candidates, keys in UTF-8 order (versions of a key newest first)
 * @param truncated whether more follows
 * @param nextKeyMarker only when truncated: the key of the last entry
 * @param nextVersionIdMarker only when truncated, for version listings: the last entry's version id
 */
public record LifecyclePage<T>(List<T> entries, boolean truncated, String nextKeyMarker,
    String nextVersionIdMarker) {}
