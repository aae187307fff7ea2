package io.objectmeta.api.spi;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store's background repair: runs {@code repair} on a daemon thread at once (a process that
 * restarts after a crash finishes what it left) and then every {@code interval} after the last
 * round ended. A round that repaired something says so (INFO, with how many); a round that fails
 * is logged (WARN, with the store and the cause) and dropped: the next one tries again, and a
 * store that cannot reach its database says so on use. Closing stops it and waits for a running
 * round. What it did so far is readable ({@link #rounds()}, {@link #repaired()},
 * {@link #failedRounds()}, {@link #lastFailure()}).
 */
public final class BackgroundRepair implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BackgroundRepair.class);

  private final ScheduledExecutorService executor;
  private final AtomicLong rounds = new AtomicLong();
  private final AtomicLong repaired = new AtomicLong();
  private final AtomicLong failedRounds = new AtomicLong();
  private final AtomicReference<RuntimeException> lastFailure = new AtomicReference<>();

  private BackgroundRepair(String threadName, String store, Duration interval, IntSupplier repair) {
    executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
    executor.scheduleWithFixedDelay(() -> {
      try {
        int n = repair.getAsInt();
        repaired.addAndGet(n);
        if (n > 0) {
          LOG.info("repair of {}: finished {} write(s) left half-done", store, n);
        }
      } catch (RuntimeException e) {
        failedRounds.incrementAndGet();
        lastFailure.set(e);
        LOG.warn("repair of {}: a round failed, the next one tries again in {}", store, interval, e);
      } finally {
        rounds.incrementAndGet();
      }
    }, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Starts it: the first round now, on a thread named {@code threadName}.
   *
   * @param store the store, for log lines (no credentials)
   * @param repair one round; returns how many things it repaired
   */
  public static BackgroundRepair start(String threadName, String store, Duration interval,
      IntSupplier repair) {
    return new BackgroundRepair(threadName, store, interval, repair);
  }

  /** Rounds ended so far, failed ones included. */
  public long rounds() {
    return rounds.get();
  }

  /** What the rounds repaired, in all. */
  public long repaired() {
    return repaired.get();
  }

  /** Rounds that failed. */
  public long failedRounds() {
    return failedRounds.get();
  }

  /** The cause of the last failed round, or null. */
  public RuntimeException lastFailure() {
    return lastFailure.get();
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
