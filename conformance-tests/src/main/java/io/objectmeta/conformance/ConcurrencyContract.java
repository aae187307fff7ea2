package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.error.BucketAlreadyExistsException;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.error.NoSuchKeyException;
import io.objectmeta.api.error.NoSuchVersionException;
import io.objectmeta.api.error.PreconditionFailedException;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.model.WriteCondition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many threads racing on one key and on one bucket. Afterwards the history must be one a serial
 * order could have produced: every successful write is in it exactly once (or, if it left the
 * history, in the GC queue exactly once), the latest version is the newest, and the usage counters
 * agree with a recount.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public interface ConcurrencyContract extends StoreScenario {

  int THREADS = 8;
  int OPS_PER_THREAD = 40;

  /** What one racing call did. */
  record Outcome(String op, String name, String key, String versionId, boolean deleteMarker,
      MetadataException error) {
    boolean ok() {
      return error == null;
    }
  }

  /** Runs {@code THREADS} workers released together; worker {@code t} runs {@code work.apply(t)}. */
  default List<Outcome> race(IntFunction<Callable<List<Outcome>>> work) {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<List<Outcome>>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        Callable<List<Outcome>> c = work.apply(t);
        futures.add(pool.submit(() -> {
          start.await();
          return c.call();
        }));
      }
      start.countDown();
      List<Outcome> all = new ArrayList<>();
      for (Future<List<Outcome>> f : futures) {
        all.addAll(f.get(100, TimeUnit.SECONDS));
      }
      return all;
    } catch (Exception e) {
      throw new AssertionError("a racing worker failed", e);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Puts (named uniquely) and deletes on {@code keys}, at random, from every thread. */
  default List<Outcome> racePutsAndDeletes(String b, List<String> keys, double deleteShare) {
    return race(t -> () -> {
      List<Outcome> out = new ArrayList<>();
      ThreadLocalRandom rnd = ThreadLocalRandom.current();
      for (int i = 0; i < OPS_PER_THREAD; i++) {
        String key = keys.get(rnd.nextInt(keys.size()));
        if (rnd.nextDouble() < deleteShare) {
          try {
            var d = store().deleteObject(b, key);
            out.add(new Outcome("delete", null, key, d.versionId(), d.deleteMarker(), null));
          } catch (MetadataException e) {
            out.add(new Outcome("delete", null, key, null, false, e));
          }
        } else {
          String name = "t" + t + "-" + i;
          try {
            ObjectVersion v = store().putObject(b, key, Sample.object(name, 1 + t * 1000L + i));
            out.add(new Outcome("put", name, key, v.versionId(), false, null));
          } catch (MetadataException e) {
            out.add(new Outcome("put", name, key, null, false, e));
          }
        }
      }
      return out;
    });
  }

  default void assertUsageAgreesWithARecount(String b) {
    assertThat(Recount.withoutUploads(store().bucketUsage(b)))
        .as("usage counters agree with a recount from the listings")
        .isEqualTo(Recount.versions(store(), b));
  }

  default void assertLatestIsTheNewest(String b, String key) {
    List<ObjectVersion> vs = versionsOf(b, key);
    for (int i = 0; i < vs.size(); i++) {
      assertThat(vs.get(i).latest()).as("latest flag of version %d of %s", i, key).isEqualTo(i == 0);
    }
    for (int i = 1; i < vs.size(); i++) {
      assertThat(vs.get(i).revision().compareTo(vs.get(i - 1).revision()))
          .as("versions of %s listed newest first", key).isPositive();
    }
    if (vs.isEmpty()) {
      return;
    }
    ObjectVersion top = vs.get(0);
    if (top.deleteMarker()) {
      try {
        store().getObject(b, key);
        throw new AssertionError("a delete marker is latest, yet getObject found an object");
      } catch (NoSuchKeyException e) {
        assertThat(e.deleteMarker()).isTrue();
        assertThat(e.versionId()).isEqualTo(top.versionId());
      }
    } else {
      assertThat(store().getObject(b, key).versionId()).isEqualTo(top.versionId());
    }
  }

  /** The etags of the objects each successful put wrote, by name. */
  default Map<String, String> etagsOfSuccessfulPuts(List<Outcome> outcomes) {
    Map<String, String> m = new HashMap<>();
    for (Outcome o : outcomes) {
      if (o.op().equals("put") && o.ok()) {
        m.put(Sample.md5Hex(o.name()), o.name());
      }
    }
    return m;
  }

  @Test
  default void racingVersionedPutsAndDeletesOnOneKeyKeepEveryVersion() {
    String b = newBucket(VersioningState.ENABLED);
    List<Outcome> outcomes = racePutsAndDeletes(b, List.of("hot"), 0.3);
    assertThat(outcomes).allMatch(Outcome::ok);
    List<ObjectVersion> vs = versionsOf(b, "hot");
    assertThat(vs).hasSize(THREADS * OPS_PER_THREAD);
    assertThat(vs).extracting(ObjectVersion::versionId).doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(outcomes.stream().map(Outcome::versionId).toList());
    assertThat(vs.stream().filter(v -> !v.deleteMarker()).map(v -> v.metadata().etag()).toList())
        .containsExactlyInAnyOrderElementsOf(etagsOfSuccessfulPuts(outcomes).keySet());
    assertLatestIsTheNewest(b, "hot");
    assertThat(gcQueue(b)).as("nothing left the history").isEmpty();
    assertUsageAgreesWithARecount(b);
  }

  @Test
  default void racingUnversionedPutsOnOneKeyLeaveOneWinnerAndQueueEveryOther() {
    String b = newBucket();
    List<Outcome> outcomes = racePutsAndDeletes(b, List.of("hot"), 0.0);
    assertThat(outcomes).allMatch(Outcome::ok);
    Map<String, String> written = etagsOfSuccessfulPuts(outcomes);
    ObjectVersion winner = store().getObject(b, "hot");
    List<String> everything = new ArrayList<>();
    everything.add(winner.metadata().etag());
    gcQueue(b).forEach(r -> everything.add(Sample.md5Hex(r.dataLocations().get(0).key().substring(5))));
    assertThat(everything).as("each put is the current object or in the GC queue, exactly once")
        .containsExactlyInAnyOrderElementsOf(written.keySet());
    assertThat(versionsOf(b, "hot")).hasSize(1);
    assertUsageAgreesWithARecount(b);
  }

  @Test
  default void racingUnversionedPutsAndDeletesLoseNothing() {
    String b = newBucket();
    List<Outcome> outcomes = racePutsAndDeletes(b, List.of("hot"), 0.4);
    assertThat(outcomes).filteredOn(o -> !o.ok())
        .allSatisfy(o -> assertThat(o.error()).isInstanceOf(NoSuchKeyException.class));
    long successfulDeletes = outcomes.stream().filter(o -> o.op().equals("delete") && o.ok()).count();
    Map<String, String> written = etagsOfSuccessfulPuts(outcomes);
    List<String> everything = new ArrayList<>();
    List<ObjectVersion> left = versionsOf(b, "hot");
    left.forEach(v -> everything.add(v.metadata().etag()));
    List<GarbageRecord> gc = gcQueue(b);
    gc.forEach(r -> everything.add(Sample.md5Hex(r.dataLocations().get(0).key().substring(5))));
    assertThat(everything).containsExactlyInAnyOrderElementsOf(written.keySet());
    assertThat(left).hasSizeLessThanOrEqualTo(1);
    // Every object that left was either overwritten or deleted: puts - current = GC records,
    // and each successful delete removed exactly one of them.
    assertThat(gc).hasSize(written.size() - left.size());
    assertThat(successfulDeletes).isLessThanOrEqualTo(gc.size());
    assertUsageAgreesWithARecount(b);
  }

  @Test
  default void racingSuspendedPutsKeepOneNullVersionAndTheEnabledHistory() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion kept = put(b, "hot", "kept", 7);
    setVersioning(b, VersioningState.SUSPENDED);
    List<Outcome> outcomes = racePutsAndDeletes(b, List.of("hot"), 0.3);
    assertThat(outcomes).allMatch(Outcome::ok);
    List<ObjectVersion> vs = versionsOf(b, "hot");
    assertThat(vs).extracting(ObjectVersion::versionId).containsExactly("null", kept.versionId());
    Map<String, String> written = etagsOfSuccessfulPuts(outcomes);
    List<String> everything = new ArrayList<>();
    if (!vs.get(0).deleteMarker()) {
      everything.add(vs.get(0).metadata().etag());
    }
    gcQueue(b).forEach(r -> everything.add(Sample.md5Hex(r.dataLocations().get(0).key().substring(5))));
    assertThat(everything).containsExactlyInAnyOrderElementsOf(written.keySet());
    assertLatestIsTheNewest(b, "hot");
    assertUsageAgreesWithARecount(b);
  }

  @Test
  default void racingWritesAcrossOneVersionedBucketKeepEachKeysHistory() {
    String b = newBucket(VersioningState.ENABLED);
    List<String> keys = List.of("a", "a/b", "a/c", "b", "\u0000", "\uFFFD", "\uD83D\uDE00", "z");
    List<Outcome> outcomes = racePutsAndDeletes(b, keys, 0.3);
    assertThat(outcomes).allMatch(Outcome::ok);
    for (String k : keys) {
      List<String> expected = outcomes.stream().filter(o -> o.key().equals(k)).map(Outcome::versionId).toList();
      assertThat(versionIdsOf(b, k)).as("history of %s", k).containsExactlyInAnyOrderElementsOf(expected);
      assertLatestIsTheNewest(b, k);
    }
    assertThat(versions(b)).hasSize(THREADS * OPS_PER_THREAD);
    assertUsageAgreesWithARecount(b);
  }

  @Test
  default void racingWritesAcrossOneUnversionedBucketLoseNothing() {
    String b = newBucket();
    List<String> keys = List.of("a", "a/b", "b", "c", "\uFFFD", "\uD83D\uDE00");
    List<Outcome> outcomes = racePutsAndDeletes(b, keys, 0.3);
    Map<String, String> written = etagsOfSuccessfulPuts(outcomes);
    List<String> everything = new ArrayList<>();
    versions(b).forEach(v -> everything.add(v.metadata().etag()));
    gcQueue(b).forEach(r -> everything.add(Sample.md5Hex(r.dataLocations().get(0).key().substring(5))));
    assertThat(everything).containsExactlyInAnyOrderElementsOf(written.keySet());
    assertUsageAgreesWithARecount(b);
  }

  @Test
  default void racingRemovalsOfOneVersionSucceedExactlyOnce() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    ObjectVersion v2 = put(b, "k", "v2");
    List<Outcome> outcomes = race(t -> () -> {
      try {
        var d = store().deleteObjectVersion(b, "k", v2.versionId());
        return List.of(new Outcome("deleteVersion", null, "k", d.versionId(), false, null));
      } catch (MetadataException e) {
        return List.of(new Outcome("deleteVersion", null, "k", null, false, e));
      }
    });
    assertThat(outcomes).filteredOn(Outcome::ok).hasSize(1);
    assertThat(outcomes).filteredOn(o -> !o.ok())
        .allSatisfy(o -> assertThat(o.error()).isInstanceOf(NoSuchVersionException.class));
    assertThat(gcQueue(b)).singleElement().satisfies(r -> assertThat(r.versionId()).isEqualTo(v2.versionId()));
    assertThat(store().getObject(b, "k").versionId()).isEqualTo(v1.versionId());
  }

  @Test
  default void racingCreateOnlyPutsHaveExactlyOneWinner() {
    String b = newBucket(VersioningState.ENABLED);
    List<Outcome> outcomes = race(t -> () -> {
      try {
        var v = store().putObject(b, "once", Sample.object("t" + t), WriteCondition.createOnly());
        return List.of(new Outcome("put", "t" + t, "once", v.versionId(), false, null));
      } catch (MetadataException e) {
        return List.of(new Outcome("put", "t" + t, "once", null, false, e));
      }
    });
    assertThat(outcomes).filteredOn(Outcome::ok).hasSize(1);
    assertThat(outcomes).filteredOn(o -> !o.ok())
        .allSatisfy(o -> assertThat(o.error()).isInstanceOf(PreconditionFailedException.class));
    assertThat(versionsOf(b, "once")).hasSize(1);
  }

  @Test
  default void racingIfMatchPutsAdvanceOneAtATime() {
    String b = newBucket();
    put(b, "counter", "0");
    List<Outcome> outcomes = race(t -> () -> {
      List<Outcome> out = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        ObjectVersion cur = store().getObject(b, "counter");
        String name = "t" + t + "-" + i;
        try {
          store().putObject(b, "counter", Sample.object(name), WriteCondition.ifMatchEtag(cur.metadata().etag()));
          out.add(new Outcome("put", name, "counter", "null", false, null));
        } catch (MetadataException e) {
          out.add(new Outcome("put", name, "counter", null, false, e));
        }
      }
      return out;
    });
    assertThat(outcomes).filteredOn(o -> !o.ok())
        .allSatisfy(o -> assertThat(o.error()).isInstanceOf(PreconditionFailedException.class));
    long wins = outcomes.stream().filter(Outcome::ok).count();
    assertThat(gcQueue(b)).as("every successful conditional put replaced exactly one object").hasSize((int) wins);
  }

  @Test
  default void racingBucketCreatesHaveExactlyOneWinner() {
    String name = BucketNames.next();
    List<Outcome> outcomes = race(t -> () -> {
      try {
        store().createBucket(name, "owner-" + t, null);
        return List.of(new Outcome("createBucket", "owner-" + t, null, null, false, null));
      } catch (MetadataException e) {
        return List.of(new Outcome("createBucket", "owner-" + t, null, null, false, e));
      }
    });
    assertThat(outcomes).filteredOn(Outcome::ok).singleElement()
        .satisfies(o -> assertThat(store().getBucket(name).owner()).isEqualTo(o.name()));
    assertThat(outcomes).filteredOn(o -> !o.ok())
        .allSatisfy(o -> assertThat(o.error()).isInstanceOf(BucketAlreadyExistsException.class));
  }

  @Test
  default void concurrentFirstUuidCallsAgree() {
    Collection<UUID> seen = new ConcurrentLinkedQueue<>();
    race(t -> () -> {
      seen.add(store().getUUID());
      return List.of();
    });
    assertThat(new HashSet<>(seen)).hasSize(1);
    assertThat(store().getUUID()).isEqualTo(seen.iterator().next());
  }

  @Test
  default void concurrentClaimsNeverShareARecord() {
    String b = newBucket();
    for (int i = 0; i < 200; i++) {
      put(b, "k" + i, "v" + i);
      store().deleteObject(b, "k" + i);
    }
    Collection<String> claimed = new ConcurrentLinkedQueue<>();
    race(t -> () -> {
      GarbageClaim c;
      for (int round = 0; round < 1000
          && !(c = store().claimGarbage(7, Duration.ZERO, Duration.ofMinutes(5))).isEmpty(); round++) {
        c.records().forEach(r -> claimed.add(r.id()));
        if (t % 2 == 0) {
          store().acknowledgeGarbage(c.claimId(), c.records().stream().map(GarbageRecord::id).toList());
        }
      }
      return List.of();
    });
    assertThat(claimed).hasSize(200).doesNotHaveDuplicates();
  }

  @Test
  default void concurrentAcknowledgementsCountEachRecordOnce() {
    String b = newBucket();
    for (int i = 0; i < 50; i++) {
      put(b, "k" + i, "v" + i);
      store().deleteObject(b, "k" + i);
    }
    GarbageClaim c = store().claimGarbage(100, Duration.ZERO, Duration.ofMinutes(5));
    List<String> ids = c.records().stream().map(GarbageRecord::id).toList();
    Collection<Integer> counts = new ConcurrentLinkedQueue<>();
    race(t -> () -> {
      counts.add(store().acknowledgeGarbage(c.claimId(), ids));
      return List.of();
    });
    assertThat(counts.stream().mapToInt(Integer::intValue).sum()).isEqualTo(50);
    assertThat(store().gcQueueStats().queued()).isZero();
  }

  @Test
  default void racingWritesAndGcLoseNoRecord() {
    String b = newBucket();
    Set<String> acknowledged = java.util.concurrent.ConcurrentHashMap.newKeySet();
    List<Outcome> outcomes = race(t -> () -> {
      List<Outcome> out = new ArrayList<>();
      for (int i = 0; i < OPS_PER_THREAD; i++) {
        if (t == 0) {
          GarbageClaim c = store().claimGarbage(5, Duration.ZERO, Duration.ofMinutes(5));
          List<String> ids = c.records().stream().map(GarbageRecord::id).toList();
          if (!ids.isEmpty()) {
            assertThat(store().acknowledgeGarbage(c.claimId(), ids)).isEqualTo(ids.size());
            for (String id : ids) {
              assertThat(acknowledged.add(id)).as("record %s acknowledged twice", id).isTrue();
            }
          }
        } else {
          String name = "t" + t + "-" + i;
          store().putObject(b, "k" + (i % 3), Sample.object(name));
          out.add(new Outcome("put", name, "k" + (i % 3), "null", false, null));
        }
      }
      return out;
    });
    int puts = outcomes.size();
    assertThat(acknowledged.size() + gcQueue(b).size() + versions(b).size()).isEqualTo(puts);
  }
  @Test
  default void racingPutsAndRemovalsOfTheLatestPromoteConsistently() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "hot", "seed");
    List<Outcome> outcomes = race(t -> () -> {
      List<Outcome> out = new ArrayList<>();
      for (int i = 0; i < OPS_PER_THREAD / 2; i++) {
        if (t % 2 == 0) {
          String name = "t" + t + "-" + i;
          ObjectVersion v = store().putObject(b, "hot", Sample.object(name, 1));
          out.add(new Outcome("put", name, "hot", v.versionId(), false, null));
        } else {
          try {
            String latest = store().getObject(b, "hot").versionId();
            var d = store().deleteObjectVersion(b, "hot", latest);
            out.add(new Outcome("deleteVersion", null, "hot", d.versionId(), false, null));
          } catch (NoSuchKeyException | NoSuchVersionException e) {
            out.add(new Outcome("deleteVersion", null, "hot", null, false, e));
          }
        }
      }
      return out;
    });
    Set<String> removed = new HashSet<>();
    for (Outcome o : outcomes) {
      if (o.op().equals("deleteVersion") && o.ok()) {
        assertThat(removed.add(o.versionId())).as("version %s removed twice", o.versionId()).isTrue();
      }
    }
    List<String> gcIds = gcQueue(b).stream().map(GarbageRecord::versionId).toList();
    assertThat(gcIds).as("exactly the removed versions are queued").containsExactlyInAnyOrderElementsOf(removed);
    long puts = outcomes.stream().filter(o -> o.op().equals("put")).count();
    assertThat(versionsOf(b, "hot")).hasSize((int) (puts + 1 - removed.size()));
    assertThat(versionIdsOf(b, "hot")).doesNotContainAnyElementsOf(removed);
    assertLatestIsTheNewest(b, "hot");
    assertUsageAgreesWithARecount(b);
  }

  @Test
  default void racingPartsWithOneNumberKeepOneAndQueueTheRest() {
    String b = newBucket();
    if (!store().capabilities().contains(io.objectmeta.api.Capability.MULTIPART_UPLOADS)) {
      requireCapability(io.objectmeta.api.Capability.MULTIPART_UPLOADS,
          () -> store().initiateMultipartUpload(b, "mp", Sample.object("mp")));
    }
    var u = store().initiateMultipartUpload(b, "mp", Sample.object("mp", 0));
    race(t -> () -> {
      for (int i = 0; i < 10; i++) {
        store().putPart(b, "mp", u.uploadId(), Sample.part(1, "t" + t + "-" + i, 1));
      }
      return List.of();
    });
    var parts = store().listParts(io.objectmeta.api.listing.ListPartsRequest.of(b, "mp", u.uploadId())).parts();
    assertThat(parts).hasSize(1);
    List<String> all = new ArrayList<>();
    all.add(parts.get(0).dataLocations().get(0).key());
    gcQueue(b).forEach(r -> all.add(r.dataLocations().get(0).key()));
    assertThat(all).hasSize(THREADS * 10).doesNotHaveDuplicates();
    assertThat(store().bucketUsage(b).partBytes()).isEqualTo(1);
  }

  @Test
  default void aBucketDeleteRacingPutsNeverLosesAWrite() {
    for (int round = 0; round < 10; round++) {
      String b = newBucket();
      List<Outcome> outcomes = race(t -> () -> {
        try {
          if (t == 0) {
            store().deleteBucket(b);
            return List.of(new Outcome("deleteBucket", null, null, null, false, null));
          }
          store().putObject(b, "k" + t, Sample.object("t" + t));
          return List.of(new Outcome("put", "t" + t, "k" + t, "null", false, null));
        } catch (MetadataException e) {
          return List.of(new Outcome(t == 0 ? "deleteBucket" : "put", null, null, null, false, e));
        }
      });
      boolean deleted = outcomes.stream().anyMatch(o -> o.op().equals("deleteBucket") && o.ok());
      long puts = outcomes.stream().filter(o -> o.op().equals("put") && o.ok()).count();
      if (deleted) {
        assertThat(puts).as("a put that succeeded must have kept the bucket from being deleted").isZero();
      } else {
        assertThat(currentKeys(b)).hasSize((int) puts);
      }
    }
  }
}
