package io.objectmeta.api.model;

import java.time.Instant;

/**
 * A version that is not the latest, with the time it stopped being current: the last-modified of
 * the next newer version of its key (lifecycle rules count "noncurrent days" from here).
 */
public record NonCurrentVersion(ObjectVersion version, Instant staleSince) {}
