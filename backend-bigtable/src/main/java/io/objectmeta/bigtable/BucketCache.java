package io.objectmeta.bigtable;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The hot bucket rows (every object operation reads one), cached for a short time. Concurrent
 * reads of a row that is not cached share one read (the seed's bundling of hot-row requests).
 * This process's own bucket writes replace or drop the entry when they complete, so it never
 * serves a bucket older than its own last write; another process's change shows after at most
 * the time to live.
 */
final class BucketCache<V> {
  private record Entry<V>(CompletableFuture<V> value, long loaded) {}

  private final ConcurrentHashMap<String, Entry<V>> entries = new ConcurrentHashMap<>();
  private final long ttl;

  BucketCache(Duration ttl) {
    this.ttl = ttl.toNanos();
  }

  /** The cached value, or the loader's (one load at a time per name; failures not cached). */
  V get(String name, Function<String, V> loader) {
    if (ttl == 0) {
      return loader.apply(name);
    }
    while (true) {
      long now = System.nanoTime();
      Entry<V> e = entries.get(name);
      if (e != null && (!e.value().isDone() || now - e.loaded() < ttl)) {
        return join(e.value());
      }
      Entry<V> mine = new Entry<>(new CompletableFuture<>(), now);
      boolean won = e == null ? entries.putIfAbsent(name, mine) == null
          : entries.replace(name, e, mine);
      if (!won) {
        continue;
      }
      try {
        V v = loader.apply(name);
        mine.value().complete(v);
        return v;
      } catch (RuntimeException x) {
        entries.remove(name, mine);
        mine.value().completeExceptionally(x);
        throw x;
      }
    }
  }

  /** This process wrote the row: later reads get {@code v}. */
  void put(String name, V v) {
    if (ttl > 0) {
      entries.put(name, new Entry<>(CompletableFuture.completedFuture(v), System.nanoTime()));
    }
  }

  /** This process removed the row, or found the entry stale. */
  void invalidate(String name) {
    entries.remove(name);
  }

  private static <V> V join(CompletableFuture<V> f) {
    try {
      return f.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw e;
    }
  }
}
