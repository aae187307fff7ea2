package io.objectmeta.api.listing;

import io.objectmeta.api.model.MultipartUpload;
import java.util.List;

/**
 * ListMultipartUploads output.
 *
 * @param uploads in-progress uploads, keys in UTF-8 order, each key's oldest first
 * @param commonPrefixes common prefixes, in order
 * @param truncated whether more follows
 * @param nextKeyMarker only when truncated: the last key (or common prefix) of the page
 * @param nextUploadIdMarker only when truncated and the page ended on an upload: its id
 */
public record ListUploadsResult(List<MultipartUpload> uploads, List<String> commonPrefixes,
    boolean truncated, String nextKeyMarker, String nextUploadIdMarker) {}
