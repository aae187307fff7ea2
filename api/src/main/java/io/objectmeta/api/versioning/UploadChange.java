package io.objectmeta.api.versioning;

import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.model.Usage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The outcome of a write to a multipart upload, computed by {@link MultipartRules} as
 * {@link KeyWrites} computes a {@link KeyChange}: how the bucket's usage changes and which parts'
 * data becomes garbage (queued in the same atomic step as the write).
 *
 * @param usageDelta the change of the bucket's usage
 * @param freed the parts whose data is garbage
 */
public record UploadChange(Usage usageDelta, List<Part> freed) {

  public UploadChange {
    freed = List.copyOf(freed);
  }

  /**
   * The GC records of the freed parts, at {@code at}, with ids {@code idPrefix + i} (i from 0
   * up); a backend that orders its queue otherwise gives them its own ids.
   */
  public List<GarbageRecord> garbage(Bucket bucket, MultipartUpload upload, Instant at,
      String idPrefix) {
    List<GarbageRecord> out = new ArrayList<>(freed.size());
    for (Part p : freed) {
      out.add(GarbageRecord.ofPart(idPrefix + out.size(), bucket, upload, p, at));
    }
    return out;
  }
}
