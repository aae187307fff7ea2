package io.objectmeta.api.spi;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * The write protocol of a backend without multi-record transactions, written once: read the
 * record that serialises the write (a key's lock or row, an upload), plan the change with the
 * shared rules, record it together with an <em>intent</em> (the steps that follow from it in other
 * records) in one conditional write on that record, apply the intent's steps (each idempotent),
 * clear it. A lost race starts over; an intent found pending belongs to another writer, who is
 * waited for, or, once its {@link IntentLease lease} ran out, taken for dead: its intent is rolled
 * forward by whoever meets it. MongoDB (a lock document, compare-and-set on its sequence) and
 * Bigtable (a key row, check-and-mutate on its version cell) are engines of this loop; JuiceFS's
 * {@code txn} loop over its key-value engines and Iceberg's {@code commit}/{@code doCommit} follow
 * the same split.
 *
 * <p>Bounds: every lost race counts against the {@link RetryPolicy}'s budget, and ends, when it
 * is spent, in the retryable ServiceUnavailable that says how many attempts over how long;
 * waits for another writer (or for a bucket delete to decide) are bounded by the lease's
 * {@link IntentLease#waitLimit()}. No loop of the protocol is unbounded.
 */
public final class IntentProtocol {

  /** What one attempt's conditional write did. */
  public enum Commit {
    /** The change and its intent are recorded: apply the intent. */
    COMMITTED,
    /** The plan changes nothing: done, nothing written. */
    NOTHING,
    /** Another writer changed the record since it was read (or the read was torn): start over. */
    CONFLICT
  }

  /** What applying a committed intent came to. */
  public enum Applied {
    /** Every step ran (or a repairer took the intent over and finishes it). */
    DONE,
    /** The intent was withdrawn before any step took effect (the bucket is being deleted, and
     * the engine waited for it to decide): start over from a fresh read. */
    RESTART
  }

  /**
   * One attempt, over what it read fresh: the engine's side of the protocol. The protocol calls
   * {@link #pendingSince()}, then either {@link #rollForward()} or {@link #commit()} and, when
   * committed, {@link #apply(Waits)}; {@link #result()} is what the write returns.
   *
   * @param <T> what the write returns
   */
  public interface Attempt<T> {
    /**
     * When the intent pending in what was read was recorded (epoch ms), or {@link #NONE}.
     */
    default long pendingSince() {
      return NONE;
    }

    /**
     * Takes over the stale pending intent (a conditional write, so one repairer at a time and
     * its writer's own clear fails) and applies it again.
     */
    default void rollForward() {}

    /** Plans the change with the shared rules (throwing their typed errors) and records it. */
    Commit commit();

    /** Applies the intent that {@link #commit()} recorded. */
    default Applied apply(Waits waits) {
      return Applied.DONE;
    }

    /** What the write returns, after {@link Commit#NOTHING} or {@link Applied#DONE}. */
    T result();
  }

  /** {@link Attempt#pendingSince()} when nothing is pending. */
  public static final long NONE = Long.MIN_VALUE;

  /**
   * The waits of one write (for another writer, for a bucket delete to decide): one clock, so
   * that all of them together stay within the lease's wait limit.
   */
  public final class Waits {
    private final long startNanos = System.nanoTime();
    private int rounds;
    private int conflicts;

    /** Pauses once more, or throws the retryable error once the wait limit has passed. */
    public void pause(String what) {
      retry.await(rounds++, startNanos, lease.waitLimit(), what);
    }

    /** A lost race: pauses, or throws once the retry budget is spent. */
    public void conflict(String what) {
      retry.backoff(conflicts++, startNanos, what);
    }
  }

  private final RetryPolicy retry;
  private final IntentLease lease;
  private final Supplier<StepHook> hook;

  /**
   * @param retry the store's retry policy
   * @param lease the store's intent lease
   * @param hook the store's step hook (tests), read at each step; null when there is none
   */
  public IntentProtocol(RetryPolicy retry, IntentLease lease, Supplier<StepHook> hook) {
    this.retry = Objects.requireNonNull(retry, "retry");
    this.lease = Objects.requireNonNull(lease, "lease");
    this.hook = Objects.requireNonNull(hook, "hook");
  }

  /** A fresh set of waits, for a loop of the engine's own that waits as the protocol does. */
  public Waits waits() {
    return new Waits();
  }

  /**
   * Runs one write to completion.
   *
   * @param what what is written, for messages ("the key", "the upload")
   * @param read a fresh read of the record, as an attempt (each round reads again)
   */
  public <T> T write(String what, Supplier<? extends Attempt<T>> read) {
    Waits waits = new Waits();
    while (true) {
      Attempt<T> a = read.get();
      long since = a.pendingSince();
      if (since != NONE) {
        if (lease.expired(since)) {
          a.rollForward();
        } else {
          waits.pause(what + " stayed busy");
        }
        continue;
      }
      switch (a.commit()) {
        case NOTHING:
          return a.result();
        case CONFLICT:
          waits.conflict(what + " kept changing");
          continue;
        case COMMITTED:
        default:
          step("commit");
          if (a.apply(waits) == Applied.DONE) {
            return a.result();
          }
      }
    }
  }

  /** Calls the step hook (tests that stop a write between its steps). */
  public void step(String name) {
    StepHook h = hook.get();
    if (h != null) {
      h.after(name);
    }
  }
}
