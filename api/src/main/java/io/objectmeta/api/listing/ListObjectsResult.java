package io.objectmeta.api.listing;

import io.objectmeta.api.model.ObjectVersion;
import java.util.List;

/**
 * ListObjects (V1) output.
 *
 * @param contents current objects, in UTF-8 key order
 * @param commonPrefixes common prefixes, in order
 * @param truncated whether more follows
 * @param nextMarker only when truncated and a delimiter was given: the last key or common prefix
 *     of this page (without a delimiter, S3 leaves the client to use the last key)
 */
public record ListObjectsResult(List<ObjectVersion> contents, List<String> commonPrefixes,
    boolean truncated, String nextMarker) {}
