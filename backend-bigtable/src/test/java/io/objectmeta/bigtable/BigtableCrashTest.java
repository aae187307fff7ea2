package io.objectmeta.bigtable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.bigtable.data.v2.models.Filters;
import com.google.cloud.bigtable.data.v2.models.Query;
import com.google.cloud.bigtable.data.v2.models.Row;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.conformance.CrashKit;
import io.objectmeta.conformance.Sample;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * A process that dies between the steps of a two-row change ({@link CrashKit}: stopped after
 * each step, another process on the same tables reads, lists and repairs, the state settles
 * exactly), and the same for a bucket delete; nothing left behind means no intent in any row and
 * no held GC record.
 */
class BigtableCrashTest {
  private static final BigtableFixture FIXTURE = new BigtableFixture();

  /** The protocol each write follows here. */
  private static final Map<String, Consumer<List<String>>> STEPS = Map.of(
      "versioned put", s -> assertThat(s).containsExactly("commit", "usage", "master", "clear"),
      "delete of the latest version", s -> assertThat(s)
          .containsExactly("commit", "usage", "garbage", "master", "clear", "release"),
      "multipart completion", s -> assertThat(s).contains("deletes"));

  private static final CrashKit<BigtableMetadataStore> KIT = new CrashKit<>(
      new CrashKit.Subject<>(FIXTURE::openStore,
          crashed -> new BigtableMetadataStore(BigtableFixture.clients().data(),
              BigtableFixture.clients().admin(), false, crashed.config()),
          BigtableMetadataStore::setStepHook, s -> s.repair(Duration.ZERO),
          BigtableCrashTest::assertNothingLeft, FIXTURE::close, "release"));

  /** No intent in any row, no held GC record. */
  private static void assertNothingLeft(BigtableMetadataStore store, String where) {
    List<String> tables = store.tables();
    for (Row r : rows(tables.get(1), "i")) {
      throw new AssertionError(where + ": an intent left in " + r.getKey().toStringUtf8());
    }
    for (Row r : rows(tables.get(2), "h")) {
      throw new AssertionError(where + ": a held GC record left: " + r.getKey().toStringUtf8());
    }
  }

  /** The rows of {@code table} whose cell m:{@code qualifier} is set. */
  private static Iterable<Row> rows(String table, String qualifier) {
    return BigtableFixture.clients().data().readRows(Query.create(table)
        .filter(Filters.FILTERS.chain().filter(Filters.FILTERS.family().exactMatch("m"))
            .filter(Filters.FILTERS.qualifier().exactMatch(qualifier)).filter(Bt.NOT_EMPTY)));
  }

  @TestFactory
  Stream<DynamicTest> everyWriteStoppedAfterAnyStepConverges() {
    return CrashKit.scenarios().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
      List<String> steps = KIT.crashAfterEachStep(s);
      STEPS.getOrDefault(s.name(), x -> {}).accept(steps);
    }));
  }

  /**
   * A bucket delete is ordered (close the counters, queue its records held, remove the bucket
   * row, release): stopped before the bucket row goes, the repair rolls it back (the bucket is
   * there and takes writes, nothing of it is queued); after, it rolls it forward (the bucket is
   * gone, its record queued once).
   */
  @Test
  void aBucketDeleteStoppedAfterAnyStepEndsDeletedOrUntouched() {
    Consumer<BigtableMetadataStore> setup = s -> s.createBucket("bkt", "owner", null);
    Consumer<BigtableMetadataStore> write = s -> s.deleteBucket("bkt");
    List<String> steps = KIT.steps(setup, write);
    assertThat(steps).containsExactly("close", "garbage", "bucket", "release");
    for (int stop = 1; stop <= steps.size(); stop++) {
      String where = "stopped after step " + stop + " (" + steps.get(stop - 1) + ")";
      boolean rolledBack = stop < steps.indexOf("bucket") + 1;
      KIT.crashAt(stop, setup, write, next -> {
        next.repair(Duration.ZERO);
        GarbageClaim c = next.claimGarbage(100, Duration.ZERO, Duration.ofMinutes(1));
        if (rolledBack) {
          assertThat(c.records()).as(where).isEmpty();
          next.putObject("bkt", "k", Sample.object("after"));
          assertThat(next.getObject("bkt", "k").metadata().etag()).as(where)
              .isEqualTo(CrashKit.etag("after"));
        } else {
          assertThatThrownBy(() -> next.getBucket("bkt")).as(where)
              .isInstanceOf(NoSuchBucketException.class);
          assertThat(c.records()).as(where).extracting(GarbageRecord::kind)
              .containsExactly(GarbageRecord.Kind.BUCKET);
        }
        assertNothingLeft(next, where);
      });
    }
  }
}
