package io.objectmeta.bigtable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.MetadataStores;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.PreconditionFailedException;
import io.objectmeta.api.error.ServiceUnavailableException;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.model.WriteCondition;
import io.objectmeta.conformance.Polling;
import io.objectmeta.conformance.Walks;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What is particular to the Bigtable backend: contention, the hot-row cache, its settings. */
class BigtableBackendTest {
  private static final BigtableFixture FIXTURE = new BigtableFixture();

  private static ObjectMetadata counter(long n) {
    return ObjectMetadata.builder().size(n).etag("e" + n)
        .userMetadata(Map.of("n", Long.toString(n))).build();
  }

  /**
   * 16 threads add one to a counter in one object's metadata, each through read → conditional
   * put (if-match on the version read) → retry on a failed condition: no increment is lost, and
   * no thread fails for want of retries inside the store.
   */
  @Test
  void sixteenThreadsIncrementingOneObjectLoseNoUpdate() throws Exception {
    BigtableMetadataStore store = FIXTURE.openStore();
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      store.createBucket("hot", "owner", null);
      store.updateBucket("hot", BucketUpdate.versioning(VersioningState.ENABLED));
      store.putObject("hot", "counter", counter(0));
      int each = 10;
      CountDownLatch start = new CountDownLatch(1);
      ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
      List<Future<Integer>> threads = new ArrayList<>();
      for (int t = 0; t < 16; t++) {
        threads.add(pool.submit(() -> {
          start.await();
          int lostRaces = 0;
          for (int i = 0; i < each; i++) {
            while (true) {
              ObjectVersion cur = store.getObject("hot", "counter");
              long n = Long.parseLong(cur.metadata().userMetadata().get("n"));
              try {
                store.putObject("hot", "counter", counter(n + 1),
                    WriteCondition.ifMatchVersionId(cur.versionId()));
                break;
              } catch (PreconditionFailedException e) {
                lostRaces++;
              } catch (RuntimeException e) {
                failures.add(e);
                throw e;
              }
            }
          }
          return lostRaces;
        }));
      }
      start.countDown();
      int races = 0;
      for (Future<Integer> f : threads) {
        races += f.get(5, TimeUnit.MINUTES);
      }
      assertThat(failures).as("no thread ran out of retries").isEmpty();
      ObjectVersion last = store.getObject("hot", "counter");
      assertThat(last.metadata().userMetadata()).containsEntry("n", Long.toString(16L * each));
      assertThat(Walks.allVersions(store, "hot")).as("one version per increment")
          .hasSize(16 * each + 1);
      assertThat(races).as("the threads did contend").isPositive();
    } finally {
      pool.shutdownNow();
      FIXTURE.close(store);
    }
  }

  /**
   * With a long time to live, the cache still never serves a bucket older than this process's
   * own last write, even with readers hammering the row while it changes.
   */
  @Test
  void theBucketCacheNeverServesAStateOlderThanTheOwnLastWrite() throws Exception {
    BigtableMetadataStore store = FIXTURE.openStore(Map.of("bucketCacheMs", "600000"));
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      store.createBucket("cached", "owner-0", null);
      CountDownLatch stop = new CountDownLatch(1);
      List<Future<?>> readers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        readers.add(pool.submit(() -> {
          while (stop.getCount() > 0) {
            store.getBucket("cached");
            store.putObject("cached", "k", counter(1));
          }
          return null;
        }));
      }
      for (int i = 1; i <= 30; i++) {
        store.updateBucket("cached", BucketUpdate.owner("owner-" + i));
        assertThat(store.getBucket("cached").owner()).isEqualTo("owner-" + i);
        if (i == 15) {
          store.updateBucket("cached", BucketUpdate.versioning(VersioningState.ENABLED));
          // the next put of this process already versions
          String v1 = store.putObject("cached", "versioned", counter(1)).versionId();
          String v2 = store.putObject("cached", "versioned", counter(2)).versionId();
          assertThat(v1).isNotEqualTo(v2).isNotEqualTo("null");
        }
      }
      stop.countDown();
      for (Future<?> f : readers) {
        f.get(1, TimeUnit.MINUTES);
      }
      store.deleteObject("cached", "k");
      Bucket deleted = store.getBucket("cached");
      assertThat(deleted.versioning()).isEqualTo(VersioningState.ENABLED);
    } finally {
      pool.shutdownNow();
      FIXTURE.close(store);
    }
  }

  /** Another process's change shows within the time to live. */
  @Test
  void anotherProcessesChangeShowsWithinTheTimeToLive() {
    BigtableMetadataStore mine = FIXTURE.openStore(Map.of("bucketCacheMs", "200"));
    BigtableMetadataStore other = new BigtableMetadataStore(BigtableFixture.clients().data(),
        BigtableFixture.clients().admin(), false, mine.config());
    try {
      mine.createBucket("shared", "a", null);
      assertThat(mine.getBucket("shared").owner()).isEqualTo("a");
      other.updateBucket("shared", BucketUpdate.owner("b"));
      Polling.until("the other process's owner shows",
          () -> mine.getBucket("shared").owner().equals("b"));
    } finally {
      other.close();
      FIXTURE.close(mine);
    }
  }

  @Test
  void aBadUriIsAnInvalidArgumentNamingTheField() {
    assertThatThrownBy(() -> MetadataStores.open("bigtable://Bad_Project/inst"))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("project");
    assertThatThrownBy(() -> MetadataStores.open("bigtable://proj"))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("instance");
    assertThatThrownBy(() -> MetadataStores.open("bigtable://proj/inst?emulatorHost=nohost"))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("emulatorHost");
    assertThatThrownBy(() -> MetadataStores.open("bigtable://proj/inst?maxRetries=0"))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("maxRetries");
    assertThatThrownBy(() -> MetadataStores.open("bigtable://proj/inst?tablePrefix=a/b"))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("tablePrefix");
  }

  @Test
  void aStoreOpensThroughServiceLoaderAndCreatesItsTables() {
    URI base = BigtableTestEmulator.uri();
    String uri = base + "&tablePrefix=sl" + ProcessHandle.current().pid() + "_";
    try (MetadataStore s = MetadataStores.open(uri)) {
      s.createBucket("via-uri", "owner", null);
      s.putObject("via-uri", "k", counter(3));
      assertThat(s.getObject("via-uri", "k").size()).isEqualTo(3);
      assertThat(s.getUUID()).isEqualTo(s.getUUID());
      for (String t : ((BigtableMetadataStore) s).tables()) {
        BigtableFixture.clients().admin().deleteTable(t);
      }
    }
  }

  @Test
  void withoutCreateTablesAMissingTableIsAConfigurationErrorThatSaysSoAndNoRetryCures() {
    URI base = BigtableTestEmulator.uri();
    try (MetadataStore s = MetadataStores.open(base + "&createTables=false&tablePrefix=none_")) {
      assertThatThrownBy(() -> s.createBucket("bkt", "owner", null))
          .isInstanceOfSatisfying(io.objectmeta.api.error.StoreConfigurationException.class,
              e -> assertThat(e.isRetryable()).isFalse())
          .hasMessageContaining("createTables");
    }
  }

  @Test
  void anUnreachableBigtableIsAServiceUnavailableThatSaysWhere() {
    assertThatThrownBy(() -> MetadataStores.open(
        "bigtable://proj/inst?emulatorHost=127.0.0.1:9&tablePrefix=x_"))
        .isInstanceOf(ServiceUnavailableException.class).hasMessageContaining("bigtable");
  }

  /**
   * A writer that died after its commit holds its key for the lease at most: readers are not held
   * up (the commit is the write), and the next writer waits, then rolls the intent forward and
   * goes on; both writes are there.
   */
  @Test
  void aDeadWritersKeyIsFreeAgainAfterTheLease() {
    BigtableMetadataStore store = FIXTURE.openStore(Map.of("intentLeaseMs", "300"));
    try {
      store.createBucket("busy", "owner", null);
      store.updateBucket("busy", BucketUpdate.versioning(VersioningState.ENABLED));
      store.putObject("busy", "k", counter(1));
      store.setStepHook(step -> {
        throw new IllegalStateException("died after " + step);
      });
      assertThatThrownBy(() -> store.putObject("busy", "k", counter(2)))
          .hasMessageContaining("died after commit");
      store.setStepHook(null);
      assertThat(store.getObject("busy", "k").size()).isEqualTo(2);
      store.putObject("busy", "k", counter(3));
      assertThat(store.getObject("busy", "k").size()).isEqualTo(3);
      assertThat(Walks.allVersions(store, "busy")).extracting(ObjectVersion::size)
          .containsExactly(3L, 2L, 1L);
      assertThat(Walks.allCurrent(store, "busy")).extracting(ObjectVersion::size)
          .containsExactly(3L);
      assertThat(store.bucketUsage("busy").nonCurrentVersions()).isEqualTo(2);
    } finally {
      FIXTURE.close(store);
    }
  }


  /**
   * A key row that never reads whole (it claims more versions than it holds, as a read torn by a
   * concurrent write would): every attempt of a write is lost, and the write ends in the retryable
   * ServiceUnavailable once the store's {@code maxRetries} are spent, saying so; nothing changed.
   */
  @Test
  void aSteadyConflictEndsInServiceUnavailableWithinTheRetryBudget() {
    BigtableMetadataStore store = FIXTURE.openStore(Map.of("maxRetries", "3"));
    Bucket b = store.createBucket("steady", "owner", null);
    ObjectVersion v1 = store.putObject("steady", "k", counter(1));
    BigtableFixture.clients().data().mutateRow(com.google.cloud.bigtable.data.v2.models.RowMutation
        .create(com.google.cloud.bigtable.data.v2.models.TableId.of(store.config().table("objects")),
            new Rows(b.id()).key("k"))
        .setCell(Bt.META, Cells.COUNT, Codec.version(5)));
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> store.putObject("steady", "k", counter(2)))
        .isInstanceOf(ServiceUnavailableException.class)
        .hasMessageStartingWith("bigtable: a key row kept reading torn after 4 attempts in ")
        .hasMessageContaining("(maxRetries 3)");
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
    assertThat(store.getObject("steady", "k").versionId()).isEqualTo(v1.versionId());
  }
}
