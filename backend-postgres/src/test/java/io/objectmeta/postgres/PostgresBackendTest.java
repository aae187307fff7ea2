package io.objectmeta.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.MetadataStores;
import io.objectmeta.api.error.InternalErrorException;
import io.objectmeta.api.error.ServiceUnavailableException;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.listing.ListVersionsRequest;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectVersion;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What only PostgreSQL can get wrong: HOT updates, SKIP LOCKED claims, races, crashes, schema. */
class PostgresBackendTest {

  private static ObjectMetadata meta(int i) {
    return ObjectMetadata.builder().size(100 + i).etag("etag-" + i).build();
  }

  private static Connection jdbc(PostgresMetadataStore store) throws Exception {
    PostgresConfig c = store.config();
    return DriverManager.getConnection(c.jdbcUrl(), c.user(), c.password());
  }

  @Test
  void overwritesOfAKeyAreHotUpdates() throws Exception {
    try (PostgresMetadataStore store = PostgresTestDatabase.openFresh()) {
      store.createBucket("hot", "o", null);
      int writes = 300;
      for (int i = 0; i < writes; i++) {
        store.putObject("hot", "k" + (i % 3), meta(i));
      }
      long[] stats = {0, 0};
      try (Connection c = jdbc(store); Statement st = c.createStatement()) {
        // Backends report table statistics when idle (at most once a second): wait for them.
        io.objectmeta.conformance.Polling.until("statistics of object_live to count the overwrites", () -> {
          try (ResultSet rs = st.executeQuery("SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables"
              + " WHERE schemaname = '" + store.config().schema() + "' AND relname = 'object_live'")) {
            rs.next();
            stats[0] = rs.getLong(1);
            stats[1] = rs.getLong(2);
            return stats[0] >= writes - 3;
          } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
          }
        });
      }
      assertThat(stats[0]).as("updates of object_live").isGreaterThanOrEqualTo(writes - 3);
      assertThat(stats[1]).as("HOT updates of object_live out of %d", stats[0])
          .isGreaterThanOrEqualTo(stats[0] * 9 / 10);
    }
  }

  @Test
  void twoGcWorkersNeverClaimTheSameRecord() throws Exception {
    try (PostgresMetadataStore store = PostgresTestDatabase.openFresh()) {
      store.createBucket("gc-bucket", "o", null);
      int records = 400;
      for (int i = 0; i <= records; i++) {
        store.putObject("gc-bucket", "k" + (i % 7 == 0 ? 0 : i % 50), meta(i));
      }
      long queued = store.gcQueueStats().queued();
      assertThat(queued).isGreaterThan(300);
      List<String> seen = Collections.synchronizedList(new ArrayList<>());
      CyclicBarrier start = new CyclicBarrier(2);
      ExecutorService pool = Executors.newFixedThreadPool(2);
      List<Future<?>> workers = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        workers.add(pool.submit(() -> {
          start.await();
          while (true) {
            GarbageClaim claim = store.claimGarbage(7, Duration.ZERO, Duration.ofMinutes(5));
            if (claim.isEmpty()) {
              return null;
            }
            List<String> ids = claim.records().stream().map(GarbageRecord::id).toList();
            seen.addAll(ids);
            assertThat(store.acknowledgeGarbage(claim.claimId(), ids)).isEqualTo(ids.size());
          }
        }));
      }
      for (Future<?> f : workers) {
        f.get(2, TimeUnit.MINUTES);
      }
      pool.shutdown();
      assertThat(new HashSet<>(seen)).hasSize(seen.size());
      assertThat((long) seen.size()).isEqualTo(queued);
      assertThat(store.gcQueueStats().queued()).isZero();
    }
  }

  /** Puts {@code versions} objects over one key of an unversioned bucket: versions - 1 records. */
  private static void fillQueue(MetadataStore store, String bucket, int versions) {
    store.createBucket(bucket, "o", null);
    for (int i = 0; i < versions; i++) {
      store.putObject(bucket, "k", meta(i));
    }
  }

  /** Rows of a table in the store's schema, counted by SQL. */
  private static long rows(PostgresMetadataStore store, String table) throws Exception {
    try (Connection c = jdbc(store); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM " + store.config().schema() + "." + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The row versions (xmin) of the queue's records: a write to a row changes its xmin. */
  private static List<String> queueRowVersions(PostgresMetadataStore store) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = jdbc(store); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT id, xmin FROM " + store.config().schema()
            + ".deleted_object ORDER BY id")) {
      while (rs.next()) {
        out.add(rs.getLong(1) + "@" + rs.getString(2));
      }
    }
    return out;
  }

  @Test
  void aClaimWritesOneLeaseRowAndNoRecordUntilTheAcknowledgementDeletesThem() throws Exception {
    try (PostgresMetadataStore store = PostgresTestDatabase.openFresh()) {
      fillQueue(store, "gc-lease", 31);
      List<String> before = queueRowVersions(store);
      assertThat(before).hasSize(30);
      GarbageClaim claim = store.claimGarbage(20, Duration.ZERO, Duration.ofMinutes(5));
      assertThat(claim.records()).hasSize(20);
      // One write for the batch; the records are not rewritten (the old design updated each).
      assertThat(queueRowVersions(store)).isEqualTo(before);
      assertThat(rows(store, "gc_lease")).isEqualTo(1);
      assertThat(store.gcQueueStats().queued()).isEqualTo(30);
      assertThat(store.gcQueueStats().leased()).isEqualTo(20);
      GarbageClaim other = store.claimGarbage(20, Duration.ZERO, Duration.ofMinutes(5));
      assertThat(other.records()).hasSize(10).doesNotContainAnyElementsOf(claim.records());
      List<String> ids = claim.records().stream().map(GarbageRecord::id).toList();
      assertThat(store.acknowledgeGarbage(claim.claimId(), ids)).isEqualTo(20);
      assertThat(rows(store, "deleted_object")).isEqualTo(10);
      assertThat(rows(store, "gc_lease")).isEqualTo(1);
      assertThat(store.gcQueueStats().queued()).isEqualTo(10);
      assertThat(store.acknowledgeGarbage(claim.claimId(), ids)).as("a second acknowledgement").isZero();
    }
  }

  @Test
  void partOfABatchIsAcknowledgedAndTheRestReturnsWithItsIdsAndQueueTimes() throws Exception {
    try (PostgresMetadataStore store = PostgresTestDatabase.openFresh()) {
      fillQueue(store, "gc-part", 11);
      GarbageClaim claim = store.claimGarbage(10, Duration.ZERO, Duration.ofMinutes(5));
      List<GarbageRecord> recs = claim.records();
      List<String> first = recs.subList(0, 4).stream().map(GarbageRecord::id).toList();
      List<String> rest = recs.subList(4, 10).stream().map(GarbageRecord::id).toList();
      // An id of no claim and one acknowledged twice count for nothing.
      List<String> ack = new ArrayList<>(first);
      ack.add("o:" + recs.get(0).bucketId() + ":999999");
      ack.add(first.get(0));
      assertThat(store.acknowledgeGarbage(claim.claimId(), ack)).isEqualTo(4);
      assertThat(store.gcQueueStats().leased()).isEqualTo(6);
      assertThat(store.releaseGarbage(claim.claimId(), rest.subList(0, 3))).isEqualTo(3);
      assertThat(store.releaseGarbage(claim.claimId(), rest.subList(3, 6))).isEqualTo(3);
      assertThat(rows(store, "gc_lease")).as("an emptied lease row").isZero();
      GarbageClaim again = store.claimGarbage(10, Duration.ZERO, Duration.ofMinutes(5));
      assertThat(again.records()).containsExactlyElementsOf(recs.subList(4, 10));
    }
  }

  @Test
  void anExpiredLeaseIsPutBackByTheNextClaimAndItsHolderCanNoLongerAcknowledge() throws Exception {
    try (PostgresMetadataStore store = PostgresTestDatabase.openFresh()) {
      fillQueue(store, "gc-expire", 6);
      GarbageClaim dead = store.claimGarbage(10, Duration.ZERO, Duration.ofMillis(200));
      assertThat(dead.records()).hasSize(5);
      io.objectmeta.conformance.Polling.until("the lease to expire",
          () -> store.gcQueueStats().leased() == 0);
      // The next claim puts the batch back in the queue and takes it.
      GarbageClaim next = store.claimGarbage(10, Duration.ZERO, Duration.ofMinutes(5));
      assertThat(next.records()).containsExactlyElementsOf(dead.records());
      List<String> ids = dead.records().stream().map(GarbageRecord::id).toList();
      assertThat(store.acknowledgeGarbage(dead.claimId(), ids)).isZero();
      assertThat(store.acknowledgeGarbage(next.claimId(), ids)).isEqualTo(5);
      assertThat(store.gcQueueStats().queued()).isZero();
    }
  }

  private static List<String> schemasLike(String prefix) throws Exception {
    List<String> out = new ArrayList<>();
    URI u = URI.create(PostgresTestDatabase.url());
    PostgresConfig c = PostgresConfig.from(u, Map.of());
    try (Connection conn = DriverManager.getConnection(c.jdbcUrl(), c.user(), c.password());
        Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery("SELECT schema_name FROM information_schema.schemata"
            + " WHERE schema_name LIKE '" + prefix + "%' ORDER BY 1")) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  @Test
  void aScratchSpaceOpensEmptySchemasOfItsOwnAndDropsThemAllOnClose() throws Exception {
    String base = "verify" + ProcessHandle.current().pid();
    try (io.objectmeta.api.spi.ScratchSpace space =
        MetadataStores.scratch(PostgresTestDatabase.url() + "?schema=" + base, Map.of())) {
      assertThat(space.describe()).contains(base + "_scratch_").doesNotContain("password");
      try (MetadataStore a = space.open(); MetadataStore b = space.open()) {
        a.createBucket("only-in-a", "o", null);
        assertThat(b.listBuckets(io.objectmeta.api.listing.ListBucketsRequest.all()).buckets()).isEmpty();
        assertThat(a.listBuckets(io.objectmeta.api.listing.ListBucketsRequest.all()).buckets()).hasSize(1);
      }
      assertThat(schemasLike(base + "_scratch_")).hasSize(2);
    }
    assertThat(schemasLike(base)).as("scratch schemas left after close").isEmpty();
  }

  @Test
  void aScratchRunThatDiedIsRemovedByTheNextAndALiveOneIsNot() throws Exception {
    String base = "sweep" + ProcessHandle.current().pid();
    String uri = PostgresTestDatabase.url() + "?schema=" + base;
    PostgresConfig c = PostgresConfig.from(URI.create(PostgresTestDatabase.url()), Map.of());
    try (Connection conn = DriverManager.getConnection(c.jdbcUrl(), c.user(), c.password());
        Statement st = conn.createStatement()) {
      // what a verify killed with kill -9 leaves: its schemas, and no session holding its lock
      st.execute("CREATE SCHEMA " + base + "_scratch_deadbeef_1");
      st.execute("CREATE TABLE " + base + "_scratch_deadbeef_1.t (x int)");
      st.execute("CREATE SCHEMA " + base + "_scratch_deadbeef_2");
    }
    try (var live = (io.objectmeta.api.spi.SweepingScratchSpace) MetadataStores.scratch(uri, Map.of())) {
      live.open().close();
      assertThat(live.removedRuns()).isEqualTo(1);
      assertThat(schemasLike(base + "_scratch_deadbeef")).isEmpty();
      try (var next = (io.objectmeta.api.spi.SweepingScratchSpace) MetadataStores.scratch(uri, Map.of())) {
        next.open().close();
        assertThat(next.removedRuns()).as("a live run is left alone").isZero();
        assertThat(schemasLike(base + "_scratch_")).hasSize(2);
      }
      assertThat(schemasLike(base + "_scratch_")).hasSize(1);
    }
    assertThat(schemasLike(base)).isEmpty();
  }

  @Test
  void aConnectionKilledInTheMiddleOfAPutLeavesTheOldVersion() throws Exception {
    try (PostgresMetadataStore store = PostgresTestDatabase.openFresh()) {
      store.createBucket("crash", "o", null);
      ObjectVersion old = store.putObject("crash", "k", meta(1));
      long gcBefore = store.gcQueueStats().queued();
      // killed with its locks held and the history read: the write and its commit are one round
      // trip, so this is the last moment the transaction is open
      CountDownLatch written = new CountDownLatch(1);
      CountDownLatch killed = new CountDownLatch(1);
      int[] pid = new int[1];
      store.hook = (step, h) -> {
        if (step.equals("locked")) {
          try (Statement st = h.createStatement();
              ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            pid[0] = rs.getInt(1);
          } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
          }
          written.countDown();
          try {
            killed.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      };
      ExecutorService pool = Executors.newSingleThreadExecutor();
      Future<ObjectVersion> put = pool.submit(() -> store.putObject("crash", "k", meta(2)));
      assertThat(written.await(30, TimeUnit.SECONDS)).isTrue();
      try (Connection c = jdbc(store); Statement st = c.createStatement()) {
        st.execute("SELECT pg_terminate_backend(" + pid[0] + ")");
      }
      killed.countDown();
      assertThatThrownBy(() -> {
        try {
          put.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
          throw e.getCause();
        }
      }).isInstanceOf(ServiceUnavailableException.class);
      pool.shutdown();
      store.hook = (step, h) -> {};
      assertThat(store.getObject("crash", "k").versionId()).isEqualTo(old.versionId());
      assertThat(store.getObject("crash", "k").metadata()).isEqualTo(old.metadata());
      assertThat(store.gcQueueStats().queued()).isEqualTo(gcBefore);
      assertThat(store.bucketUsage("crash").currentObjects()).isEqualTo(1);
      assertThat(store.bucketUsage("crash").currentBytes()).isEqualTo(old.size());
      ObjectVersion fresh = store.putObject("crash", "k", meta(3));
      assertThat(store.getObject("crash", "k")).isEqualTo(fresh);
    }
  }

  @Test
  void concurrentFirstInsertsOfAKeyLoseNoArchiveRecord() throws Exception {
    try (PostgresMetadataStore store = PostgresTestDatabase.openFresh()) {
      assertThat(raceFirstInserts(store, "race-locked")).isTrue();
    }
  }

  @Test
  void concurrentSpeculatedFirstWritesOfAKeyLoseNoArchiveRecord() throws Exception {
    // The store knows the bucket, so each writer first tries the one-round-trip write of a new
    // key: one of them holds, the others find a history and fall back to the full write.
    try (PostgresMetadataStore store = PostgresTestDatabase.openFresh()) {
      List<String> buckets = List.of("spec-unversioned", "spec-versioned");
      for (String bucket : buckets) {
        store.createBucket(bucket, "o", null);
        if (bucket.endsWith("-versioned")) {
          store.updateBucket(bucket, io.objectmeta.api.model.BucketUpdate.versioning(
              io.objectmeta.api.model.VersioningState.ENABLED));
        }
        store.putObject(bucket, "known", meta(0)); // the full write: the store sees the bucket
        long held = store.keys.firstWritesHeld();
        store.putObject(bucket, "new", meta(0));
        assertThat(store.keys.firstWritesHeld()).as("a new key's put in a known bucket")
            .isEqualTo(held + 1);
      }
      for (String bucket : buckets) {
        int writers = 8;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Future<ObjectVersion>> puts = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
          int n = i + 1;
          puts.add(pool.submit(() -> {
            go.await();
            return store.putObject(bucket, "k", meta(n));
          }));
        }
        go.countDown();
        List<String> ids = new ArrayList<>();
        for (Future<ObjectVersion> f : puts) {
          ids.add(f.get(2, TimeUnit.MINUTES).versionId());
        }
        pool.shutdown();
        long records = Walk.gc(store).stream().filter(r -> bucket.equals(r.bucket())).count();
        List<String> stored = store.listObjectVersions(ListVersionsRequest.of(bucket)).versions()
            .stream().filter(v -> v.key().equals("k")).map(ObjectVersion::versionId).toList();
        if (bucket.endsWith("-versioned")) {
          assertThat(stored).as("every put is a version").containsExactlyInAnyOrderElementsOf(ids);
          assertThat(records).isZero();
          assertThat(store.bucketUsage(bucket).nonCurrentVersions()).isEqualTo(writers - 1);
        } else {
          assertThat(stored).hasSize(1);
          assertThat(records).as("every replaced put is queued").isEqualTo(writers - 1);
        }
        assertThat(store.bucketUsage(bucket).currentObjects()).isEqualTo(3);
      }
    }
  }

  @Test
  void withoutThePerKeyLockTheFirstInsertRaceIsCaught() throws Exception {
    // Proves the test above can fail: the naive write (no per-key lock) breaks the invariant.
    try (PostgresMetadataStore store = PostgresTestDatabase.openFresh()) {
      store.unsafeSkipKeyLock = true;
      boolean allHeld = true;
      for (int round = 0; round < 10 && allHeld; round++) {
        allHeld = raceFirstInserts(store, "race-naive-" + round);
      }
      assertThat(allHeld).as("some round of racing first inserts must break without the lock").isFalse();
    }
  }

  /**
   * Eight writers put a new key at once in an unversioned bucket, all released together inside
   * their transactions. Returns whether the invariant held: one object, and seven GC records.
   */
  private static boolean raceFirstInserts(PostgresMetadataStore store, String bucket) throws Exception {
    int writers = 8;
    store.createBucket(bucket, "o", null);
    CyclicBarrier inside = new CyclicBarrier(writers);
    store.hook = (step, h) -> {
      if (step.equals("locked")) {
        try {
          inside.await(2, TimeUnit.SECONDS);
        } catch (Exception e) {
          // the lock serializes writers: they cannot all be inside at once; go on
        }
      }
    };
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<Future<ObjectVersion>> puts = new ArrayList<>();
    for (int i = 0; i < writers; i++) {
      int n = i;
      puts.add(pool.submit(() -> store.putObject(bucket, "k", meta(n))));
    }
    for (Future<ObjectVersion> f : puts) {
      f.get(2, TimeUnit.MINUTES);
    }
    pool.shutdown();
    store.hook = (step, h) -> {};
    long records = Walk.gc(store).stream().filter(r -> bucket.equals(r.bucket())).count();
    int versions = store.listObjectVersions(ListVersionsRequest.of(bucket)).versions().size();
    return versions == 1 && records == writers - 1
        && store.bucketUsage(bucket).currentObjects() == 1;
  }

  @Test
  void everyOverwriteArchivesTheVersionItReplaces() throws Exception {
    try (PostgresMetadataStore store = PostgresTestDatabase.openFresh()) {
      store.createBucket("archive", "o", null);
      List<String> replaced = new ArrayList<>();
      ObjectVersion last = null;
      for (int i = 0; i < 20; i++) {
        if (last != null) {
          replaced.add(last.metadata().etag());
        }
        last = store.putObject("archive", "k", meta(i));
      }
      List<GarbageRecord> gc = Walk.gc(store);
      assertThat(gc).extracting(GarbageRecord::size)
          .containsExactlyElementsOf(replaced.stream().map(e -> 100L + Integer.parseInt(e.substring(5))).toList());
    }
  }

  @Test
  void migrationsRunTwiceChangeNothing() throws Exception {
    try (PostgresMetadataStore store = PostgresTestDatabase.openFresh()) {
      store.createBucket("kept", "o", null);
      String schema = store.config().schema();
      try (MetadataStore again = MetadataStores.open(PostgresTestDatabase.url(),
          Map.of("schema", schema))) {
        assertThat(again.getBucket("kept").name()).isEqualTo("kept");
        assertThat(again.getUUID()).isEqualTo(store.getUUID());
      }
      try (Connection c = jdbc(store); Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT count(*) FROM " + schema + ".schema_version")) {
        rs.next();
        assertThat(rs.getInt(1)).isEqualTo(Migrations.latest());
      }
    }
  }

  @Test
  void aSchemaNewerThanTheCodeIsRefused() throws Exception {
    try (PostgresMetadataStore store = PostgresTestDatabase.openFresh()) {
      String schema = store.config().schema();
      try (Connection c = jdbc(store); Statement st = c.createStatement()) {
        st.execute("INSERT INTO " + schema + ".schema_version (version) VALUES (999)");
      }
      assertThatThrownBy(() -> MetadataStores.open(PostgresTestDatabase.url(), Map.of("schema", schema)))
          .isInstanceOf(InternalErrorException.class)
          .hasMessageContaining("version 999").hasMessageContaining("newer");
      assertThatThrownBy(() -> MetadataStores.open(PostgresTestDatabase.url(),
          Map.of("schema", schema, "migrate", "false")))
          .isInstanceOf(InternalErrorException.class).hasMessageContaining("version 999");
    }
  }

  @Test
  void anUnreachableDatabaseFailsFastNamingHostAndPort() {
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> MetadataStores.open("postgres://nobody@127.0.0.1:1/none",
        Map.of("connectTimeoutSeconds", "2")))
        .isInstanceOf(ServiceUnavailableException.class)
        .hasMessageContaining("127.0.0.1:1");
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(30));
  }

  @Test
  void theUriCarriesCredentialsSchemaAndPoolSettings() {
    PostgresConfig c = PostgresConfig.from(URI.create(
        "postgresql://u%40x:p%3Aw@db.example:6543/meta?schema=om_1&maxPoolSize=3"), Map.of());
    assertThat(c.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example:6543/meta");
    assertThat(c.user()).isEqualTo("u@x");
    assertThat(c.password()).isEqualTo("p:w");
    assertThat(c.schema()).isEqualTo("om_1");
    assertThat(c.maxPoolSize()).isEqualTo(3);
    assertThatThrownBy(() -> PostgresConfig.from(URI.create("postgres://h/db?schema=Bad-Name"), Map.of()))
        .hasMessageContaining("schema");
  }

  /** Reads the GC queue without changing it: claim everything, then release it. */
  static final class Walk {
    static List<GarbageRecord> gc(MetadataStore store) {
      GarbageClaim c = store.claimGarbage(10_000, Duration.ZERO, Duration.ofMinutes(1));
      Set<String> ids = new HashSet<>();
      c.records().forEach(r -> ids.add(r.id()));
      store.releaseGarbage(c.claimId(), ids);
      return c.records();
    }
  }
}
