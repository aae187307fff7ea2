package io.objectmeta.api.model;

/**
 * Item counts of the whole store.
 *
 * @param buckets live buckets
 * @param total the sum of every live bucket's {@link Usage}
 */
public record StoreUsage(long buckets, Usage total) {}
