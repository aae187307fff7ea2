package io.objectmeta.api.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.error.ServiceUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The shared write loop, over a scripted engine: what it calls, in what order, and its bounds. */
class IntentProtocolTest {

  private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(1_000_000), ZoneOffset.UTC);

  private final List<String> calls = new ArrayList<>();

  private IntentProtocol protocol(int maxRetries, Duration lease) {
    return new IntentProtocol(new RetryPolicy("test", maxRetries, 1), new IntentLease(lease, CLOCK),
        () -> step -> calls.add("step " + step));
  }

  /** An attempt that finds {@code pending} (or nothing), commits as told and applies as told. */
  private IntentProtocol.Attempt<String> attempt(long pending, IntentProtocol.Commit commit,
      IntentProtocol.Applied applied) {
    return new IntentProtocol.Attempt<>() {
      @Override
      public long pendingSince() {
        calls.add("read");
        return pending;
      }

      @Override
      public void rollForward() {
        calls.add("rollForward");
      }

      @Override
      public IntentProtocol.Commit commit() {
        calls.add("commit " + commit);
        return commit;
      }

      @Override
      public IntentProtocol.Applied apply(IntentProtocol.Waits waits) {
        calls.add("apply " + applied);
        return applied;
      }

      @Override
      public String result() {
        return "done";
      }
    };
  }

  @Test
  void aCommittedWriteStepsAfterItsCommitAndApplies() {
    String r = protocol(3, Duration.ofSeconds(1)).write("the key",
        () -> attempt(IntentProtocol.NONE, IntentProtocol.Commit.COMMITTED,
            IntentProtocol.Applied.DONE));
    assertThat(r).isEqualTo("done");
    assertThat(calls).containsExactly("read", "commit COMMITTED", "step commit", "apply DONE");
  }

  @Test
  void aPlanThatChangesNothingWritesNothing() {
    assertThat(protocol(3, Duration.ofSeconds(1)).write("the key",
        () -> attempt(IntentProtocol.NONE, IntentProtocol.Commit.NOTHING, null)))
        .isEqualTo("done");
    assertThat(calls).containsExactly("read", "commit NOTHING");
  }

  @Test
  void aSteadyConflictEndsInServiceUnavailableWithinTheBudget() {
    AtomicInteger reads = new AtomicInteger();
    assertThatThrownBy(() -> protocol(4, Duration.ofSeconds(1)).write("the key", () -> {
      reads.incrementAndGet();
      return attempt(IntentProtocol.NONE, IntentProtocol.Commit.CONFLICT, null);
    })).isInstanceOf(ServiceUnavailableException.class)
        .hasMessageStartingWith("test: the key kept changing after 5 attempts in ")
        .hasMessageContaining("(maxRetries 4)");
    assertThat(reads).hasValue(5);
    assertThat(calls).doesNotContain("step commit");
  }

  @Test
  void aLostRaceThenAWinReadsAgainAndSucceeds() {
    AtomicInteger reads = new AtomicInteger();
    String r = protocol(4, Duration.ofSeconds(1)).write("the key",
        () -> attempt(IntentProtocol.NONE, reads.getAndIncrement() < 2
            ? IntentProtocol.Commit.CONFLICT : IntentProtocol.Commit.COMMITTED,
            IntentProtocol.Applied.DONE));
    assertThat(r).isEqualTo("done");
    assertThat(reads).hasValue(3);
  }

  @Test
  void anIntentPastItsLeaseIsRolledForwardThenTheWriteGoesOn() {
    long stale = CLOCK.millis() - 2_000;
    AtomicInteger reads = new AtomicInteger();
    protocol(3, Duration.ofSeconds(1)).write("the key",
        () -> attempt(reads.getAndIncrement() == 0 ? stale : IntentProtocol.NONE,
            IntentProtocol.Commit.COMMITTED, IntentProtocol.Applied.DONE));
    assertThat(calls).containsExactly("read", "rollForward", "read", "commit COMMITTED",
        "step commit", "apply DONE");
  }

  @Test
  void aLiveIntentIsWaitedForNotRolledForwardAndTheWaitIsBoundedByTheLease() {
    long live = CLOCK.millis();
    assertThatThrownBy(() -> protocol(1000, Duration.ofMillis(20)).write("the upload",
        () -> attempt(live, IntentProtocol.Commit.COMMITTED, IntentProtocol.Applied.DONE)))
        .isInstanceOf(ServiceUnavailableException.class)
        .hasMessageContaining("the upload stayed busy for").hasMessageContaining("the limit is 40 ms");
    assertThat(calls).isNotEmpty().doesNotContain("rollForward", "commit COMMITTED");
  }

  @Test
  void aWithdrawnIntentStartsOverFromAFreshRead() {
    AtomicInteger reads = new AtomicInteger();
    protocol(3, Duration.ofSeconds(1)).write("the key",
        () -> attempt(IntentProtocol.NONE, IntentProtocol.Commit.COMMITTED,
            reads.getAndIncrement() == 0 ? IntentProtocol.Applied.RESTART
                : IntentProtocol.Applied.DONE));
    assertThat(calls).containsExactly("read", "commit COMMITTED", "step commit", "apply RESTART",
        "read", "commit COMMITTED", "step commit", "apply DONE");
  }

  @Test
  void aTypedErrorOfThePlanEndsTheWriteAtOnce() {
    AtomicInteger reads = new AtomicInteger();
    assertThatThrownBy(() -> protocol(3, Duration.ofSeconds(1)).write("the key", () -> {
      reads.incrementAndGet();
      return new IntentProtocol.Attempt<String>() {
        @Override
        public IntentProtocol.Commit commit() {
          throw NoSuchBucketException.of("b");
        }

        @Override
        public String result() {
          return null;
        }
      };
    })).isInstanceOf(NoSuchBucketException.class).hasMessage("bucket: \"b\" does not exist");
    assertThat(reads).hasValue(1);
  }

  @Test
  void anEnginesOwnWaitsShareOneClockAndOneBudget() {
    IntentProtocol.Waits waits = protocol(2, Duration.ofMillis(10)).waits();
    waits.conflict("the row kept changing");
    waits.conflict("the row kept changing");
    assertThatThrownBy(() -> waits.conflict("the row kept changing"))
        .isInstanceOf(ServiceUnavailableException.class)
        .hasMessageStartingWith("test: the row kept changing after 3 attempts");
    assertThatThrownBy(() -> {
      while (true) {
        waits.pause("the bucket is being deleted");
      }
    }).isInstanceOf(ServiceUnavailableException.class)
        .hasMessageContaining("the bucket is being deleted for").hasMessageContaining("20 ms");
  }

  @Test
  void theLeaseArithmetic() {
    IntentLease lease = new IntentLease(Duration.ofSeconds(10), CLOCK);
    assertThat(lease.cutoffMillis()).isEqualTo(1_000_000 - 10_000);
    assertThat(lease.expired(1_000_000 - 10_001)).isTrue();
    assertThat(lease.expired(1_000_000 - 10_000)).isFalse();
    assertThat(lease.held(null)).isFalse();
    assertThat(lease.held(1_000_000 - 9_999L)).isTrue();
    assertThat(lease.held(1_000_000 - 10_000L)).isFalse();
    assertThat(lease.cutoffMillis(Duration.ZERO)).isEqualTo(1_000_000);
    assertThat(lease.waitLimit()).isEqualTo(Duration.ofSeconds(20));
    assertThatThrownBy(() -> new IntentLease(Duration.ofSeconds(-1), CLOCK))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
