package io.objectmeta.api.spi;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A store's background repair: runs {@code repair} on a daemon thread at once (a process that
 * restarts after a crash finishes what it left) and then every {@code interval} after the last
 * round ended. A round that fails is dropped: the next one tries again, and a store that cannot
 * reach its database says so on use. Closing stops it and waits for a running round.
 */
public final class BackgroundRepair implements AutoCloseable {
  private final ScheduledExecutorService executor;

  private BackgroundRepair(String threadName, Duration interval, Runnable repair) {
    executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
    executor.scheduleWithFixedDelay(() -> {
      try {
        repair.run();
      } catch (RuntimeException e) {
        // the next round tries again
      }
    }, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Starts it: the first round now, on a thread named {@code threadName}. */
  public static BackgroundRepair start(String threadName, Duration interval, Runnable repair) {
    return new BackgroundRepair(threadName, interval, repair);
  }

  /** Stops it; waits up to 10 seconds for a round under way. */
  @Override
  public void close() {
    executor.shutdownNow();
    try {
      executor.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
