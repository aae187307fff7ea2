package io.objectmeta.api.gc;

import java.time.Instant;

/**
 * The state of the GC queue.
 *
 * @param queued records in the queue (leased ones included)
 * @param leased records under a live lease
 * @param oldest the deletedAt of the oldest record, or null when empty
 * @param bytes bytes of data the queued records hold
 */
public record GcQueueStats(long queued, long leased, Instant oldest, long bytes) {}
