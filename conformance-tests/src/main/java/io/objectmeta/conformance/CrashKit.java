package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.error.NoSuchKeyException;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.listing.ListUploadsRequest;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.CompletedPart;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.spi.StepHook;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import java.util.function.UnaryOperator;

/**
 * A process that dies between the steps of a multi-step write, for every backend whose writes
 * take more than one database operation: the write is stopped after each of its steps in turn (a
 * {@link StepHook} that throws), a second store on the same database (another process) reads and
 * lists — each answer must be the state before or after the write, and the write's GC records
 * stay unclaimable until it is settled — then repairs, and the state must be exactly the
 * completed write's: versions, the current object, the GC queue (each removed version queued
 * once), the usage counters, and nothing of the write's bookkeeping left behind.
 *
 * <p>A backend's test gives a {@link Subject} and runs {@link #scenarios()} through {@link
 * #crashAfterEachStep}, checking the steps each scenario returns against its own protocol.
 */
public final class CrashKit<S extends MetadataStore> {

  /**
   * What the kit needs of a backend.
   *
   * @param open a store on a namespace of its own (no bucket in it)
   * @param reopen a second process on the namespace of a store that is closed already
   * @param stepHook sets a store's step hook (null: none)
   * @param repairAll repairs every unfinished write of a store now; returns how many it repaired
   * @param assertNothingLeft fails when an intent, placeholder or held record of a write is left
   *     in the database (the second argument says where the write was stopped)
   * @param dispose closes a store and drops its namespace
   * @param releaseStep the step after which a write's GC records may be claimed, or null when the
   *     backend queues them only once the write is settled anyway
   */
  public record Subject<S extends MetadataStore>(Supplier<S> open, UnaryOperator<S> reopen,
      BiConsumer<S, StepHook> stepHook, ToIntFunction<S> repairAll,
      BiConsumer<S, String> assertNothingLeft, Consumer<S> dispose, String releaseStep) {}

  /** What the hook throws: the process died after the named step. */
  public static final class Crash extends RuntimeException {
    public Crash(String step) {
      super("stopped after " + step);
    }
  }

  /**
   * A scenario: the state before ({@code setup}), the write to stop, the check of the settled
   * state, and the etags a read may answer for key {@code k} of bucket {@code bkt} meanwhile
   * (null: not found).
   */
  public record Scenario(String name, Consumer<MetadataStore> setup, Consumer<MetadataStore> write,
      Consumer<MetadataStore> settled, List<String> allowedEtags) {
    @Override
    public String toString() {
      return name;
    }
  }

  private final Subject<S> subject;

  public CrashKit(Subject<S> subject) {
    this.subject = subject;
  }

  /** A hook that throws {@link Crash} on its {@code n}th step (1-based). */
  public static StepHook stopAt(int n) {
    int[] seen = {0};
    return step -> {
      if (++seen[0] == n) {
        throw new Crash(step);
      }
    };
  }

  /** The steps of {@code write} run whole on a fresh namespace after {@code setup}. */
  public List<String> steps(Consumer<? super S> setup, Consumer<? super S> write) {
    return steps(setup, write, s -> {});
  }

  /** As {@link #steps(Consumer, Consumer)}, then {@code settled} checks the outcome. */
  public List<String> steps(Consumer<? super S> setup, Consumer<? super S> write,
      Consumer<? super S> settled) {
    List<String> steps = new ArrayList<>();
    S whole = subject.open().get();
    try {
      setup.accept(whole);
      subject.stepHook().accept(whole, steps::add);
      write.accept(whole);
      subject.stepHook().accept(whole, null);
      settled.accept(whole);
    } finally {
      subject.dispose().accept(whole);
    }
    return steps;
  }

  /**
   * Runs {@code write} stopped after its {@code stop}th step on a fresh namespace, and gives the
   * second process to {@code then}, which may leave it open (it is disposed of here).
   */
  public void crashAt(int stop, Consumer<? super S> setup, Consumer<? super S> write,
      Consumer<? super S> then) {
    S crashed = subject.open().get();
    S next = null;
    try {
      setup.accept(crashed);
      subject.stepHook().accept(crashed, stopAt(stop));
      assertThatThrownBy(() -> write.accept(crashed)).isInstanceOf(Crash.class);
      crashed.close();
      next = subject.reopen().apply(crashed);
      then.accept(next);
    } finally {
      if (next != null) {
        next.close();
      }
      subject.dispose().accept(crashed);
    }
  }

  /** Runs the scenario's write once per step, stopped after that step; returns its steps. */
  public List<String> crashAfterEachStep(Scenario s) {
    List<String> steps = steps(s.setup()::accept, s.write()::accept, s.settled()::accept);
    assertThat(steps).as(s.name() + ": a multi-step write").isNotEmpty();
    for (int stop = 1; stop <= steps.size(); stop++) {
      String where = s.name() + ", stopped after step " + stop + " (" + steps.get(stop - 1)
          + ") of " + steps;
      List<String> done = steps.subList(0, stop);
      crashAt(stop, s.setup()::accept, s.write()::accept, next -> {
        // before any repair, reads answer the state before or after the write, never another
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
        String release = subject.releaseStep();
        if (release != null && !done.contains(release)) {
          assertThat(early.records()).as(where + ": records of an unsettled write are held")
              .isEmpty();
        }
        next.releaseGarbage(early.claimId(), ids(early));
        subject.repairAll().applyAsInt(next);
        assertThat(subject.repairAll().applyAsInt(next)).as(where + ": nothing left to repair")
            .isZero();
        s.settled().accept(next);
        subject.assertNothingLeft().accept(next, where);
      });
    }
    return steps;
  }

  // ------------------------------------------------------------------------------ scenarios

  /** The scenarios every backend's multi-step writes go through, new instances per call. */
  public static List<Scenario> scenarios() {
    String[] latest = new String[1];
    String[] upload = new String[1];
    return List.of(
        new Scenario("versioned put", key(VersioningState.ENABLED, latest, "one"),
            s -> s.putObject("bkt", "k", Sample.object("two")),
            s -> assertSettled(s, etag("two"), List.of(etag("two"), etag("one")), List.of()),
            List.of(etag("one"), etag("two"))),
        new Scenario("delete of the latest version",
            key(VersioningState.ENABLED, latest, "one", "two"),
            s -> s.deleteObjectVersion("bkt", "k", latest[0]),
            s -> assertSettled(s, etag("one"), List.of(etag("one")), List.of("two")),
            List.of(etag("one"), etag("two"))),
        new Scenario("delete of the latest version over a delete marker",
            key(VersioningState.ENABLED, latest, "one", MARKER, "two"),
            s -> s.deleteObjectVersion("bkt", "k", latest[0]),
            s -> assertSettled(s, null, List.of(MARKER, etag("one")), List.of("two")),
            Arrays.asList(null, etag("two"))),
        new Scenario("delete marker on top", key(VersioningState.ENABLED, latest, "one"),
            s -> s.deleteObject("bkt", "k"),
            s -> assertSettled(s, null, List.of(MARKER, etag("one")), List.of()),
            Arrays.asList(null, etag("one"))),
        new Scenario("delete of the last version", key(VersioningState.ENABLED, latest, "one"),
            s -> s.deleteObjectVersion("bkt", "k", latest[0]),
            s -> {
              assertSettled(s, null, List.of(), List.of("one"));
              s.deleteBucket("bkt"); // nothing of the key left behind
            },
            Arrays.asList(null, etag("one"))),
        new Scenario("unversioned overwrite", key(VersioningState.UNVERSIONED, latest, "one"),
            s -> s.putObject("bkt", "k", Sample.object("two")),
            s -> assertSettled(s, etag("two"), List.of(etag("two")), List.of("one")),
            List.of(etag("one"), etag("two"))),
        new Scenario("suspended put replacing the null version",
            key(VersioningState.UNVERSIONED, latest, "one").andThen(s -> {
              s.updateBucket("bkt", new BucketUpdate(VersioningState.ENABLED, null, null));
              s.putObject("bkt", "k", Sample.object("two"));
              s.updateBucket("bkt", new BucketUpdate(VersioningState.SUSPENDED, null, null));
            }),
            s -> s.putObject("bkt", "k", Sample.object("three")),
            s -> assertSettled(s, etag("three"), List.of(etag("three"), etag("two")),
                List.of("one")),
            List.of(etag("two"), etag("three"))),
        new Scenario("multipart completion", upload(upload, 2),
            s -> s.completeMultipartUpload("bkt", "k", upload[0],
                List.of(new CompletedPart(1, Sample.md5Hex("p1")))),
            s -> {
              assertThat(s.getObject("bkt", "k").size()).isEqualTo(5);
              assertThat(Walks.allCurrent(s, "bkt")).hasSize(1);
              assertUploadGone(s, 2);
            },
            Arrays.asList(null, Sample.multipartEtag(List.of(Sample.md5Hex("p1"))))),
        new Scenario("multipart abort", upload(upload, 1),
            s -> s.abortMultipartUpload("bkt", "k", upload[0]),
            s -> assertUploadGone(s, 1),
            Arrays.asList((String) null)));
  }

  /** In {@link #assertSettled}'s versions and {@link #key}'s writes: a delete marker. */
  public static final String MARKER = "marker";

  /**
   * A setup: bucket {@code bkt} in that versioning state, then key {@code k} written in order
   * ({@link #MARKER}: a delete marker); the version id of the last write goes to {@code last}.
   */
  private static Consumer<MetadataStore> key(VersioningState state, String[] last,
      String... writes) {
    return s -> {
      bucket(s, state);
      for (String w : writes) {
        last[0] = MARKER.equals(w) ? s.deleteObject("bkt", "k").versionId()
            : s.putObject("bkt", "k", Sample.object(w)).versionId();
      }
    };
  }

  /** A setup: an upload of key {@code k} with parts 1..n of 5 bytes ("p1".."pn"). */
  private static Consumer<MetadataStore> upload(String[] id, int parts) {
    return s -> {
      bucket(s, VersioningState.ENABLED);
      id[0] = s.initiateMultipartUpload("bkt", "k", Sample.object("mp")).uploadId();
      for (int p = 1; p <= parts; p++) {
        s.putPart("bkt", "k", id[0], Sample.part(p, "p" + p, 5));
      }
    };
  }

  /** The upload is gone from the listing and the counters, its last part queued (acknowledged). */
  private static void assertUploadGone(MetadataStore s, int queuedPart) {
    assertThat(s.bucketUsage("bkt").uploads()).isZero();
    assertThat(s.bucketUsage("bkt").partBytes()).isZero();
    assertThat(s.listMultipartUploads(ListUploadsRequest.of("bkt")).uploads()).isEmpty();
    GarbageClaim c = s.claimGarbage(100, Duration.ZERO, Duration.ofMinutes(1));
    assertThat(c.records()).extracting(GarbageRecord::partNumber).containsExactly(queuedPart);
    s.acknowledgeGarbage(c.claimId(), ids(c));
  }

  /**
   * The settled state of key {@code k} in bucket {@code bkt}: its current etag (null: none), its
   * versions newest first ("marker" for a delete marker), the GC queue (the names of the data it
   * frees, each once; acknowledged here) and usage counters that match a recount.
   */
  public static void assertSettled(MetadataStore s, String currentEtag, List<String> versionEtags,
      List<String> queuedNames) {
    if (currentEtag == null) {
      assertThatThrownBy(() -> s.getObject("bkt", "k")).isInstanceOf(NoSuchKeyException.class);
    } else {
      assertThat(s.getObject("bkt", "k").metadata().etag()).isEqualTo(currentEtag);
    }
    assertThat(Walks.allVersions(s, "bkt")).extracting(v -> v.deleteMarker() ? MARKER
        : v.metadata().etag()).containsExactlyElementsOf(versionEtags);
    assertThat(Walks.allCurrent(s, "bkt")).as("the current objects")
        .extracting(v -> v.metadata().etag())
        .containsExactlyElementsOf(currentEtag == null ? List.of() : List.of(currentEtag));
    assertThat(Recount.withoutUploads(s.bucketUsage("bkt"))).isEqualTo(Recount.versions(s, "bkt"));
    GarbageClaim c = s.claimGarbage(100, Duration.ZERO, Duration.ofMinutes(1));
    List<String> queued = new ArrayList<>();
    for (GarbageRecord r : c.records()) {
      queued.add(r.dataLocations().get(0).key());
    }
    assertThat(queued).containsExactlyInAnyOrderElementsOf(
        queuedNames.stream().map(n -> "data/" + n).toList());
    assertThat(s.acknowledgeGarbage(c.claimId(), ids(c))).isEqualTo(queuedNames.size());
  }

  private static List<String> ids(GarbageClaim c) {
    return c.records().stream().map(GarbageRecord::id).toList();
  }

  private static void bucket(MetadataStore s, VersioningState state) {
    s.createBucket("bkt", "owner", null);
    if (state != VersioningState.UNVERSIONED) {
      s.updateBucket("bkt", new BucketUpdate(state, null, null));
    }
  }

  /** The etag of {@link Sample#object(String)} of that name. */
  public static String etag(String name) {
    return Sample.object(name).etag();
  }
}
