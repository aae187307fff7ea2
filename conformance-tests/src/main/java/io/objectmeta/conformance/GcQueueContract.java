package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.gc.GcQueueStats;
import io.objectmeta.api.model.VersioningState;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The GC queue: claims under a lease, exclusive; acknowledge, release, lease expiry. */
public interface GcQueueContract extends StoreScenario {

  Duration NO_GRACE = Duration.ZERO;
  Duration LONG_LEASE = Duration.ofMinutes(5);
  Duration SHORT_LEASE = Duration.ofMillis(100);

  /** Queues {@code n} object records of sizes 1..n in a fresh bucket, oldest first. */
  default String queue(int n) {
    return queueGarbage(n);
  }

  default List<String> ids(GarbageClaim c) {
    return c.records().stream().map(GarbageRecord::id).toList();
  }

  @Test
  default void aFreshStoreHasAnEmptyQueue() {
    assertThat(store().gcQueueStats()).isEqualTo(new GcQueueStats(0, 0, null, 0));
    assertThat(store().claimGarbage(10, NO_GRACE, LONG_LEASE).isEmpty()).isTrue();
  }

  @Test
  default void statsCountQueuedRecordsBytesAndTheOldest() {
    queue(3);
    List<GarbageRecord> all = gcQueue();
    GcQueueStats s = store().gcQueueStats();
    assertThat(s.queued()).isEqualTo(3);
    assertThat(s.leased()).isZero();
    assertThat(s.bytes()).isEqualTo(6);
    assertThat(s.oldest()).isEqualTo(all.get(0).deletedAt());
  }

  @Test
  default void recordsAreClaimedOldestFirstUpToMax() {
    queue(5);
    GarbageClaim c = store().claimGarbage(3, NO_GRACE, LONG_LEASE);
    assertThat(c.records()).extracting(GarbageRecord::key).containsExactly("k1", "k2", "k3");
    assertThat(c.records()).extracting(GarbageRecord::deletedAt).isSorted();
    assertThat(c.claimId()).isNotBlank();
    assertThat(c.leaseExpires()).isAfter(java.time.Instant.now());
  }

  @Test
  default void recordIdsAreUnique() {
    queue(20);
    assertThat(gcQueue()).extracting(GarbageRecord::id).doesNotHaveDuplicates().hasSize(20);
  }

  @Test
  default void theGracePeriodHoldsBackRecentRecords() {
    queue(2);
    assertThat(store().claimGarbage(10, Duration.ofHours(1), LONG_LEASE).isEmpty()).isTrue();
    assertThat(store().claimGarbage(10, NO_GRACE, LONG_LEASE).records()).hasSize(2);
  }

  @Test
  default void aRecordBecomesClaimableOnceItsGracePeriodHasPassed() {
    queue(1);
    Duration grace = Duration.ofMillis(150);
    GarbageRecord r = gcQueue().get(0);
    GarbageClaim c = Polling.untilPresent("the record's grace period passes", () -> {
      GarbageClaim got = store().claimGarbage(10, grace, LONG_LEASE);
      return got.isEmpty() ? null : got;
    });
    assertThat(ids(c)).containsExactly(r.id());
    assertThat(java.time.Instant.now()).isAfterOrEqualTo(r.deletedAt().plus(grace));
  }

  @Test
  default void claimsAreExclusiveWhileTheLeaseLives() {
    queue(4);
    GarbageClaim first = store().claimGarbage(2, NO_GRACE, LONG_LEASE);
    GarbageClaim second = store().claimGarbage(10, NO_GRACE, LONG_LEASE);
    assertThat(ids(second)).hasSize(2).doesNotContainAnyElementsOf(ids(first));
    assertThat(store().claimGarbage(10, NO_GRACE, LONG_LEASE).isEmpty()).isTrue();
    assertThat(store().gcQueueStats().leased()).isEqualTo(4);
    assertThat(store().gcQueueStats().queued()).as("leased records stay queued").isEqualTo(4);
  }

  @Test
  default void acknowledgingRemovesRecordsForGood() {
    queue(3);
    GarbageClaim c = store().claimGarbage(10, NO_GRACE, LONG_LEASE);
    assertThat(store().acknowledgeGarbage(c.claimId(), ids(c).subList(0, 2))).isEqualTo(2);
    assertThat(store().gcQueueStats().queued()).isEqualTo(1);
    store().releaseGarbage(c.claimId(), ids(c));
    assertThat(gcQueue()).extracting(GarbageRecord::id).containsExactly(ids(c).get(2));
  }

  @Test
  default void aRecordIsNeverAcknowledgedTwice() {
    queue(2);
    GarbageClaim c = store().claimGarbage(10, NO_GRACE, LONG_LEASE);
    assertThat(store().acknowledgeGarbage(c.claimId(), ids(c))).isEqualTo(2);
    assertThat(store().acknowledgeGarbage(c.claimId(), ids(c))).isZero();
    assertThat(store().gcQueueStats().queued()).isZero();
  }

  @Test
  default void acknowledgingWithAnotherClaimRemovesNothing() {
    queue(2);
    GarbageClaim mine = store().claimGarbage(1, NO_GRACE, LONG_LEASE);
    GarbageClaim other = store().claimGarbage(1, NO_GRACE, LONG_LEASE);
    assertThat(store().acknowledgeGarbage(other.claimId(), ids(mine))).isZero();
    assertThat(store().acknowledgeGarbage("no-such-claim", ids(mine))).isZero();
    assertThat(store().gcQueueStats().queued()).isEqualTo(2);
    assertThat(store().acknowledgeGarbage(mine.claimId(), ids(mine))).isEqualTo(1);
  }

  @Test
  default void unknownRecordIdsAreIgnored() {
    queue(1);
    GarbageClaim c = store().claimGarbage(10, NO_GRACE, LONG_LEASE);
    assertThat(store().acknowledgeGarbage(c.claimId(), List.of("nope", ids(c).get(0)))).isEqualTo(1);
    assertThat(store().acknowledgeGarbage(c.claimId(), List.of())).isZero();
  }

  @Test
  default void releasingReturnsRecordsAtOnceWithTheirQueueTime() {
    queue(2);
    List<GarbageRecord> before = gcQueue();
    GarbageClaim c = store().claimGarbage(10, NO_GRACE, LONG_LEASE);
    assertThat(store().releaseGarbage(c.claimId(), ids(c))).isEqualTo(2);
    assertThat(store().gcQueueStats().leased()).isZero();
    GarbageClaim again = store().claimGarbage(10, NO_GRACE, LONG_LEASE);
    assertThat(again.records()).isEqualTo(before);
  }

  @Test
  default void releasingWithAnotherClaimReleasesNothing() {
    queue(1);
    GarbageClaim c = store().claimGarbage(10, NO_GRACE, LONG_LEASE);
    assertThat(store().releaseGarbage("not-" + c.claimId(), ids(c))).isZero();
    assertThat(store().claimGarbage(10, NO_GRACE, LONG_LEASE).isEmpty()).isTrue();
  }

  @Test
  default void releasedRecordsCannotBeAcknowledgedByTheOldClaim() {
    queue(1);
    GarbageClaim c = store().claimGarbage(10, NO_GRACE, LONG_LEASE);
    store().releaseGarbage(c.claimId(), ids(c));
    assertThat(store().acknowledgeGarbage(c.claimId(), ids(c))).isZero();
    assertThat(store().gcQueueStats().queued()).isEqualTo(1);
  }

  @Test
  default void anExpiredLeaseReturnsItsRecords() {
    queue(2);
    GarbageClaim c = store().claimGarbage(10, NO_GRACE, SHORT_LEASE);
    GarbageClaim again = Polling.untilPresent("the lease expires", () -> {
      GarbageClaim got = store().claimGarbage(10, NO_GRACE, LONG_LEASE);
      return got.isEmpty() ? null : got;
    });
    assertThat(ids(again)).containsExactlyInAnyOrderElementsOf(ids(c));
    assertThat(java.time.Instant.now()).isAfterOrEqualTo(c.leaseExpires());
  }

  @Test
  default void anExpiredClaimCannotAcknowledgeRecordsClaimedAgain() {
    queue(1);
    GarbageClaim old = store().claimGarbage(10, NO_GRACE, SHORT_LEASE);
    GarbageClaim fresh = Polling.untilPresent("the lease expires", () -> {
      GarbageClaim got = store().claimGarbage(10, NO_GRACE, LONG_LEASE);
      return got.isEmpty() ? null : got;
    });
    assertThat(store().acknowledgeGarbage(old.claimId(), ids(old))).isZero();
    assertThat(store().gcQueueStats().queued()).isEqualTo(1);
    assertThat(store().acknowledgeGarbage(fresh.claimId(), ids(fresh))).isEqualTo(1);
    assertThat(store().gcQueueStats().queued()).isZero();
  }

  @Test
  default void anExpiredClaimCannotAcknowledgeEvenIfNobodyClaimedAgain() {
    queue(1);
    GarbageClaim old = store().claimGarbage(10, NO_GRACE, SHORT_LEASE);
    Polling.until("the lease expires", () -> java.time.Instant.now().isAfter(old.leaseExpires().plusMillis(20)));
    assertThat(store().acknowledgeGarbage(old.claimId(), ids(old))).isZero();
    assertThat(store().gcQueueStats().queued()).isEqualTo(1);
    assertThat(store().gcQueueStats().leased()).isZero();
  }

  @Test
  default void aRenewedLeaseOutlivesItsFirstEndAndKeepsItsRecordsFromOtherClaims() {
    queue(2);
    // Long enough that the renewal comes before its end on a slow machine too.
    GarbageClaim c = store().claimGarbage(10, NO_GRACE, Duration.ofSeconds(2));
    assertThat(store().renewGarbage(c.claimId(), ids(c), LONG_LEASE)).isEqualTo(2);
    Polling.until("the first lease's end passes",
        () -> java.time.Instant.now().isAfter(c.leaseExpires().plusMillis(20)));
    assertThat(store().claimGarbage(10, NO_GRACE, LONG_LEASE).records()).as("held by the renewal")
        .isEmpty();
    assertThat(store().gcQueueStats().leased()).isEqualTo(2);
    assertThat(store().acknowledgeGarbage(c.claimId(), ids(c))).isEqualTo(2);
    assertThat(store().gcQueueStats().queued()).isZero();
  }

  @Test
  default void aLeaseThatEndedCannotBeRenewedWhetherOrNotAnotherClaimTookItsRecords() {
    queue(1);
    GarbageClaim old = store().claimGarbage(10, NO_GRACE, SHORT_LEASE);
    Polling.until("the lease expires", () -> java.time.Instant.now().isAfter(old.leaseExpires().plusMillis(20)));
    assertThat(store().renewGarbage(old.claimId(), ids(old), LONG_LEASE)).isZero();
    GarbageClaim fresh = store().claimGarbage(10, NO_GRACE, LONG_LEASE);
    assertThat(ids(fresh)).containsExactlyElementsOf(ids(old));
    assertThat(store().renewGarbage(old.claimId(), ids(old), LONG_LEASE)).isZero();
    assertThat(store().acknowledgeGarbage(old.claimId(), ids(old))).isZero();
    assertThat(store().renewGarbage(fresh.claimId(), ids(fresh), LONG_LEASE)).isEqualTo(1);
    assertThat(store().renewGarbage(fresh.claimId(), List.of("not-a-record"), LONG_LEASE)).isZero();
    assertThat(store().acknowledgeGarbage(fresh.claimId(), ids(fresh))).isEqualTo(1);
  }

  @Test
  default void aLeaseOrGracePeriodOutOfRangeIsRefusedNamingIt() {
    queue(1);
    for (java.time.Duration bad : List.of(java.time.Duration.ZERO, java.time.Duration.ofDays(2),
        java.time.Duration.ofSeconds(Long.MAX_VALUE))) {
      assertRefusedAndUnchanged(io.objectmeta.api.error.InvalidArgumentException.class,
          () -> store().claimGarbage(10, NO_GRACE, bad));
      assertRefusedAndUnchanged(io.objectmeta.api.error.InvalidArgumentException.class,
          () -> store().renewGarbage("c", List.of("r"), bad));
    }
    assertRefusedAndUnchanged(io.objectmeta.api.error.InvalidArgumentException.class,
        () -> store().claimGarbage(10, java.time.Duration.ofSeconds(Long.MAX_VALUE), LONG_LEASE));
  }

  @Test
  default void everyRecordIsClaimedExactlyOnceAcrossClaims() {
    queue(10);
    Set<String> seen = new HashSet<>();
    GarbageClaim c;
    int claims = 0;
    while (!(c = store().claimGarbage(3, NO_GRACE, LONG_LEASE)).isEmpty()) {
      for (String id : ids(c)) {
        assertThat(seen.add(id)).as("record %s claimed twice", id).isTrue();
      }
      claims++;
    }
    assertThat(seen).hasSize(10);
    assertThat(claims).isEqualTo(4);
  }

  @Test
  default void recordsKeepTheirBucketIncarnation() {
    String b = newBucket(VersioningState.ENABLED);
    String id = store().getBucket(b).id();
    var v = put(b, "k", "v");
    store().deleteObjectVersion(b, "k", v.versionId());
    assertThat(gcQueue(b)).singleElement().satisfies(r -> {
      assertThat(r.bucketId()).isEqualTo(id);
      assertThat(r.partNumber()).isZero();
    });
  }
  @Test
  default void statsFollowAcknowledgements() {
    queue(3);
    List<GarbageRecord> all = gcQueue();
    GarbageClaim c = store().claimGarbage(1, NO_GRACE, LONG_LEASE);
    assertThat(store().gcQueueStats().leased()).isEqualTo(1);
    store().acknowledgeGarbage(c.claimId(), ids(c));
    GcQueueStats s = store().gcQueueStats();
    assertThat(s.queued()).isEqualTo(2);
    assertThat(s.leased()).isZero();
    assertThat(s.bytes()).isEqualTo(5);
    assertThat(s.oldest()).isEqualTo(all.get(1).deletedAt());
  }

  @Test
  default void deleteMarkersNeverReachTheQueue() {
    String b = newBucket(VersioningState.ENABLED);
    String m1 = store().deleteObject(b, "k").versionId();
    store().deleteObject(b, "k");
    store().deleteObjectVersion(b, "k", m1);
    setVersioning(b, VersioningState.SUSPENDED);
    store().deleteObject(b, "k");
    store().deleteObject(b, "k");
    store().deleteObjectVersion(b, "k", "null");
    assertThat(gcQueue(b)).isEmpty();
    assertThat(store().gcQueueStats().queued()).isZero();
  }

  @Test
  default void theQueueHoldsEveryKindOfRecordWithItsData() {
    String b = newBucket();
    put(b, "obj", "o1", 4);
    put(b, "obj", "o2", 5);
    store().deleteObject(b, "obj");
    if (store().capabilities().contains(io.objectmeta.api.Capability.MULTIPART_UPLOADS)) {
      var u = store().initiateMultipartUpload(b, "mp", Sample.object("mp", 0));
      store().putPart(b, "mp", u.uploadId(), Sample.part(1, "part", 6));
      store().abortMultipartUpload(b, "mp", u.uploadId());
    }
    store().deleteBucket(b);
    List<GarbageRecord> records = gcQueue(b);
    assertThat(records).filteredOn(r -> r.kind() == GarbageRecord.Kind.OBJECT_VERSION)
        .extracting(GarbageRecord::size, r -> r.dataLocations().get(0).key())
        .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(4L, "data/o1"),
            org.assertj.core.groups.Tuple.tuple(5L, "data/o2"));
    assertThat(records).filteredOn(r -> r.kind() == GarbageRecord.Kind.BUCKET).hasSize(1);
    assertThat(store().gcQueueStats().bytes()).isEqualTo(records.stream().mapToLong(GarbageRecord::size).sum());
  }
}
