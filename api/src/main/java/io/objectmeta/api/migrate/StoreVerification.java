package io.objectmeta.api.migrate;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.listing.BucketPage;
import io.objectmeta.api.listing.KeyOrder;
import io.objectmeta.api.listing.ListBucketsRequest;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.ObjectVersion;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Compares two stores without changing either: per source bucket its settings, counts, usage
 * and digests ({@link BucketSummary}) against the target's, and the two GC queues
 * ({@link GarbageSummary}). Where a bucket's versions differ, both version listings are walked
 * side by side to name the first differing keys or versions. Both stores are read a page at a
 * time; the report holds one summary per bucket. Compare quiescent stores: a write during the
 * comparison shows as a difference.
 */
public final class StoreVerification {
  private StoreVerification() {}

  /** How many differing keys or versions are named per bucket. */
  public static final int MAX_DIFFERENCES = 10;

  /** Compares with listing pages of 1000. */
  public static VerificationReport compare(MetadataStore source, MetadataStore target) {
    return compare(source, target, 1000, bucket -> {});
  }

  /**
   * Compares the stores.
   *
   * @param pageSize entries per listing call, 1 to 1000
   * @param onBucket called with each source bucket's name before it is compared
   */
  public static VerificationReport compare(MetadataStore source, MetadataStore target,
      int pageSize, Consumer<String> onBucket) {
    List<BucketComparison> buckets = new ArrayList<>();
    List<Mismatch> mismatches = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (String marker = null; ; ) {
      BucketPage page = source.listBuckets(ListBucketsRequest.all().withMarker(marker)
          .withMaxBuckets(pageSize));
      for (Bucket b : page.buckets()) {
        onBucket.accept(b.name());
        names.add(b.name());
        BucketSummary s = BucketSummary.of(source, b, pageSize);
        Bucket other = find(target, b.name());
        BucketSummary t = other == null ? null : BucketSummary.of(target, other, pageSize);
        buckets.add(new BucketComparison(s, t));
        mismatches.addAll(differences(s, t));
        if (t != null && !s.versionsDigest().equals(t.versionsDigest())) {
          mismatches.addAll(differentVersions(source, target, b.name(), pageSize));
        }
      }
      if (!page.truncated()) {
        break;
      }
      marker = page.nextMarker();
    }
    List<String> onlyInTarget = new ArrayList<>();
    for (String marker = null; ; ) {
      BucketPage page = target.listBuckets(ListBucketsRequest.all().withMarker(marker)
          .withMaxBuckets(pageSize));
      page.buckets().stream().map(Bucket::name).filter(n -> !names.contains(n))
          .forEach(onlyInTarget::add);
      if (!page.truncated()) {
        break;
      }
      marker = page.nextMarker();
    }
    GarbageSummary sg = GarbageSummary.of(source, pageSize);
    GarbageSummary tg = GarbageSummary.of(target, pageSize);
    differ(mismatches, null, "GC records", sg.records(), tg.records());
    differ(mismatches, null, "GC bytes", sg.bytes(), tg.bytes());
    differ(mismatches, null, "GC digest", sg.digest(), tg.digest());
    return new VerificationReport(buckets, onlyInTarget, sg, tg, mismatches);
  }

  private static Bucket find(MetadataStore store, String name) {
    try {
      return store.getBucket(name);
    } catch (NoSuchBucketException e) {
      return null;
    }
  }

  /** What differs between two summaries of one bucket, field by field. */
  static List<Mismatch> differences(BucketSummary s, BucketSummary t) {
    List<Mismatch> out = new ArrayList<>();
    String b = s.name();
    if (t == null) {
      out.add(new Mismatch(b, "bucket", "id " + s.id(), null));
      return out;
    }
    differ(out, b, "id", s.id(), t.id());
    differ(out, b, "owner", s.owner(), t.owner());
    differ(out, b, "versioning", s.versioning(), t.versioning());
    differ(out, b, "created", s.created(), t.created());
    differ(out, b, "attributes", s.attributes(), t.attributes());
    differ(out, b, "keys", s.keys(), t.keys());
    differ(out, b, "versions", s.versions(), t.versions());
    differ(out, b, "delete markers", s.deleteMarkers(), t.deleteMarkers());
    differ(out, b, "uploads", s.uploads(), t.uploads());
    differ(out, b, "parts", s.parts(), t.parts());
    differ(out, b, "usage", s.usage(), t.usage());
    differ(out, b, "versions digest", s.versionsDigest(), t.versionsDigest());
    differ(out, b, "uploads digest", s.uploadsDigest(), t.uploadsDigest());
    return out;
  }

  private static void differ(List<Mismatch> out, String bucket, String what, Object s, Object t) {
    if (!Objects.equals(s, t)) {
      out.add(new Mismatch(bucket, what, String.valueOf(s), String.valueOf(t)));
    }
  }

  /**
   * The first keys or versions that differ, walking both listings side by side in key order
   * (one page and one key's history per side in memory).
   */
  static List<Mismatch> differentVersions(MetadataStore source, MetadataStore target,
      String bucket, int pageSize) {
    List<Mismatch> out = new ArrayList<>();
    KeyHistories a = new KeyHistories(source, bucket, null, pageSize);
    KeyHistories b = new KeyHistories(target, bucket, null, pageSize);
    List<ObjectVersion> x = a.next();
    List<ObjectVersion> y = b.next();
    while ((x != null || y != null) && out.size() < MAX_DIFFERENCES) {
      int c = x == null ? 1 : y == null ? -1 : KeyOrder.compare(x.get(0).key(), y.get(0).key());
      if (c < 0) {
        out.add(new Mismatch(bucket, "key " + quote(x.get(0).key()), x.size() + " version(s)", null));
        x = a.next();
      } else if (c > 0) {
        out.add(new Mismatch(bucket, "key " + quote(y.get(0).key()), null, y.size() + " version(s)"));
        y = b.next();
      } else {
        differentVersions(bucket, x, y, out);
        x = a.next();
        y = b.next();
      }
    }
    return out.size() > MAX_DIFFERENCES ? out.subList(0, MAX_DIFFERENCES) : out;
  }

  /** The versions of one key that differ (both lists newest first by revision). */
  private static void differentVersions(String bucket, List<ObjectVersion> x, List<ObjectVersion> y,
      List<Mismatch> out) {
    int i = 0;
    int j = 0;
    while (i < x.size() || j < y.size()) {
      int c = i == x.size() ? 1 : j == y.size() ? -1
          : x.get(i).revision().compareTo(y.get(j).revision());
      if (c < 0) {
        out.add(new Mismatch(bucket, describe(x.get(i)), Canonical.version(x.get(i)).toString(), null));
        i++;
      } else if (c > 0) {
        out.add(new Mismatch(bucket, describe(y.get(j)), null, Canonical.version(y.get(j)).toString()));
        j++;
      } else {
        List<String> s = Canonical.version(x.get(i));
        List<String> t = Canonical.version(y.get(j));
        String[] fields = {"key", "version id", "null version", "delete marker", "metadata"};
        for (int f = 0; f < s.size(); f++) {
          differ(out, bucket, describe(x.get(i)) + ": " + fields[f], s.get(f), t.get(f));
        }
        i++;
        j++;
      }
    }
  }

  private static String describe(ObjectVersion v) {
    return "version " + quote(v.key()) + " " + v.revision().encode()
        + (v.nullVersion() ? " (null version)" : "");
  }

  /** A key in quotes, control characters escaped (keys may hold NUL). */
  static String quote(String key) {
    StringBuilder sb = new StringBuilder("\"");
    key.codePoints().forEach(cp -> {
      if (cp < 0x20 || cp == 0x7f || cp == '"' || cp == '\\') {
        sb.append(String.format("\\u%04x", cp));
      } else {
        sb.appendCodePoint(cp);
      }
    });
    return sb.append('"').toString();
  }
}
