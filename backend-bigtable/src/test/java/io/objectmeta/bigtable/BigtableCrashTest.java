package io.objectmeta.bigtable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.bigtable.data.v2.models.Filters;
import com.google.cloud.bigtable.data.v2.models.Query;
import com.google.cloud.bigtable.data.v2.models.Row;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.error.NoSuchKeyException;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.CompletedPart;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.conformance.Recount;
import io.objectmeta.conformance.Sample;
import io.objectmeta.conformance.Walks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A process that dies between the steps of a two-row change: the write is stopped after each of
 * its steps in turn (a step hook that throws), a second store on the same tables (another
 * process) reads and lists — each answer must be the state before or after the write — then
 * repairs, and the state must be exactly the completed write's: versions, the current object and
 * its master row, the GC queue (each removed version queued once, claimable only once the write
 * is settled), the usage counters, and no intent or held record left.
 */
class BigtableCrashTest {
  private static final BigtableFixture FIXTURE = new BigtableFixture();

  static final class Crash extends RuntimeException {
    Crash(String step) {
      super("stopped after " + step);
    }
  }

  private record Scenario(Consumer<BigtableMetadataStore> setup,
      Consumer<BigtableMetadataStore> write, Consumer<BigtableMetadataStore> settled,
      List<String> allowedEtags) {}

  /** Runs the write once per step, stopped after that step; returns the steps it has. */
  private List<String> crashAfterEachStep(Scenario s) {
    List<String> steps = new ArrayList<>();
    BigtableMetadataStore whole = FIXTURE.openStore();
    try {
      s.setup().accept(whole);
      whole.setStepHook(steps::add);
      s.write().accept(whole);
      whole.setStepHook(null);
      s.settled().accept(whole);
    } finally {
      FIXTURE.close(whole);
    }
    assertThat(steps).as("a multi-step write").hasSizeGreaterThan(2).startsWith("commit");
    for (int stop = 1; stop <= steps.size(); stop++) {
      BigtableMetadataStore crashed = FIXTURE.openStore();
      BigtableMetadataStore next = null;
      try {
        s.setup().accept(crashed);
        int[] n = {0};
        int at = stop;
        crashed.setStepHook(step -> {
          if (++n[0] == at) {
            throw new Crash(step);
          }
        });
        assertThatThrownBy(() -> s.write().accept(crashed)).isInstanceOf(Crash.class);
        crashed.close();
        next = new BigtableMetadataStore(BigtableFixture.clients().data(),
            BigtableFixture.clients().admin(), false, crashed.config());
        String where = "stopped after step " + stop + " (" + steps.get(stop - 1) + ") of " + steps;
        try {
          ObjectVersion got = next.getObject("bkt", "k");
          assertThat(got.metadata().etag()).as(where).isIn(s.allowedEtags());
        } catch (NoSuchKeyException e) {
          assertThat(s.allowedEtags()).as(where + ": not found is allowed").contains((String) null);
        }
        for (ObjectVersion v : Walks.allCurrent(next, "bkt")) {
          assertThat(v.metadata().etag()).as(where).isIn(s.allowedEtags());
        }
        GarbageClaim early = next.claimGarbage(100, Duration.ZERO, Duration.ofMinutes(1));
        if (!steps.subList(0, stop).contains("release")) {
          assertThat(early.records()).as(where + ": records of an unsettled write are held")
              .isEmpty();
        }
        next.releaseGarbage(early.claimId(), early.records().stream().map(GarbageRecord::id)
            .toList());
        next.repair(Duration.ZERO);
        assertThat(next.repair(Duration.ZERO)).as(where + ": nothing left to repair").isZero();
        s.settled().accept(next);
        assertNothingLeft(next, where);
      } finally {
        if (next != null) {
          next.close();
        }
        FIXTURE.close(crashed);
      }
    }
    return steps;
  }

  /** No intent in any row, no held GC record. */
  static void assertNothingLeft(BigtableMetadataStore store, String where) {
    List<String> tables = store.tables();
    for (Row r : BigtableFixture.clients().data().readRows(Query.create(tables.get(1))
        .filter(Filters.FILTERS.chain().filter(Filters.FILTERS.family().exactMatch("m"))
            .filter(Filters.FILTERS.qualifier().exactMatch("i")).filter(Bt.NOT_EMPTY)))) {
      throw new AssertionError(where + ": an intent left in " + r.getKey().toStringUtf8());
    }
    for (Row r : BigtableFixture.clients().data().readRows(Query.create(tables.get(2))
        .filter(Filters.FILTERS.chain().filter(Filters.FILTERS.family().exactMatch("m"))
            .filter(Filters.FILTERS.qualifier().exactMatch("h")).filter(Bt.NOT_EMPTY)))) {
      throw new AssertionError(where + ": a held GC record left: " + r.getKey().toStringUtf8());
    }
  }

  private static void assertSettled(BigtableMetadataStore s, String currentEtag,
      List<String> versionEtags, List<String> queuedEtags) {
    if (currentEtag == null) {
      assertThatThrownBy(() -> s.getObject("bkt", "k")).isInstanceOf(NoSuchKeyException.class);
    } else {
      assertThat(s.getObject("bkt", "k").metadata().etag()).isEqualTo(currentEtag);
    }
    assertThat(Walks.allVersions(s, "bkt")).extracting(v -> v.deleteMarker() ? "marker"
        : v.metadata().etag()).containsExactlyElementsOf(versionEtags);
    assertThat(Walks.allCurrent(s, "bkt")).as("the master rows").extracting(v -> v.metadata().etag())
        .containsExactlyElementsOf(currentEtag == null ? List.of() : List.of(currentEtag));
    assertThat(Recount.withoutUploads(s.bucketUsage("bkt"))).isEqualTo(Recount.versions(s, "bkt"));
    GarbageClaim c = s.claimGarbage(100, Duration.ZERO, Duration.ofMinutes(1));
    List<String> queued = new ArrayList<>();
    for (GarbageRecord r : c.records()) {
      queued.add(r.dataLocations().get(0).key());
    }
    assertThat(queued).containsExactlyInAnyOrderElementsOf(
        queuedEtags.stream().map(n -> "data/" + n).toList());
    assertThat(s.acknowledgeGarbage(c.claimId(), c.records().stream().map(GarbageRecord::id)
        .toList())).isEqualTo(queuedEtags.size());
  }

  private static void bucket(BigtableMetadataStore s, VersioningState state) {
    s.createBucket("bkt", "owner", null);
    if (state != VersioningState.UNVERSIONED) {
      s.updateBucket("bkt", new BucketUpdate(state, null, null));
    }
  }

  private static String etag(String name) {
    return Sample.object(name).etag();
  }

  @Test
  void aVersionedPutStoppedAfterAnyStepConverges() {
    List<String> steps = crashAfterEachStep(new Scenario(
        s -> {
          bucket(s, VersioningState.ENABLED);
          s.putObject("bkt", "k", Sample.object("one"));
        },
        s -> s.putObject("bkt", "k", Sample.object("two")),
        s -> assertSettled(s, etag("two"), List.of(etag("two"), etag("one")), List.of()),
        List.of(etag("one"), etag("two"))));
    assertThat(steps).containsExactly("commit", "usage", "master", "clear");
  }

  @Test
  void aDeleteOfTheLatestVersionStoppedAfterAnyStepConverges() {
    String[] latest = new String[1];
    List<String> steps = crashAfterEachStep(new Scenario(
        s -> {
          bucket(s, VersioningState.ENABLED);
          s.putObject("bkt", "k", Sample.object("one"));
          latest[0] = s.putObject("bkt", "k", Sample.object("two")).versionId();
        },
        s -> s.deleteObjectVersion("bkt", "k", latest[0]),
        s -> assertSettled(s, etag("one"), List.of(etag("one")), List.of("two")),
        List.of(etag("one"), etag("two"))));
    assertThat(steps).containsExactly("commit", "usage", "garbage", "master", "clear", "release");
  }

  @Test
  void aDeleteMarkerOnTopStoppedAfterAnyStepConverges() {
    crashAfterEachStep(new Scenario(
        s -> {
          bucket(s, VersioningState.ENABLED);
          s.putObject("bkt", "k", Sample.object("one"));
        },
        s -> s.deleteObject("bkt", "k"),
        s -> assertSettled(s, null, List.of("marker", etag("one")), List.of()),
        Arrays.asList(null, etag("one"))));
  }

  @Test
  void removingTheLastVersionDropsTheKeyRowAfterAnyStep() {
    String[] only = new String[1];
    crashAfterEachStep(new Scenario(
        s -> {
          bucket(s, VersioningState.ENABLED);
          only[0] = s.putObject("bkt", "k", Sample.object("one")).versionId();
        },
        s -> s.deleteObjectVersion("bkt", "k", only[0]),
        s -> {
          assertSettled(s, null, List.of(), List.of("one"));
          s.deleteBucket("bkt"); // no key row left behind
        },
        Arrays.asList(null, etag("one"))));
  }

  @Test
  void anUnversionedOverwriteStoppedAfterAnyStepQueuesTheOldVersionOnce() {
    crashAfterEachStep(new Scenario(
        s -> {
          bucket(s, VersioningState.UNVERSIONED);
          s.putObject("bkt", "k", Sample.object("one"));
        },
        s -> s.putObject("bkt", "k", Sample.object("two")),
        s -> assertSettled(s, etag("two"), List.of(etag("two")), List.of("one")),
        List.of(etag("one"), etag("two"))));
  }

  @Test
  void aSuspendedPutReplacingTheNullVersionConverges() {
    crashAfterEachStep(new Scenario(
        s -> {
          bucket(s, VersioningState.UNVERSIONED);
          s.putObject("bkt", "k", Sample.object("one"));
          s.updateBucket("bkt", new BucketUpdate(VersioningState.ENABLED, null, null));
          s.putObject("bkt", "k", Sample.object("two"));
          s.updateBucket("bkt", new BucketUpdate(VersioningState.SUSPENDED, null, null));
        },
        s -> s.putObject("bkt", "k", Sample.object("three")),
        s -> assertSettled(s, etag("three"), List.of(etag("three"), etag("two")), List.of("one")),
        List.of(etag("two"), etag("three"))));
  }

  @Test
  void aMultipartCompletionStoppedAfterAnyStepConverges() {
    String[] upload = new String[1];
    List<String> steps = crashAfterEachStep(new Scenario(
        s -> {
          bucket(s, VersioningState.ENABLED);
          upload[0] = s.initiateMultipartUpload("bkt", "k", Sample.object("mp")).uploadId();
          s.putPart("bkt", "k", upload[0], Sample.part(1, "p1", 5));
          s.putPart("bkt", "k", upload[0], Sample.part(2, "p2", 5));
        },
        s -> s.completeMultipartUpload("bkt", "k", upload[0],
            List.of(new CompletedPart(1, Sample.md5Hex("p1")))),
        s -> {
          assertThat(s.getObject("bkt", "k").size()).isEqualTo(5);
          assertThat(s.bucketUsage("bkt").uploads()).isZero();
          assertThat(s.bucketUsage("bkt").partBytes()).isZero();
          assertThat(Walks.allCurrent(s, "bkt")).hasSize(1);
          GarbageClaim c = s.claimGarbage(100, Duration.ZERO, Duration.ofMinutes(1));
          assertThat(c.records()).extracting(GarbageRecord::partNumber).containsExactly(2);
          s.acknowledgeGarbage(c.claimId(), c.records().stream().map(GarbageRecord::id).toList());
        },
        Arrays.asList(null, Sample.multipartEtag(List.of(Sample.md5Hex("p1"))))));
    assertThat(steps).contains("deletes");
  }

  @Test
  void anAbortStoppedAfterAnyStepConverges() {
    String[] upload = new String[1];
    crashAfterEachStep(new Scenario(
        s -> {
          bucket(s, VersioningState.ENABLED);
          upload[0] = s.initiateMultipartUpload("bkt", "k", Sample.object("mp")).uploadId();
          s.putPart("bkt", "k", upload[0], Sample.part(1, "p1", 5));
        },
        s -> s.abortMultipartUpload("bkt", "k", upload[0]),
        s -> {
          assertThat(s.bucketUsage("bkt").uploads()).isZero();
          assertThat(s.bucketUsage("bkt").partBytes()).isZero();
          assertThat(s.listMultipartUploads(io.objectmeta.api.listing.ListUploadsRequest.of("bkt"))
              .uploads()).isEmpty();
          GarbageClaim c = s.claimGarbage(100, Duration.ZERO, Duration.ofMinutes(1));
          assertThat(c.records()).extracting(GarbageRecord::partNumber).containsExactly(1);
          s.acknowledgeGarbage(c.claimId(), c.records().stream().map(GarbageRecord::id).toList());
        },
        Arrays.asList((String) null)));
  }

  /**
   * A bucket delete is ordered (close the counters, queue its records held, remove the bucket
   * row, release): stopped before the bucket row goes, the repair rolls it back (the bucket is
   * there and takes writes, nothing of it is queued); after, it rolls it forward (the bucket is
   * gone, its record queued once).
   */
  @Test
  void aBucketDeleteStoppedAfterAnyStepEndsDeletedOrUntouched() {
    List<String> steps = new ArrayList<>();
    BigtableMetadataStore whole = FIXTURE.openStore();
    try {
      whole.createBucket("bkt", "owner", null);
      whole.setStepHook(steps::add);
      whole.deleteBucket("bkt");
    } finally {
      FIXTURE.close(whole);
    }
    assertThat(steps).containsExactly("close", "garbage", "bucket", "release");
    for (int stop = 1; stop <= steps.size(); stop++) {
      BigtableMetadataStore crashed = FIXTURE.openStore();
      BigtableMetadataStore next = null;
      try {
        crashed.createBucket("bkt", "owner", null);
        int[] n = {0};
        int at = stop;
        crashed.setStepHook(step -> {
          if (++n[0] == at) {
            throw new Crash(step);
          }
        });
        assertThatThrownBy(() -> crashed.deleteBucket("bkt")).isInstanceOf(Crash.class);
        crashed.close();
        next = new BigtableMetadataStore(BigtableFixture.clients().data(),
            BigtableFixture.clients().admin(), false, crashed.config());
        String where = "stopped after step " + stop + " (" + steps.get(stop - 1) + ")";
        next.repair(Duration.ZERO);
        GarbageClaim c = next.claimGarbage(100, Duration.ZERO, Duration.ofMinutes(1));
        if (stop < 3) {
          assertThat(c.records()).as(where).isEmpty();
          next.putObject("bkt", "k", Sample.object("after"));
          assertThat(next.getObject("bkt", "k").metadata().etag()).as(where)
              .isEqualTo(etag("after"));
        } else {
          BigtableMetadataStore gone = next;
          assertThatThrownBy(() -> gone.getBucket("bkt")).as(where)
              .isInstanceOf(NoSuchBucketException.class);
          assertThat(c.records()).as(where).extracting(GarbageRecord::kind)
              .containsExactly(GarbageRecord.Kind.BUCKET);
        }
        assertNothingLeft(next, where);
      } finally {
        if (next != null) {
          next.close();
        }
        FIXTURE.close(crashed);
      }
    }
  }
}
