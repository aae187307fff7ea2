package io.objectmeta.api.model;

/** A part named in a completion: its number and the etag the client saw. */
public record CompletedPart(int partNumber, String etag) {}
