package io.objectmeta.mongo;

import io.objectmeta.api.spi.StepHook;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.model.Filters;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.listing.ListObjectsV2Request;
import io.objectmeta.api.listing.ListObjectsV2Result;
import io.objectmeta.api.listing.ListUploadsRequest;
import io.objectmeta.api.listing.ListVersionsRequest;
import io.objectmeta.api.listing.ListVersionsResult;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.conformance.Sample;
import io.objectmeta.conformance.Walks;
import io.objectmeta.memory.MemoryMetadataStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.bson.BsonDocument;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The online v0 → v1 key format migration: every listing is the same before, during (after each
 * step of the first moves, and after every move) and after it; writes made while it runs land;
 * a migration stopped in the middle resumes; afterwards no v0 document is left.
 */
class MongoKeyFormatMigrationTest {
  static final String B = "legacy";
  static final List<String> KEYS = List.of("a", "a/b", "a/b/c", "a\0z", "a\u007f", "\u007fMfake",
      "photos/2024/01.jpg", "photos/2024/02.jpg", "photos/2025/x.jpg", "\uE000", "\uD83D\uDE00",
      "z", "zz/1", "zz/2", "~", "deleted/1", "deleted/2", "nul\0\0", "esc\uD7FFx");

  /** Writes a history with every kind of entry: versions, markers, null versions, uploads. */
  static void fill(MetadataStore s) {
    s.createBucket(B, "owner", null);
    Random rnd = new Random(7);
    for (String k : KEYS) {
      s.putObject(B, k, Sample.object("unversioned " + k, 1 + rnd.nextInt(100)));
    }
    s.updateBucket(B, new BucketUpdate(VersioningState.ENABLED, null, null));
    for (int i = 0; i < 60; i++) {
      String k = KEYS.get(rnd.nextInt(KEYS.size()));
      if (rnd.nextInt(4) == 0) {
        s.deleteObject(B, k);
      } else {
        s.putObject(B, k, Sample.object("v" + i + " " + k, 1 + rnd.nextInt(100)));
      }
    }
    s.deleteObject(B, "deleted/1");
    s.deleteObject(B, "deleted/2");
    s.updateBucket(B, new BucketUpdate(VersioningState.SUSPENDED, null, null));
    s.putObject(B, "a/b", Sample.object("suspended a/b"));
    s.deleteObject(B, "z");
    String u = s.initiateMultipartUpload(B, "photos/big", Sample.object("big")).uploadId();
    s.putPart(B, "photos/big", u, Sample.part(1, "big-1", 5));
  }

  /** Everything a client can list or read of the bucket, paged small to cross many markers. */
  static List<Object> snapshot(MetadataStore s) {
    List<Object> out = new ArrayList<>();
    out.add(Walks.allVersions(s, B));
    out.add(Walks.allCurrent(s, B));
    for (String prefix : java.util.Arrays.asList(null, "a", "photos/", "zz/")) {
      ListObjectsV2Request r = new ListObjectsV2Request(B, prefix, "/", null, null, 2, null);
      while (true) {
        ListObjectsV2Result page = s.listObjectsV2(r);
        out.add(page.contents());
        out.add(page.commonPrefixes());
        if (!page.truncated()) {
          break;
        }
        r = new ListObjectsV2Request(B, prefix, "/", null, page.nextContinuationToken(), 2, null);
      }
      ListVersionsRequest v = new ListVersionsRequest(B, prefix, "/", null, null, 3);
      while (true) {
        ListVersionsResult page = s.listObjectVersions(v);
        out.add(page.versions());
        out.add(page.commonPrefixes());
        if (!page.truncated()) {
          break;
        }
        v = new ListVersionsRequest(B, prefix, "/", page.nextKeyMarker(), page.nextVersionIdMarker(), 3);
      }
    }
    out.add(s.listMultipartUploads(ListUploadsRequest.of(B)).uploads());
    out.add(s.bucketUsage(B));
    for (String k : KEYS) {
      try {
        out.add(s.getObject(B, k));
      } catch (io.objectmeta.api.error.NoSuchKeyException e) {
        out.add("no " + k + " " + e.getMessage());
      }
    }
    for (ObjectVersion v : Walks.allVersions(s, B)) {
      if (!v.deleteMarker()) {
        out.add(s.getObjectVersion(B, v.key(), v.versionId()).withLatest(v.latest()));
      }
    }
    return out;
  }

  /** Equal snapshots, or a failure that shows the first listing that differs. */
  static void assertSameListings(List<Object> actual, List<Object> expected, String what) {
    for (int i = 0; i < Math.min(actual.size(), expected.size()); i++) {
      if (actual.get(i) instanceof List<?> a && expected.get(i) instanceof List<?> e) {
        for (int j = 0; j < Math.min(a.size(), e.size()); j++) {
          assertThat(a.get(j)).as(what + ", part " + i + ", entry " + j).isEqualTo(e.get(j));
        }
        assertThat(a).as(what + ", part " + i).hasSameSizeAs(e);
      }
      assertThat(actual.get(i)).as(what + ", part " + i).isEqualTo(expected.get(i));
    }
    assertThat(actual).as(what).hasSameSizeAs(expected);
  }

  private static long v0Documents(MongoMetadataStore s) {
    long n = 0;
    for (String c : s.database().listCollectionNames()) {
      for (BsonDocument d : s.database().getCollection(c, BsonDocument.class)
          .find(Filters.in("t", "m", "v"))) {
        String id = d.getString("_id").getValue();
        String local = id.length() >= 36 && c.equals("objects") ? id.substring(36) : id;
        if (!local.startsWith("\u007fM") && !local.startsWith("\u007fV")) {
          n++;
        }
      }
    }
    return n;
  }

  @ParameterizedTest
  @ValueSource(strings = {"collection-per-bucket", "shared"})
  void everyListingIsTheSameBeforeDuringAndAfter(String layout) {
    MongoMetadataStore s = new MongoFixture(layout, "v0").openStore();
    try {
      fill(s);
      List<Object> before = snapshot(s);
      assertThat(v0Documents(s)).isPositive();
      int[] steps = {0};
      int[] checks = {0};
      s.setStepHook(step -> {
        steps[0]++;
        if (steps[0] < 25 || step.equals("clear")) {
          assertSameListings(snapshot(s), before, "listings after step " + steps[0] + " (" + step
              + ") of the migration");
          checks[0]++;
        }
      });
      KeyFormatMigration m = s.migrateKeyFormat(B);
      s.setStepHook(null);
      assertThat(m.keysMoved()).isEqualTo(KEYS.size());
      assertThat(m.versionsMoved()).isEqualTo(Walks.allVersions(s, B).size());
      assertThat(checks[0]).isGreaterThan(KEYS.size());
      assertThat(snapshot(s)).isEqualTo(before);
      assertThat(v0Documents(s)).as("v0 documents left").isZero();
      assertThat(s.migrateKeyFormat(B).keysMoved()).as("a second run").isZero();
      BsonDocument doc = s.database().getCollection(MongoMetadataStore.METASTORE, BsonDocument.class)
          .find(Filters.eq("_id", B)).first();
      assertThat(doc.getString("fmt").getValue()).isEqualTo("v1");
      assertThat(doc.getString("lf").getValue()).isEqualTo("v1");
    } finally {
      s.close();
      s.database().drop();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"collection-per-bucket", "shared"})
  void writesMadeWhileItRunsLand(String layout) {
    MongoMetadataStore s = new MongoFixture(layout, "v0").openStore();
    MemoryMetadataStore oracle = new MemoryMetadataStore();
    try {
      fill(s);
      fill(oracle);
      int[] moves = {0};
      boolean[] inside = {false};
      s.setStepHook(step -> {
        if (step.equals("clear") && !inside[0]) {
          inside[0] = true;
          int n = moves[0]++;
          // a moved key, a key not moved yet, a new key, a removal of a latest version
          for (MetadataStore t : List.of(s, oracle)) {
            t.putObject(B, KEYS.get(n % KEYS.size()), Sample.object("during " + n));
            t.putObject(B, KEYS.get((n + 7) % KEYS.size()), Sample.object("during+7 " + n));
            t.putObject(B, "new/" + n, Sample.object("new " + n));
            if (n % 3 == 0) {
              t.deleteObject(B, KEYS.get((n + 3) % KEYS.size()));
            }
          }
          inside[0] = false;
        }
      });
      s.migrateKeyFormat(B);
      s.setStepHook(null);
      assertThat(shape(s)).isEqualTo(shape(oracle));
      assertThat(s.bucketUsage(B)).isEqualTo(oracle.bucketUsage(B));
      assertThat(v0Documents(s)).isZero();
    } finally {
      s.close();
      s.database().drop();
    }
  }

  /** The listings without version ids (two stores mint different ones). */
  private static List<String> shape(MetadataStore s) {
    List<String> out = new ArrayList<>();
    for (ObjectVersion v : Walks.allVersions(s, B)) {
      out.add(v.key() + " " + (v.deleteMarker() ? "marker" : v.metadata().etag()) + " latest="
          + v.latest() + " null=" + v.nullVersion());
    }
    for (ObjectVersion v : Walks.allCurrent(s, B)) {
      out.add("current " + v.key() + " " + v.metadata().etag());
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"collection-per-bucket", "shared"})
  void aMigrationStoppedInTheMiddleResumes(String layout) {
    MongoMetadataStore s = new MongoFixture(layout, "v0").openStore();
    MongoMetadataStore next = null;
    try {
      fill(s);
      List<Object> before = snapshot(s);
      int[] steps = {0};
      s.setStepHook(step -> {
        if (++steps[0] == 40) {
          throw new IllegalStateException("the process dies");
        }
      });
      assertThatThrownBy(() -> s.migrateKeyFormat(B)).hasMessageContaining("dies");
      s.close();
      next = new MongoMetadataStore(MongoFixture.client(), false, s.config());
      assertSameListings(snapshot(next), before, "listings of the half-migrated bucket");
      next.repair(java.time.Duration.ZERO);
      KeyFormatMigration m = next.migrateKeyFormat(B);
      assertThat(m.keysMoved()).isBetween(1L, (long) KEYS.size() - 1);
      assertThat(snapshot(next)).isEqualTo(before);
      assertThat(v0Documents(next)).isZero();
    } finally {
      if (next != null) {
        next.close();
      }
      s.database().drop();
    }
  }
}
