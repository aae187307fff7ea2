package io.objectmeta.api.listing;

import io.objectmeta.api.model.ObjectVersion;
import java.util.List;

/**
 * ListObjectVersions output.
 *
 * @param versions versions and delete markers: keys in UTF-8 order, each key's newest first, with
 *     {@code latest} set on each key's newest
 * @param commonPrefixes common prefixes, in order
 * @param truncated whether more follows
 * @param nextKeyMarker only when truncated: the last key (or common prefix) of the page
 * @param nextVersionIdMarker only when truncated and the page ended on a version: its id
 */
public record ListVersionsResult(List<ObjectVersion> versions, List<String> commonPrefixes,
    boolean truncated, String nextKeyMarker, String nextVersionIdMarker) {}
