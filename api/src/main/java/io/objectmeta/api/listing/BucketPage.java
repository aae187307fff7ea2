package io.objectmeta.api.listing;

import io.objectmeta.api.model.Bucket;
import java.util.List;

/**
 * A page of buckets.
 *
 * @param buckets in name order
 * @param truncated whether more follows
 * @param nextMarker only when truncated: the last name of the page
 */
public record BucketPage(List<Bucket> buckets, boolean truncated, String nextMarker) {}
