package io.objectmeta.bigtable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The hot-row cache on its own: coalescing, own writes, failures. */
class BucketCacheTest {

  @Test
  void concurrentReadsOfAnUncachedRowShareOneLoad() throws Exception {
    BucketCache<String> cache = new BucketCache<>(Duration.ofMinutes(1));
    CountDownLatch inLoader = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger loads = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<String>> got = new ArrayList<>();
      got.add(pool.submit(() -> cache.get("b", n -> {
        loads.incrementAndGet();
        inLoader.countDown();
        await(release);
        return "row";
      })));
      assertThat(inLoader.await(10, TimeUnit.SECONDS)).isTrue();
      for (int i = 0; i < 15; i++) {
        got.add(pool.submit(() -> cache.get("b", n -> {
          loads.incrementAndGet();
          return "another load";
        })));
      }
      release.countDown();
      for (Future<String> f : got) {
        assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo("row");
      }
      assertThat(loads).hasValue(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anOwnWriteReplacesTheEntryEvenWhileAnOlderReadIsInFlight() throws Exception {
    BucketCache<String> cache = new BucketCache<>(Duration.ofMinutes(1));
    CountDownLatch inLoader = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<String> old = pool.submit(() -> cache.get("b", n -> {
        inLoader.countDown();
        await(release);
        return "before the write";
      }));
      assertThat(inLoader.await(10, TimeUnit.SECONDS)).isTrue();
      cache.put("b", "written");
      release.countDown();
      assertThat(old.get(10, TimeUnit.SECONDS)).isEqualTo("before the write");
      assertThat(cache.get("b", n -> "loaded")).isEqualTo("written");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void failuresAreNotCachedAndAnInvalidatedEntryIsLoadedAgain() {
    BucketCache<String> cache = new BucketCache<>(Duration.ofMinutes(1));
    assertThatThrownBy(() -> cache.get("b", n -> {
      throw new IllegalStateException("down");
    })).hasMessage("down");
    assertThat(cache.get("b", n -> "up")).isEqualTo("up");
    assertThat(cache.get("b", n -> "not asked")).isEqualTo("up");
    cache.invalidate("b");
    assertThat(cache.get("b", n -> "again")).isEqualTo("again");
  }

  @Test
  void aZeroTimeToLiveReadsEveryTime() {
    BucketCache<String> cache = new BucketCache<>(Duration.ZERO);
    AtomicInteger loads = new AtomicInteger();
    cache.get("b", n -> "x" + loads.incrementAndGet());
    assertThat(cache.get("b", n -> "x" + loads.incrementAndGet())).isEqualTo("x2");
  }

  private static void await(CountDownLatch l) {
    try {
      l.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
