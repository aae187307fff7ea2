package io.objectmeta.api.listing;

import io.objectmeta.api.model.ObjectVersion;
import java.util.List;

/**
 * ListObjectsV2 output.
 *
 * @param contents current objects, in UTF-8 key order
 * @param commonPrefixes common prefixes, in order
 * @param truncated whether more follows
 * @param nextContinuationToken only when truncated: an opaque token for the next page
 * @param keyCount contents plus common prefixes
 */
public record ListObjectsV2Result(List<ObjectVersion> contents, List<String> commonPrefixes,
    boolean truncated, String nextContinuationToken, int keyCount) {}
