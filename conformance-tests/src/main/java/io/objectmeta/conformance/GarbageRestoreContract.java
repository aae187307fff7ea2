package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbagePage;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.gc.GarbageRecord.Kind;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.version.VersionId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Reading the GC queue without claiming it ({@code listGarbage}), and restoring GC records of
 * another store ({@code restoreGarbage}): kept with their fields and queue time, claimable in
 * their place, each added once.
 */
public interface GarbageRestoreContract extends StoreScenario {

  Duration NO_GRACE = Duration.ZERO;
  Duration LONG_LEASE = Duration.ofMinutes(5);
  /** Queue times an hour and more ago, whole milliseconds: every backend keeps them exactly. */
  Instant LONG_AGO = Instant.ofEpochMilli(System.currentTimeMillis() - 3_600_000L * 5);

  /** Every record, walking {@code listGarbage} in pages of {@code limit}. */
  default List<GarbageRecord> listAll(int limit) {
    List<GarbageRecord> all = new ArrayList<>();
    String after = null;
    for (int pages = 0; pages < 10_000; pages++) {
      GarbagePage page = store().listGarbage(after, limit);
      assertThat(page.records().size()).isLessThanOrEqualTo(limit);
      all.addAll(page.records());
      if (!page.truncated()) {
        assertThat(page.next()).isNull();
        return all;
      }
      assertThat(page.records()).as("a truncated page is full").hasSize(limit);
      after = page.next();
    }
    throw new AssertionError("the GC queue listing never ends");
  }

  /** One record of each kind, as another store would report them, queued long ago. */
  default List<GarbageRecord> foreignRecords() {
    String bucketId = UUID.randomUUID().toString();
    VersionId rev = new VersionId(LONG_AGO.toEpochMilli() - 1000, 3, 42);
    List<DataLocation> data = List.of(new DataLocation("data-2", "blob/1", 0, 7),
        new DataLocation("data-2", "blob/2", 7, 3));
    return List.of(
        new GarbageRecord("src:o:1", Kind.OBJECT_VERSION, "gone-bucket", bucketId, "a\u0000/\u00fc",
            rev.encode(), 0, 10, data, LONG_AGO),
        new GarbageRecord("src:o:2", Kind.OBJECT_VERSION, "gone-bucket", bucketId, "n", "null", 0, 4,
            List.of(new DataLocation("data-2", "blob/3", 0, 4)), LONG_AGO.plusMillis(1)),
        new GarbageRecord("src:o:3", Kind.PART, "gone-bucket", bucketId, "mp", rev.encodeOldestFirst(),
            7, 5, List.of(new DataLocation("data-2", "blob/4", 0, 5)), LONG_AGO.plusMillis(2)),
        new GarbageRecord("src:b:1", Kind.BUCKET, "gone-bucket", bucketId, null, null, 0, 0, List.of(),
            LONG_AGO.plusMillis(3)));
  }

  /** A record with the id left out, to compare records of two stores. */
  default GarbageRecord withoutId(GarbageRecord r) {
    return new GarbageRecord("-", r.kind(), r.bucket(), r.bucketId(), r.key(), r.versionId(),
        r.partNumber(), r.size(), r.dataLocations(), r.deletedAt());
  }

  // ------------------------------------------------------------------------------ listGarbage

  @Test
  default void listingTheQueueReadsItInQueueOrderWithoutClaiming() {
    queueGarbage(5);
    List<GarbageRecord> claimOrder = gcQueue();
    for (int limit : new int[] {1, 2, 5, 6, 10_000}) {
      assertThat(listAll(limit)).as("pages of %d", limit).isEqualTo(claimOrder);
    }
    assertThat(store().gcQueueStats().leased()).isZero();
    assertThat(store().claimGarbage(10, NO_GRACE, LONG_LEASE).records()).hasSize(5);
  }

  @Test
  default void anEmptyQueueListsAsOneEmptyPage() {
    GarbagePage page = store().listGarbage(null, 10);
    assertThat(page.records()).isEmpty();
    assertThat(page.truncated()).isFalse();
  }

  @Test
  default void leasedRecordsAreListedAndTheCursorSurvivesAcknowledgements() {
    queueGarbage(4);
    GarbagePage first = store().listGarbage(null, 2);
    GarbageClaim c = store().claimGarbage(1, NO_GRACE, LONG_LEASE);
    assertThat(listAll(10)).as("a leased record is still queued").hasSize(4);
    assertThat(store().acknowledgeGarbage(c.claimId(), List.of(c.records().get(0).id()))).isEqualTo(1);
    GarbagePage rest = store().listGarbage(first.next(), 10);
    assertThat(rest.records()).extracting(GarbageRecord::key).containsExactly("k3", "k4");
    assertThat(rest.truncated()).isFalse();
  }

  @Test
  default void everyKindOfRecordIsListed() {
    queueGarbage(1);
    List<GarbageRecord> given = foreignRecords();
    store().restoreGarbage(given);
    assertThat(listAll(2)).extracting(this::withoutId).as("queue order: oldest first")
        .startsWith(given.stream().map(this::withoutId).toArray(GarbageRecord[]::new))
        .hasSize(5);
  }

  @Test
  default void aCursorThisStoreDidNotReturnIsInvalid() {
    queueGarbage(1);
    InvalidArgumentException e = assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().listGarbage("not-a-cursor", 10));
    assertThat(e.field()).isEqualTo("after");
    assertThat(assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().listGarbage(null, 0)).field()).isEqualTo("limit");
  }

  // --------------------------------------------------------------------------- restoreGarbage

  @Test
  default void restoredRecordsKeepTheirFieldsAndQueueTimeUnderIdsOfThisStore() {
    String b = queueGarbage(1);
    List<GarbageRecord> given = foreignRecords();
    assertThat(store().restoreGarbage(given)).isEqualTo(4);
    GarbageClaim old = store().claimGarbage(100, Duration.ofHours(1), LONG_LEASE);
    assertThat(old.records()).as("only the restored records are past an hour's grace period")
        .extracting(this::withoutId).containsExactlyElementsOf(given.stream().map(this::withoutId).toList());
    assertThat(old.records()).extracting(GarbageRecord::id).doesNotHaveDuplicates()
        .doesNotContainAnyElementsOf(given.stream().map(GarbageRecord::id).toList());
    assertThat(store().acknowledgeGarbage(old.claimId(),
        old.records().stream().map(GarbageRecord::id).toList())).isEqualTo(4);
    assertThat(gcQueue()).singleElement().satisfies(r -> assertThat(r.bucket()).isEqualTo(b));
  }

  @Test
  default void restoredRecordsAreClaimedBeforeNewerOnesAndCountInTheStats() {
    queueGarbage(2);
    List<GarbageRecord> given = foreignRecords();
    store().restoreGarbage(given);
    var stats = store().gcQueueStats();
    assertThat(stats.queued()).isEqualTo(6);
    assertThat(stats.oldest()).isEqualTo(LONG_AGO);
    assertThat(stats.bytes()).isEqualTo(1 + 2 + 10 + 4 + 5);
    GarbageClaim c = store().claimGarbage(3, NO_GRACE, LONG_LEASE);
    assertThat(c.records()).extracting(GarbageRecord::deletedAt)
        .containsExactly(LONG_AGO, LONG_AGO.plusMillis(1), LONG_AGO.plusMillis(2));
  }

  @Test
  default void restoringTheSameRecordsAgainAddsNothing() {
    queueGarbage(1);
    List<GarbageRecord> given = foreignRecords();
    assertThat(store().restoreGarbage(given)).isEqualTo(4);
    StoreSnapshot once = snapshot();
    assertThat(store().restoreGarbage(given)).isZero();
    assertThat(store().restoreGarbage(given.subList(1, 3))).isZero();
    assertThat(snapshot()).isEqualTo(once);
    GarbageRecord another = new GarbageRecord("src:o:9", Kind.OBJECT_VERSION, "gone-bucket",
        given.get(0).bucketId(), "z", "null", 0, 1, List.of(), LONG_AGO);
    assertThat(store().restoreGarbage(List.of(given.get(0), another, another))).isEqualTo(1);
    assertThat(store().gcQueueStats().queued()).isEqualTo(6);
  }

  @Test
  default void aClaimedRestoredRecordIsStillKnownWhileQueued() {
    List<GarbageRecord> given = foreignRecords();
    store().restoreGarbage(given);
    GarbageClaim c = store().claimGarbage(100, NO_GRACE, LONG_LEASE);
    assertThat(store().restoreGarbage(given)).as("restoring records under a lease").isZero();
    store().releaseGarbage(c.claimId(), c.records().stream().map(GarbageRecord::id).toList());
    assertThat(new HashSet<>(listAll(10).stream().map(this::withoutId).toList()))
        .containsExactlyInAnyOrderElementsOf(given.stream().map(this::withoutId).toList());
  }

  @Test
  default void malformedRecordsAreRefusedAndNoneIsAdded() {
    queueGarbage(1);
    List<GarbageRecord> given = new ArrayList<>(foreignRecords());
    GarbageRecord r = given.get(0);
    given.set(2, new GarbageRecord(r.id() + "x", Kind.BUCKET, r.bucket(), r.bucketId(), "a-key", null,
        0, 0, List.of(), r.deletedAt()));
    InvalidArgumentException e = assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().restoreGarbage(given));
    assertThat(e.field()).isEqualTo("records[2].key");
    GarbageRecord badBucketId = new GarbageRecord("y", Kind.OBJECT_VERSION, r.bucket(), "nope", "k",
        "null", 0, 1, List.of(), r.deletedAt());
    assertThat(assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().restoreGarbage(List.of(badBucketId))).field()).isEqualTo("records[0].bucketId");
    assertThat(assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().restoreGarbage(List.of())).field()).isEqualTo("records");
  }
}
