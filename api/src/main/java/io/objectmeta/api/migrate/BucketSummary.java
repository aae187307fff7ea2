package io.objectmeta.api.migrate;

import io.objectmeta.api.Capability;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.error.NoSuchUploadException;
import io.objectmeta.api.listing.ListPartsRequest;
import io.objectmeta.api.listing.ListPartsResult;
import io.objectmeta.api.listing.ListUploadsRequest;
import io.objectmeta.api.listing.ListUploadsResult;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.VersioningState;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * One bucket of one store as a verification compares it: its settings, counts, usage counters,
 * and SHA-256 digests over the canonical stream of its versions (in listing order: key, version
 * id, null flag, delete marker, metadata as canonical JSON) and of its uploads with their parts.
 * Two stores holding the same bucket give equal summaries, whichever backends they are.
 *
 * @param name the bucket name
 * @param id the incarnation id
 * @param owner the owner
 * @param versioning the versioning state
 * @param created the creation time, in whole milliseconds
 * @param attributes the attributes as canonical JSON
 * @param keys keys with at least one version or delete marker
 * @param versions object versions (null versions included)
 * @param deleteMarkers delete markers
 * @param uploads in-progress multipart uploads
 * @param parts their part records
 * @param usage the store's usage counters of the bucket
 * @param versionsDigest hex SHA-256 of the versions
 * @param uploadsDigest hex SHA-256 of the uploads and parts
 */
public record BucketSummary(String name, String id, String owner, VersioningState versioning,
    Instant created, String attributes, long keys, long versions, long deleteMarkers, long uploads,
    long parts, Usage usage, String versionsDigest, String uploadsDigest) {

  /**
   * Reads the bucket's summary, page by page ({@code pageSize} entries per listing call): it
   * holds one page and one key's history at a time, however large the bucket.
   */
  public static BucketSummary of(MetadataStore store, Bucket bucket, int pageSize) {
    MigrationCounts counts = MigrationCounts.ZERO;
    MessageDigest vd = Canonical.sha256();
    KeyHistories histories = new KeyHistories(store, bucket.name(), null, pageSize);
    for (List<ObjectVersion> h = histories.next(); h != null; h = histories.next()) {
      counts = counts.plus(MigrationCounts.key(h));
      for (ObjectVersion v : h) {
        Canonical.update(vd, Canonical.version(v));
      }
    }
    long uploads = 0;
    long parts = 0;
    MessageDigest ud = Canonical.sha256();
    if (store.capabilities().contains(Capability.MULTIPART_UPLOADS)) {
      ListUploadsRequest r = ListUploadsRequest.of(bucket.name()).withMaxUploads(pageSize);
      while (r != null) {
        ListUploadsResult page = store.listMultipartUploads(r);
        for (MultipartUpload u : page.uploads()) {
          List<Part> ps = parts(store, bucket.name(), u, pageSize);
          if (ps != null) {
            uploads++;
            Canonical.update(ud, Canonical.upload(u));
            for (Part p : ps) {
              parts++;
              Canonical.update(ud, Canonical.part(p));
            }
          }
        }
        r = page.truncated()
            ? r.withKeyMarker(page.nextKeyMarker()).withUploadIdMarker(page.nextUploadIdMarker())
            : null;
      }
    }
    return new BucketSummary(bucket.name(), bucket.id(), bucket.owner(), bucket.versioning(),
        bucket.created().truncatedTo(ChronoUnit.MILLIS), Canonical.json(bucket.attributes()),
        counts.keys(), counts.versions(), counts.deleteMarkers(), uploads, parts, store.bucketUsage(bucket.name()),
        Canonical.hex(vd.digest()), Canonical.hex(ud.digest()));
  }

  /**
   * Every part of an upload, page by page (at most 10000); null if the upload is gone (completed
   * or aborted since it was listed).
   */
  static List<Part> parts(MetadataStore store, String bucket, MultipartUpload u, int pageSize) {
    List<Part> all = new java.util.ArrayList<>();
    ListPartsRequest r = ListPartsRequest.of(bucket, u.key(), u.uploadId()).withMaxParts(pageSize);
    try {
      while (true) {
        ListPartsResult page = store.listParts(r);
        all.addAll(page.parts());
        if (!page.truncated()) {
          return all;
        }
        r = r.withPartNumberMarker(page.nextPartNumberMarker());
      }
    } catch (NoSuchUploadException e) {
      return null;
    }
  }
}
