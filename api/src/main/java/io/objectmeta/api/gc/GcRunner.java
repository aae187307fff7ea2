package io.objectmeta.api.gc;

import io.objectmeta.api.MetadataStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drains any store's GC queue into a {@link GcSink}: workers claim batches older than the grace
 * period under a lease, hand them to the sink, acknowledge what the sink confirmed and release
 * the rest. A sink failure releases the whole batch (nothing is lost); a worker that dies
 * leaves its claim to expire. It stops when the queue has nothing claimable, when a record or
 * time budget is spent, or on {@link #stop()}, after which claimed but unconfirmed records are
 * released.
 */
public final class GcRunner {
  private static final Logger LOG = LoggerFactory.getLogger(GcRunner.class);

  private final MetadataStore store;
  private final GcSink sink;
  private final int batchSize;
  private final Duration gracePeriod;
  private final Duration lease;
  private final int concurrency;
  private final long maxRecords;
  private final Duration maxTime;
  private final Consumer<Progress> progress;
  private final AtomicBoolean stopped = new AtomicBoolean();

  private final AtomicLong claimed = new AtomicLong();
  private final AtomicLong freed = new AtomicLong();
  private final AtomicLong released = new AtomicLong();
  private final AtomicLong failedBatches = new AtomicLong();
  private final AtomicLong bytesFreed = new AtomicLong();
  private final AtomicLong lost = new AtomicLong();
  /** Renews the leases of batches whose sink is still at work; one per run. */
  private volatile java.util.concurrent.ScheduledExecutorService renewals;

  private GcRunner(Builder b) {
    this.store = Objects.requireNonNull(b.store, "store");
    this.sink = Objects.requireNonNull(b.sink, "sink");
    this.batchSize = b.batchSize;
    this.gracePeriod = b.gracePeriod;
    this.lease = b.lease;
    this.concurrency = b.concurrency;
    this.maxRecords = b.maxRecords;
    this.maxTime = b.maxTime;
    this.progress = b.progress;
  }

  public static Builder builder(MetadataStore store, GcSink sink) {
    return new Builder(store, sink);
  }

  /**
   * Counts of one run, and what a progress listener sees.
   *
   * @param claimed records claimed
   * @param freed records acknowledged: the store has removed them
   * @param released records returned to the queue (a sink failure or refusal, or a stop)
   * @param failedBatches batches the sink failed on
   * @param bytesFreed bytes of the records acknowledged
   * @param lost records whose lease ended before the sink finished (a renewal came too late):
   *     another claim may have handed them to another sink, so they are not acknowledged; they
   *     stay queued for a later run, and their data may have been freed already
   * @param elapsed time since the run began
   */
  public record Progress(long claimed, long freed, long released, long failedBatches,
      long bytesFreed, long lost, Duration elapsed) {}

  /** Asks the workers to stop after their current batch; safe from any thread. */
  public void stop() {
    stopped.set(true);
  }

  /** Runs until the queue has nothing claimable or a limit or stop is reached. */
  public Progress run() {
    long start = System.nanoTime();
    Instant deadline = maxTime == null ? null : Instant.now().plus(maxTime);
    renewals = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "objectmeta-gc-lease");
      t.setDaemon(true);
      return t;
    });
    ExecutorService pool = Executors.newFixedThreadPool(concurrency, r -> {
      Thread t = new Thread(r, "objectmeta-gc");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int i = 0; i < concurrency; i++) {
        workers.add(pool.submit(() -> work(deadline, start)));
      }
      for (Future<?> f : workers) {
        try {
          f.get();
        } catch (java.util.concurrent.ExecutionException e) {
          stop();
          throw asRuntime(e.getCause());
        }
      }
    } catch (InterruptedException e) {
      stop();
      Thread.currentThread().interrupt();
    } finally {
      pool.shutdownNow();
      renewals.shutdownNow();
      try {
        pool.awaitTermination(1, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return snapshot(start);
  }

  private void work(Instant deadline, long start) {
    while (!stopped.get()) {
      if (deadline != null && Instant.now().isAfter(deadline)) {
        return;
      }
      int want = batchSize;
      if (maxRecords > 0) {
        long left = maxRecords - claimed.get();
        if (left <= 0) {
          return;
        }
        want = (int) Math.min(want, left);
      }
      GarbageClaim claim = store.claimGarbage(want, gracePeriod, lease);
      if (claim.isEmpty()) {
        return;
      }
      claimed.addAndGet(claim.records().size());
      handle(claim);
      progress.accept(snapshot(start));
    }
  }

  /**
   * Hands one claim to the sink, renewing its lease every third of it meanwhile, so no other claim
   * gets the records while a lease on them is live. If a renewal finds records gone (it came after
   * the lease ended), the batch is not acknowledged: they may be with another sink already.
   */
  private void handle(GarbageClaim claim) {
    List<GarbageRecord> batch = claim.records();
    List<String> all = ids(batch);
    AtomicBoolean leaseLost = new AtomicBoolean();
    long every = Math.max(1, lease.toMillis() / 3);
    java.util.concurrent.ScheduledFuture<?> renewing = renewals.scheduleWithFixedDelay(() -> {
      try {
        if (!leaseLost.get() && store.renewGarbage(claim.claimId(), all, lease) < all.size()) {
          leaseLost.set(true);
          LOG.warn("GC lease of a batch of {} ended before its sink finished; it will not be"
              + " acknowledged", all.size());
        }
      } catch (RuntimeException e) {
        // Not fatal yet: the lease may outlast this failure, and the next renewal may succeed.
        LOG.warn("could not renew the GC lease of a batch of {}", all.size(), e);
      }
    }, every, every, TimeUnit.MILLISECONDS);
    Set<String> confirmed;
    try {
      confirmed = sink.free(batch);
    } catch (Exception e) {
      renewing.cancel(false);
      LOG.warn("GC sink failed on a batch of {}; releasing it", batch.size(), e);
      failedBatches.incrementAndGet();
      released.addAndGet(store.releaseGarbage(claim.claimId(), all));
      return;
    } finally {
      renewing.cancel(false);
    }
    if (leaseLost.get()) {
      lost.addAndGet(all.size());
      released.addAndGet(store.releaseGarbage(claim.claimId(), all));
      return;
    }
    // One pass: what the sink confirmed (ids outside the batch are ignored) and the rest.
    List<String> ack = new ArrayList<>(batch.size());
    List<String> rest = new ArrayList<>();
    java.util.Map<String, Long> sizes = new java.util.HashMap<>();
    for (GarbageRecord r : batch) {
      if (confirmed != null && confirmed.contains(r.id())) {
        ack.add(r.id());
        sizes.put(r.id(), r.size());
      } else {
        rest.add(r.id());
      }
    }
    if (!ack.isEmpty()) {
      int acknowledged = store.acknowledgeGarbage(claim.claimId(), ack);
      freed.addAndGet(acknowledged);
      if (acknowledged == ack.size()) {
        bytesFreed.addAndGet(sizes.values().stream().mapToLong(Long::longValue).sum());
      } else {
        // The lease ended between the last renewal and the acknowledgement: what was not
        // acknowledged is lost, and the bytes freed are unknown beyond what is surely gone.
        lost.addAndGet(ack.size() - acknowledged);
      }
    }
    if (!rest.isEmpty()) {
      released.addAndGet(store.releaseGarbage(claim.claimId(), rest));
    }
  }

  private static List<String> ids(List<GarbageRecord> batch) {
    List<String> ids = new ArrayList<>(batch.size());
    for (GarbageRecord r : batch) {
      ids.add(r.id());
    }
    return ids;
  }

  private Progress snapshot(long start) {
    return new Progress(claimed.get(), freed.get(), released.get(), failedBatches.get(),
        bytesFreed.get(), lost.get(), Duration.ofNanos(System.nanoTime() - start));
  }

  private static RuntimeException asRuntime(Throwable t) {
    return t instanceof RuntimeException r ? r : new IllegalStateException(t);
  }

  /** Configures a {@link GcRunner}. */
  public static final class Builder {
    private final MetadataStore store;
    private final GcSink sink;
    private int batchSize = 100;
    private Duration gracePeriod = Duration.ofHours(1);
    private Duration lease = Duration.ofMinutes(5);
    private int concurrency = 1;
    private long maxRecords;
    private Duration maxTime;
    private Consumer<Progress> progress = p -> {};

    private Builder(MetadataStore store, GcSink sink) {
      this.store = store;
      this.sink = sink;
    }

    /** Records per claim, 1 to 10000 (default 100). */
    public Builder batchSize(int v) {
      if (v < 1 || v > 10_000) {
        throw new IllegalArgumentException("batchSize must be 1 to 10000: " + v);
      }
      batchSize = v;
      return this;
    }

    /** Only records queued at least this long ago (default 1 hour). */
    public Builder gracePeriod(Duration v) {
      io.objectmeta.api.validation.Validation.gracePeriod("gracePeriod", v);
      gracePeriod = v;
      return this;
    }

    /** How long a claim holds before its records return to the queue (default 5 minutes). */
    public Builder lease(Duration v) {
      io.objectmeta.api.validation.Validation.lease("lease", v);
      lease = v;
      return this;
    }

    /** Workers claiming in parallel (default 1). */
    public Builder concurrency(int v) {
      if (v < 1) {
        throw new IllegalArgumentException("concurrency must be at least 1: " + v);
      }
      concurrency = v;
      return this;
    }

    /** Stop after claiming about this many records (0: no limit). */
    public Builder maxRecords(long v) {
      maxRecords = v;
      return this;
    }

    /** Stop claiming after this long (null: no limit). */
    public Builder maxTime(Duration v) {
      if (v != null) {
        io.objectmeta.api.validation.Validation.gracePeriod("maxTime", v);
      }
      maxTime = v;
      return this;
    }

    /** Called after each batch with the running counts. */
    public Builder progress(Consumer<Progress> v) {
      progress = Objects.requireNonNull(v);
      return this;
    }

    public GcRunner build() {
      return new GcRunner(this);
    }
  }
}
