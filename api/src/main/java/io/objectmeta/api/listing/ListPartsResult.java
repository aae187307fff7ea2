package io.objectmeta.api.listing;

import io.objectmeta.api.model.Part;
import java.util.List;

/**
 * ListParts output.
 *
 * @param parts part records in part-number order
 * @param truncated whether more follows
 * @param nextPartNumberMarker only when truncated: the last part number of the page, else 0
 */
public record ListPartsResult(List<Part> parts, boolean truncated, int nextPartNumberMarker) {}
