package io.objectmeta.api.spi;

import io.objectmeta.api.MetadataStore;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link ScratchSpace} that cleans up after runs that could not: each space is a <em>run</em>
 * with a random id, whose namespaces a backend names from that id, and which shows that it is
 * alive while it lives. Before its first namespace, a run makes itself known as alive and removes
 * every run on the server that is not: a {@code verify} killed with {@code kill -9} leaves its
 * namespaces behind, and the next run removes them.
 *
 * <p>How a run shows it is alive is the backend's: where the database has session locks
 * (PostgreSQL's advisory locks), a lock held for the run's life, which the server lets go of when
 * the process dies; elsewhere a {@linkplain Leased lease}, a time written into a namespace of the
 * run's own and renewed while it lives. The sweep is written once, here.
 */
public abstract class SweepingScratchSpace implements ScratchSpace {
  private static final Logger LOG = LoggerFactory.getLogger(SweepingScratchSpace.class);
  /** Eight lower-case hex digits. */
  public static final Pattern RUN_ID = Pattern.compile("[0-9a-f]{8}");

  private final String run;
  private int namespaces;
  private final java.util.List<MetadataStore> opened = new java.util.ArrayList<>();
  private final java.util.Map<MetadataStore, Integer> namespaceOf = new java.util.IdentityHashMap<>();
  private int removedRuns;
  private boolean begun;
  private boolean closed;

  protected SweepingScratchSpace() {
    byte[] r = new byte[4];
    new SecureRandom().nextBytes(r);
    this.run = HexFormat.of().formatHex(r);
  }

  /** This run's id. */
  protected final String run() {
    return run;
  }

  /** The ids of the runs that have a namespace on the server, this one's included. */
  protected abstract Set<String> runs();

  /** Makes this run known as alive, before its first namespace; until {@link #close()}. */
  protected abstract void begin();

  /** Whether {@code run} (not this one) is dead: it cannot clean up after itself any more. */
  protected abstract boolean abandoned(String run);

  /**
   * Removes every namespace of {@code run}, idempotent, and safe while another run removes the
   * same (a dead run may be swept by two at once). A lease, if the run has one, goes last.
   */
  protected abstract void remove(String run);

  /**
   * A store on namespace {@code n} of this run (1, 2, …): new the first time, what it holds after;
   * opening it again gives another store on the same namespace ({@link #openPeer}).
   */
  protected abstract MetadataStore openNamespace(int n);

  /** Stops showing this run as alive; {@link #remove} of its namespaces follows. */
  protected void end() {}

  /** Lets go of clients the space opened; called once, at the end of {@link #close()}. */
  protected void release() {}

  @Override
  public final synchronized MetadataStore open() {
    if (closed) {
      throw new IllegalStateException("the scratch space is closed");
    }
    if (!begun) {
      begun = true;
      begin();
      sweep();
    }
    MetadataStore store = openNamespace(++namespaces);
    opened.add(store);
    namespaceOf.put(store, namespaces);
    return store;
  }

  /** Opens the namespace of {@code store} again: each backend's openNamespace keeps what is there. */
  @Override
  public final synchronized java.util.Optional<MetadataStore> openPeer(MetadataStore store) {
    Integer n = namespaceOf.get(store);
    return n == null || closed ? java.util.Optional.empty()
        : java.util.Optional.of(openNamespace(n));
  }

  /** How many runs left behind by others were removed when this one began. */
  public final synchronized int removedRuns() {
    return removedRuns;
  }

  private void sweep() {
    for (String other : runs()) {
      if (!other.equals(run) && abandoned(other)) {
        LOG.info("removing the scratch namespaces of run {}: it is not alive any more", other);
        remove(other);
        removedRuns++;
      }
    }
  }

  @Override
  public final synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (begun) {
        // Stores the caller left open would hold their namespaces (and connections) busy.
        for (MetadataStore s : opened) {
          try {
            s.close();
          } catch (RuntimeException e) {
            LOG.warn("could not close a scratch store of run {}", run, e);
          }
        }
        end();
        remove(run);
      }
    } finally {
      release();
    }
  }

  /**
   * Liveness by lease, for databases without session locks: a run writes a time until which it
   * counts as alive into a namespace of its own ({@link #writeLease}), renews it every
   * {@code lease / 3}, and {@link #remove} removes it last; a run whose lease is missing or past
   * is dead. The
   * lease is short so that the next run finds a killed one, and long enough to outlast pauses;
   * hosts whose clocks differ by more than it should not share a deployment for scratch runs.
   */
  public abstract static class Leased extends SweepingScratchSpace {
    public static final Duration LEASE = Duration.ofSeconds(30);
    private final Clock clock;
    private ScheduledExecutorService renewer;

    protected Leased() {
      this(Clock.systemUTC());
    }

    protected Leased(Clock clock) {
      this.clock = clock;
    }

    /** The lease of {@code run}, or empty if it has none. */
    protected abstract Optional<Instant> lease(String run);

    /** Writes (creates or replaces) this run's lease. */
    protected abstract void writeLease(Instant until);

    @Override
    protected final void begin() {
      writeLease(clock.instant().plus(LEASE));
      renewer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "objectmeta-scratch-lease-" + run());
        t.setDaemon(true);
        return t;
      });
      long every = LEASE.toMillis() / 3;
      renewer.scheduleWithFixedDelay(() -> {
        try {
          writeLease(clock.instant().plus(LEASE));
        } catch (RuntimeException e) {
          // The next renewal may work; the lease outlives two missed ones.
          LOG.warn("could not renew the lease of scratch run {}", run(), e);
        }
      }, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    protected final boolean abandoned(String run) {
      Optional<Instant> until = lease(run);
      return until.isEmpty() || until.get().isBefore(clock.instant());
    }

    @Override
    protected final void end() {
      renewer.shutdownNow();
    }
  }
}
