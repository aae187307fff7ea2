package io.objectmeta.api.model;

import java.time.Instant;
import java.util.List;

/**
 * A part record of a multipart upload.
 *
 * @param partNumber 1 to 10000
 * @param size the part's size in bytes
 * @param etag the part's etag (hex MD5 of its data, as the data path computed it)
 * @param lastModified when the record was written (set by the store; ignored on input)
 * @param dataLocations where the part's data lives (what GC frees if the part is replaced or aborted)
 */
public record Part(int partNumber, long size, String etag, Instant lastModified,
    List<DataLocation> dataLocations) {
  public Part {
    dataLocations = dataLocations == null ? List.of() : List.copyOf(dataLocations);
  }

  public static Part of(int partNumber, long size, String etag, List<DataLocation> dataLocations) {
    return new Part(partNumber, size, etag, null, dataLocations);
  }

  public Part withLastModified(Instant at) {
    return new Part(partNumber, size, etag, at, dataLocations);
  }
}
