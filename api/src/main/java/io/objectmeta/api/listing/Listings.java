package io.objectmeta.api.listing;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.NonCurrentVersion;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.validation.Validation;
import io.objectmeta.api.version.VersionId;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The S3 listing outputs over the {@link ListingEngine}: each function validates its request's
 * listing parameters, runs one page, and renders S3's markers. Backends hand in their scans.
 */
public final class Listings {
  private Listings() {}

  /** ListObjects (V1) over a scan of current objects. */
  public static ListObjectsResult v1(Cursor<ObjectVersion> current, ListObjectsRequest r) {
    String prefix = prefix(r.prefix());
    String delimiter = delimiter(r.delimiter());
    Page<ObjectVersion> page = ListingEngine.list(current, ObjectVersion::key, prefix, delimiter,
        r.marker(), e -> true, r.maxKeys());
    String next = page.truncated() && delimiter != null ? lastKey(page, ObjectVersion::key) : null;
    return new ListObjectsResult(page.entries(), page.commonPrefixes(), page.truncated(), next);
  }

  /**
   * ListObjectsV2 over a scan of current objects of the bucket incarnation {@code bucketId}, whose
   * continuation tokens {@code tokens} makes and checks.
   */
  public static ListObjectsV2Result v2(Cursor<ObjectVersion> current, ListObjectsV2Request r,
      ContinuationToken tokens, String bucketId) {
    String prefix = prefix(r.prefix());
    String delimiter = delimiter(r.delimiter());
    ContinuationToken.Scope scope = ContinuationToken.Scope.of(bucketId, r);
    String after = r.continuationToken() != null
        ? tokens.decode(scope, r.continuationToken()) : r.startAfter();
    Page<ObjectVersion> page = ListingEngine.list(current, ObjectVersion::key, prefix, delimiter,
        after, e -> true, r.maxKeys());
    String next = page.truncated()
        ? tokens.encode(scope, lastKey(page, ObjectVersion::key)) : null;
    return new ListObjectsV2Result(page.entries(), page.commonPrefixes(), page.truncated(), next,
        page.entries().size() + page.commonPrefixes().size());
  }

  /** ListObjectVersions over a version scan. */
  public static ListVersionsResult versions(Cursor<ObjectVersion> versions, ListVersionsRequest r) {
    Page<ObjectVersion> page = ListingEngine.list(Cursors.withLatestFlags(versions),
        ObjectVersion::key, prefix(r.prefix()), delimiter(r.delimiter()), r.keyMarker(),
        versionMarker(r.keyMarker(), r.versionIdMarker(), ObjectVersion::nullVersion,
            ObjectVersion::revision),
        r.maxKeys());
    return new ListVersionsResult(page.entries(), page.commonPrefixes(), page.truncated(),
        page.truncated() ? lastKey(page, ObjectVersion::key) : null,
        page.truncated() && page.lastEntry() != null ? page.lastEntry().versionId() : null);
  }

  /** ListMultipartUploads over an upload scan. */
  public static ListUploadsResult uploads(Cursor<MultipartUpload> uploads, ListUploadsRequest r) {
    String marker = r.uploadIdMarker();
    if (marker != null) {
      requireKeyMarker(r.keyMarker(), "uploadIdMarker");
      Validation.uploadId(marker);
    }
    Predicate<MultipartUpload> skip = marker == null ? u -> true
        : u -> u.uploadId().compareTo(marker) <= 0;
    Page<MultipartUpload> page = ListingEngine.list(uploads, MultipartUpload::key,
        prefix(r.prefix()), delimiter(r.delimiter()), r.keyMarker(), skip, r.maxUploads());
    return new ListUploadsResult(page.entries(), page.commonPrefixes(), page.truncated(),
        page.truncated() ? lastKey(page, MultipartUpload::key) : null,
        page.truncated() && page.lastEntry() != null ? page.lastEntry().uploadId() : null);
  }

  /** Lifecycle: current objects last modified before {@code r.before()}. */
  public static LifecyclePage<ObjectVersion> currentOlderThan(Cursor<ObjectVersion> current,
      LifecycleRequest r) {
    noVersionMarker(r);
    Cursor<ObjectVersion> old = r.before() == null ? current
        : Cursors.filter(current, v -> v.lastModified().isBefore(r.before()));
    Page<ObjectVersion> page = ListingEngine.list(old, ObjectVersion::key, prefix(r.prefix()), null,
        r.keyMarker(), e -> true, r.maxKeys());
    return new LifecyclePage<>(page.entries(), page.truncated(),
        page.truncated() ? page.lastEntry().key() : null, null);
  }

  /** Lifecycle: non-current versions with the time they became non-current. */
  public static LifecyclePage<NonCurrentVersion> nonCurrent(Cursor<ObjectVersion> versions,
      LifecycleRequest r) {
    Page<NonCurrentVersion> page = ListingEngine.list(Cursors.nonCurrent(versions, r.before()),
        n -> n.version().key(), prefix(r.prefix()), null, r.keyMarker(),
        versionMarker(r.keyMarker(), r.versionIdMarker(), n -> n.version().nullVersion(),
            n -> n.version().revision()),
        r.maxKeys());
    NonCurrentVersion last = page.lastEntry();
    return new LifecyclePage<>(page.entries(), page.truncated(),
        page.truncated() ? last.version().key() : null,
        page.truncated() ? last.version().versionId() : null);
  }

  /** Lifecycle: delete markers that are the only version of their key. */
  public static LifecyclePage<ObjectVersion> orphanDeleteMarkers(Cursor<ObjectVersion> versions,
      LifecycleRequest r) {
    noVersionMarker(r);
    Page<ObjectVersion> page = ListingEngine.list(Cursors.orphanDeleteMarkers(versions, r.before()),
        ObjectVersion::key, prefix(r.prefix()), null, r.keyMarker(), e -> true, r.maxKeys());
    return new LifecyclePage<>(page.entries(), page.truncated(),
        page.truncated() ? page.lastEntry().key() : null, null);
  }

  /** The prefix as the engine takes it: "" for none. */
  public static String prefix(String prefix) {
    return prefix == null ? "" : prefix;
  }

  /** The delimiter as the engine takes it: null for none (S3 treats "" as none). */
  public static String delimiter(String delimiter) {
    return delimiter == null || delimiter.isEmpty() ? null : delimiter;
  }

  private static <E> String lastKey(Page<E> page, Function<E, String> keyOf) {
    return page.lastPrefix() != null ? page.lastPrefix() : keyOf.apply(page.lastEntry());
  }

  /**
   * Skips the marker key's versions up to and including the version-id marker. A "null" marker
   * is found by scanning (the null version's place is its revision, which the client never saw);
   * if the key has no null version then, all its versions are skipped.
   */
  private static <E> Predicate<E> versionMarker(String keyMarker, String versionIdMarker,
      Predicate<E> isNull, Function<E, VersionId> revision) {
    if (versionIdMarker == null) {
      return e -> true;
    }
    requireKeyMarker(keyMarker, "versionIdMarker");
    if (VersionId.NULL.equals(versionIdMarker)) {
      return new Predicate<>() {
        private boolean passed;

        @Override
        public boolean test(E e) {
          if (passed) {
            return false;
          }
          passed = isNull.test(e);
          return true;
        }
      };
    }
    VersionId marker = VersionId.decode(versionIdMarker, "versionIdMarker");
    return e -> revision.apply(e).compareTo(marker) <= 0;
  }

  private static void requireKeyMarker(String keyMarker, String field) {
    if (keyMarker == null) {
      throw new InvalidArgumentException(field, "requires a key marker");
    }
  }

  private static void noVersionMarker(LifecycleRequest r) {
    if (r.versionIdMarker() != null) {
      throw new InvalidArgumentException("versionIdMarker", "only the non-current versions listing takes one");
    }
  }
}
