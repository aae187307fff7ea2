package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.gc.GcRunner;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The shared GC runner over this store's queue: what it frees, releases and leaves queued. */
@org.junit.jupiter.api.Timeout(60)
public interface GcRunnerContract extends StoreScenario {

  default void queue(int n) {
    String b = newBucket();
    for (int i = 1; i <= n; i++) {
      put(b, "k" + i, "v" + i, i);
      store().deleteObject(b, "k" + i);
    }
  }

  default GcRunner.Builder runner(io.objectmeta.api.gc.GcSink sink) {
    return GcRunner.builder(store(), sink).gracePeriod(Duration.ZERO).lease(Duration.ofMinutes(1));
  }

  @Test
  default void aRunnerDrainsTheQueueIntoTheSink() {
    queue(25);
    Set<String> freed = ConcurrentHashMap.newKeySet();
    GcRunner.Progress p = runner(batch -> {
      Set<String> ids = batch.stream().map(GarbageRecord::id).collect(Collectors.toSet());
      freed.addAll(ids);
      return ids;
    }).batchSize(10).build().run();
    assertThat(p.freed()).isEqualTo(25);
    assertThat(p.claimed()).isEqualTo(25);
    assertThat(p.bytesFreed()).isEqualTo(25 * 26 / 2);
    assertThat(freed).hasSize(25);
    assertThat(store().gcQueueStats().queued()).isZero();
  }

  @Test
  default void aSinkSlowerThanItsLeaseKeepsItsBatchAndASecondRunnerIsHandedNoneOfIt()
      throws Exception {
    queue(6);
    Duration lease = Duration.ofMillis(1500);
    List<String> handed = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    java.util.concurrent.CountDownLatch working = new java.util.concurrent.CountDownLatch(1);
    GcRunner slow = GcRunner.builder(store(), batch -> {
      Set<String> ids = batch.stream().map(GarbageRecord::id).collect(Collectors.toSet());
      handed.addAll(ids);
      working.countDown();
      Thread.sleep(lease.toMillis() * 3); // three leases: it lives on renewals
      return ids;
    }).gracePeriod(Duration.ZERO).lease(lease).batchSize(6).build();
    GcRunner.Progress[] first = new GcRunner.Progress[1];
    Thread t = new Thread(() -> first[0] = slow.run());
    t.start();
    assertThat(working.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    // Another process's runner, on a store of its own where the backend has one, keeps trying
    // while the slow sink works.
    io.objectmeta.api.MetadataStore other = fixture().openPeer(store()).orElse(store());
    long claimedByOther = 0;
    try {
      while (t.isAlive()) {
        claimedByOther += GcRunner.builder(other, batch -> {
          Set<String> ids = batch.stream().map(GarbageRecord::id).collect(Collectors.toSet());
          handed.addAll(ids);
          return ids;
        }).gracePeriod(Duration.ZERO).lease(lease).build().run().claimed();
        Thread.sleep(100);
      }
    } finally {
      if (other != store()) {
        other.close();
      }
    }
    t.join();
    assertThat(handed).as("records handed to a sink").hasSize(6).doesNotHaveDuplicates();
    assertThat(claimedByOther).isZero();
    assertThat(first[0].freed()).isEqualTo(6);
    assertThat(first[0].lost()).isZero();
    assertThat(store().gcQueueStats().queued()).isZero();
  }

  @Test
  default void aBatchWhoseLeaseWasLostIsNotAcknowledgedAndTheCountsSaySo() {
    queue(4);
    // A store whose renewals all come too late: the lease of the batch ends under the sink.
    io.objectmeta.api.MetadataStore late = (io.objectmeta.api.MetadataStore)
        java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {io.objectmeta.api.MetadataStore.class}, (proxy, m, args) -> {
              if (m.getName().equals("renewGarbage")) {
                return 0;
              }
              try {
                return m.invoke(store(), args);
              } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
              }
            });
    Duration lease = Duration.ofMillis(300);
    GcRunner.Progress p = GcRunner.builder(late, batch -> {
      Thread.sleep(lease.toMillis() * 3);
      return batch.stream().map(GarbageRecord::id).collect(Collectors.toSet());
    }).gracePeriod(Duration.ZERO).lease(lease).batchSize(4).maxRecords(4).build().run();
    assertThat(p.claimed()).isEqualTo(4);
    assertThat(p.lost()).isEqualTo(4);
    assertThat(p.freed()).isZero();
    assertThat(p.bytesFreed()).isZero();
    assertThat(store().gcQueueStats().queued()).as("still queued for a later run").isEqualTo(4);
  }

  @Test
  default void concurrentWorkersFreeEachRecordOnce() {
    queue(40);
    List<String> freed = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    GcRunner.Progress p = runner(batch -> {
      Set<String> ids = batch.stream().map(GarbageRecord::id).collect(Collectors.toSet());
      freed.addAll(ids);
      return ids;
    }).batchSize(3).concurrency(4).build().run();
    assertThat(freed).hasSize(40).doesNotHaveDuplicates();
    assertThat(p.freed()).isEqualTo(40);
    assertThat(store().gcQueueStats().queued()).isZero();
  }

  @Test
  default void unconfirmedRecordsAreReleasedNotLost() {
    queue(6);
    GcRunner.Progress p = runner(batch -> batch.stream().filter(r -> r.size() % 2 == 0)
        .map(GarbageRecord::id).collect(Collectors.toSet()))
        .batchSize(100).maxRecords(6).build().run();
    assertThat(p.freed()).isEqualTo(3);
    assertThat(p.released()).isEqualTo(3);
    assertThat(store().gcQueueStats().leased()).isZero();
    assertThat(gcQueue()).extracting(GarbageRecord::size).containsExactlyInAnyOrder(1L, 3L, 5L);
  }

  @Test
  default void aFailingSinkLeavesEverythingQueued() {
    queue(5);
    GcRunner.Progress p = runner(batch -> {
      throw new java.io.IOException("data store down");
    }).batchSize(100).maxRecords(5).build().run();
    assertThat(p.failedBatches()).isEqualTo(1);
    assertThat(p.freed()).isZero();
    assertThat(p.released()).isEqualTo(5);
    assertThat(store().gcQueueStats().queued()).isEqualTo(5);
    assertThat(store().gcQueueStats().leased()).isZero();
  }

  @Test
  default void stopEndsTheRunAfterTheCurrentBatch() {
    queue(10);
    GcRunner[] holder = new GcRunner[1];
    Set<String> freed = new HashSet<>();
    holder[0] = runner(batch -> {
      holder[0].stop();
      Set<String> ids = batch.stream().map(GarbageRecord::id).collect(Collectors.toSet());
      freed.addAll(ids);
      return ids;
    }).batchSize(2).build();
    GcRunner.Progress p = holder[0].run();
    assertThat(p.freed()).isEqualTo(2);
    assertThat(freed).hasSize(2);
    assertThat(store().gcQueueStats().queued()).isEqualTo(8);
    assertThat(store().gcQueueStats().leased()).isZero();
  }

  @Test
  default void theRunnerRespectsTheGracePeriod() {
    queue(3);
    GcRunner.Progress p = runner(batch -> Set.of()).gracePeriod(Duration.ofHours(1)).maxRecords(3)
        .build().run();
    assertThat(p.claimed()).isZero();
    assertThat(store().gcQueueStats().queued()).isEqualTo(3);
  }

  @Test
  default void maxRecordsBoundsARun() {
    queue(10);
    GcRunner.Progress p = runner(batch -> batch.stream().map(GarbageRecord::id).collect(Collectors.toSet()))
        .batchSize(4).maxRecords(5).build().run();
    assertThat(p.freed()).isEqualTo(5);
    assertThat(store().gcQueueStats().queued()).isEqualTo(5);
  }

  @Test
  default void recordsTheSinkReportsOutsideTheBatchAreIgnored() {
    queue(2);
    GcRunner.Progress p = runner(batch -> Set.of("not-in-the-batch"))
        .batchSize(100).maxRecords(2).build().run();
    assertThat(p.freed()).isZero();
    assertThat(store().gcQueueStats().queued()).isEqualTo(2);
  }
}
