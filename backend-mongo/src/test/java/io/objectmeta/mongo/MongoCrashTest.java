package io.objectmeta.mongo;

import io.objectmeta.api.spi.StepHook;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.model.Filters;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.conformance.Recount;
import io.objectmeta.conformance.Sample;
import io.objectmeta.conformance.Walks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.bson.BsonDocument;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A process that dies between the steps of a multi-step write: the write is stopped after each of
 * its steps in turn (a step hook that throws), a second store on the same database (another
 * process) reads and lists, then drains the repair queue, and the state must be exactly the
 * completed write's: versions, the current object, the master (no placeholder left), the GC
 * queue (each removed version queued once, claimable only once the write is settled) and the
 * usage counters. Every layout and key format.
 */
class MongoCrashTest {

  static final class Crash extends RuntimeException {
    Crash(String step) {
      super("stopped after " + step);
    }
  }

  static Stream<Arguments> configs() {
    return Stream.of(Arguments.of("collection-per-bucket", "v1"), Arguments.of("collection-per-bucket", "v0"),
        Arguments.of("shared", "v1"), Arguments.of("shared", "v0"));
  }

  /** A scenario: a setup, the write to stop, and the check of the settled state. */
  private record Scenario(Consumer<MongoMetadataStore> setup, Consumer<MongoMetadataStore> write,
      Consumer<MongoMetadataStore> settled, List<String> allowedEtags) {}

  /** Runs the write once per step, stopped after that step; returns the steps it has. */
  private List<String> crashAfterEachStep(String layout, String format, Scenario s) {
    MongoFixture fixture = new MongoFixture(layout, format);
    List<String> steps = new ArrayList<>();
    {
      MongoMetadataStore store = fixture.openStore();
      try {
        s.setup().accept(store);
        store.setStepHook(steps::add);
        s.write().accept(store);
        store.setStepHook(null);
        s.settled().accept(store);
      } finally {
        fixture.close(store);
      }
    }
    assertThat(steps).as("a multi-step write").hasSizeGreaterThan(2).startsWith("commit");
    for (int stop = 1; stop <= steps.size(); stop++) {
      MongoMetadataStore crashed = fixture.openStore();
      MongoMetadataStore next = null;
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
        next = new MongoMetadataStore(MongoFixture.client(), false, crashed.config());
        String where = "stopped after step " + stop + " (" + steps.get(stop - 1) + ") of " + steps;
        // before any repair, reads answer the state before or after the write, never garbage
        try {
          ObjectVersion got = next.getObject("bkt", "k");
          assertThat(got.metadata().etag()).as(where).isIn(s.allowedEtags());
        } catch (io.objectmeta.api.error.NoSuchKeyException e) {
          assertThat(s.allowedEtags()).as(where + ": not found is allowed").contains((String) null);
        }
        for (ObjectVersion v : Walks.allCurrent(next, "bkt")) {
          assertThat(v.metadata().etag()).as(where).isIn(s.allowedEtags());
        }
        GarbageClaim early = next.claimGarbage(100, Duration.ZERO, Duration.ofMinutes(1));
        next.releaseGarbage(early.claimId(), early.records().stream().map(GarbageRecord::id).toList());
        // the repair queue drained: the write completes
        next.repair(Duration.ZERO);
        assertThat(next.repair(Duration.ZERO)).as(where + ": nothing left to repair").isZero();
        s.settled().accept(next);
        assertNoPlaceholderOrIntent(next, where);
      } finally {
        if (next != null) {
          next.close();
        }
        fixture.close(crashed);
      }
    }
    return steps;
  }

  private static void assertNoPlaceholderOrIntent(MongoMetadataStore store, String where) {
    for (String c : store.database().listCollectionNames()) {
      for (BsonDocument d : store.database().getCollection(c, BsonDocument.class)
          .find(Filters.or(Filters.exists("phd"), Filters.exists("i"), Filters.exists("h")))) {
        throw new AssertionError(where + ": left behind in " + c + ": " + d.toJson());
      }
    }
  }

  private static void assertSettled(MongoMetadataStore s, String currentEtag, List<String> versionEtags,
      List<String> queuedEtags) {
    if (currentEtag == null) {
      assertThatThrownBy(() -> s.getObject("bkt", "k"))
          .isInstanceOf(io.objectmeta.api.error.NoSuchKeyException.class);
    } else {
      assertThat(s.getObject("bkt", "k").metadata().etag()).isEqualTo(currentEtag);
    }
    List<ObjectVersion> vs = Walks.allVersions(s, "bkt");
    assertThat(vs).extracting(v -> v.deleteMarker() ? "marker" : v.metadata().etag())
        .containsExactlyElementsOf(versionEtags);
    assertThat(Walks.allCurrent(s, "bkt")).extracting(v -> v.metadata().etag())
        .containsExactlyElementsOf(currentEtag == null ? List.of() : List.of(currentEtag));
    assertThat(Recount.withoutUploads(s.bucketUsage("bkt"))).isEqualTo(Recount.versions(s, "bkt"));
    GarbageClaim c = s.claimGarbage(100, Duration.ZERO, Duration.ofMinutes(1));
    List<String> queued = new ArrayList<>();
    for (GarbageRecord r : c.records()) {
      queued.add(r.dataLocations().get(0).key());
    }
    assertThat(queued).containsExactlyInAnyOrderElementsOf(
        queuedEtags.stream().map(n -> "data/" + n).toList());
    assertThat(s.acknowledgeGarbage(c.claimId(), c.records().stream().map(GarbageRecord::id).toList()))
        .isEqualTo(queuedEtags.size());
  }

  private static void bucket(MongoMetadataStore s, VersioningState state) {
    s.createBucket("bkt", "owner", null);
    if (state != VersioningState.UNVERSIONED) {
      s.updateBucket("bkt", new BucketUpdate(state, null, null));
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("configs")
  void aVersionedPutStoppedAfterAnyStepConverges(String layout, String format) {
    List<String> steps = crashAfterEachStep(layout, format, new Scenario(
        s -> {
          bucket(s, VersioningState.ENABLED);
          s.putObject("bkt", "k", Sample.object("one"));
        },
        s -> s.putObject("bkt", "k", Sample.object("two")),
        s -> assertSettled(s, etag("two"), List.of(etag("two"), etag("one")), List.of()),
        List.of(etag("one"), etag("two"))));
    assertThat(steps).contains("put version", "put master", "clear");
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("configs")
  void aDeleteOfTheLatestVersionStoppedAfterAnyStepConverges(String layout, String format) {
    String[] latest = new String[1];
    List<String> steps = crashAfterEachStep(layout, format, new Scenario(
        s -> {
          bucket(s, VersioningState.ENABLED);
          s.putObject("bkt", "k", Sample.object("one"));
          latest[0] = s.putObject("bkt", "k", Sample.object("two")).versionId();
        },
        s -> s.deleteObjectVersion("bkt", "k", latest[0]),
        s -> assertSettled(s, etag("one"), List.of(etag("one")), List.of("two")),
        List.of(etag("one"), etag("two"))));
    assertThat(steps).as("the PHD protocol").containsSubsequence("placeholder", "mark deleted",
        "repair master", "delete", "gc records", "clear", "release gc records");
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("configs")
  void aDeleteOfTheLatestVersionOverADeleteMarkerConverges(String layout, String format) {
    String[] latest = new String[1];
    crashAfterEachStep(layout, format, new Scenario(
        s -> {
          bucket(s, VersioningState.ENABLED);
          s.putObject("bkt", "k", Sample.object("one"));
          s.deleteObject("bkt", "k");
          latest[0] = s.putObject("bkt", "k", Sample.object("two")).versionId();
        },
        s -> s.deleteObjectVersion("bkt", "k", latest[0]),
        s -> assertSettled(s, null, List.of("marker", etag("one")), List.of("two")),
        java.util.Arrays.asList(null, etag("two"))));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("configs")
  void anUnversionedOverwriteStoppedAfterAnyStepQueuesTheOldVersionOnce(String layout, String format) {
    crashAfterEachStep(layout, format, new Scenario(
        s -> {
          bucket(s, VersioningState.UNVERSIONED);
          s.putObject("bkt", "k", Sample.object("one"));
        },
        s -> s.putObject("bkt", "k", Sample.object("two")),
        s -> assertSettled(s, etag("two"), List.of(etag("two")), List.of("one")),
        List.of(etag("one"), etag("two"))));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("configs")
  void aSuspendedPutReplacingTheNullVersionConverges(String layout, String format) {
    crashAfterEachStep(layout, format, new Scenario(
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

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("configs")
  void aMultipartCompletionStoppedAfterAnyStepConverges(String layout, String format) {
    String[] upload = new String[1];
    crashAfterEachStep(layout, format, new Scenario(
        s -> {
          bucket(s, VersioningState.ENABLED);
          upload[0] = s.initiateMultipartUpload("bkt", "k", Sample.object("mp")).uploadId();
          s.putPart("bkt", "k", upload[0], Sample.part(1, "p1", 5));
          s.putPart("bkt", "k", upload[0], Sample.part(2, "p2", 5));
        },
        s -> s.completeMultipartUpload("bkt", "k", upload[0],
            List.of(new io.objectmeta.api.model.CompletedPart(1, Sample.md5Hex("p1")))),
        s -> {
          assertThat(s.getObject("bkt", "k").size()).isEqualTo(5);
          assertThat(s.bucketUsage("bkt").uploads()).isZero();
          assertThat(s.bucketUsage("bkt").partBytes()).isZero();
          GarbageClaim c = s.claimGarbage(100, Duration.ZERO, Duration.ofMinutes(1));
          assertThat(c.records()).extracting(GarbageRecord::partNumber).containsExactly(2);
          s.acknowledgeGarbage(c.claimId(), c.records().stream().map(GarbageRecord::id).toList());
        },
        java.util.Arrays.asList(null, Sample.multipartEtag(List.of(Sample.md5Hex("p1"))))));
  }

  private static String etag(String name) {
    return Sample.object(name).etag();
  }
}
