package io.objectmeta.api.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.MetadataStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** The sweep of scratch runs, over a server kept in maps: who is removed, in which order. */
class SweepingScratchSpaceTest {

  /** A server: namespaces per run, leases per run, and what was done in order. */
  static final class Server {
    final Map<String, Set<Integer>> namespaces = new ConcurrentHashMap<>();
    final Map<String, Instant> leases = new ConcurrentHashMap<>();
    final List<String> log = new ArrayList<>();
  }

  static final class MutableClock extends Clock {
    Instant now = Instant.parse("2026-11-24T12:00:00Z");

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  static final class Space extends SweepingScratchSpace.Leased {
    final Server server;

    Space(Server server, Clock clock) {
      super(clock);
      this.server = server;
    }

    String id() {
      return run();
    }

    @Override
    public String describe() {
      return "maps";
    }

    @Override
    protected Set<String> runs() {
      Set<String> runs = new TreeSet<>(server.namespaces.keySet());
      runs.addAll(server.leases.keySet());
      return runs;
    }

    @Override
    protected Optional<Instant> lease(String run) {
      return Optional.ofNullable(server.leases.get(run));
    }

    @Override
    protected synchronized void writeLease(Instant until) {
      server.leases.put(run(), until);
      server.log.add("lease " + run());
    }

    @Override
    protected synchronized void remove(String run) {
      server.namespaces.remove(run);
      server.log.add("drop namespaces " + run);
      server.leases.remove(run);
      server.log.add("drop lease " + run);
    }

    @Override
    protected synchronized MetadataStore openNamespace(int n) {
      server.namespaces.computeIfAbsent(run(), r -> new TreeSet<>()).add(n);
      server.log.add("namespace " + run() + " " + n);
      return null;
    }
  }

  @Test
  void aRunShowsItselfAliveBeforeItsFirstNamespaceAndRemovesItsLeaseLast() {
    Server server = new Server();
    MutableClock clock = new MutableClock();
    Space s = new Space(server, clock);
    assertThat(server.log).as("nothing happens before the first namespace").isEmpty();
    s.open();
    s.open();
    assertThat(server.namespaces.get(s.id())).containsExactly(1, 2);
    assertThat(server.leases.get(s.id())).isEqualTo(clock.now.plus(SweepingScratchSpace.Leased.LEASE));
    s.close();
    assertThat(server.log).containsExactly("lease " + s.id(), "namespace " + s.id() + " 1",
        "namespace " + s.id() + " 2", "drop namespaces " + s.id(), "drop lease " + s.id());
    assertThat(server.namespaces).isEmpty();
    assertThat(server.leases).isEmpty();
  }

  @Test
  void runsWithoutALeaseOrWithAPastOneAreRemovedAndLiveOnesAreNot() {
    Server server = new Server();
    MutableClock clock = new MutableClock();
    server.namespaces.put("00000001", new TreeSet<>(Set.of(1, 2))); // no lease: killed, or older
    server.namespaces.put("00000002", new TreeSet<>(Set.of(1)));
    server.leases.put("00000002", clock.now.minusMillis(1));         // its lease ran out
    server.leases.put("00000003", clock.now.minusSeconds(5));        // only a lease left
    server.namespaces.put("00000004", new TreeSet<>(Set.of(7)));
    server.leases.put("00000004", clock.now.plusMillis(1));          // alive
    Space s = new Space(server, clock);
    s.open();
    assertThat(s.removedRuns()).isEqualTo(3);
    assertThat(new TreeMap<>(server.namespaces).keySet()).containsExactly("00000004", s.id());
    assertThat(server.leases.keySet()).containsExactlyInAnyOrder("00000004", s.id());
    s.close();
    assertThat(server.namespaces.keySet()).containsExactly("00000004");
  }

  @Test
  void twoLiveRunsLeaveEachOtherAlone() {
    Server server = new Server();
    MutableClock clock = new MutableClock();
    Space a = new Space(server, clock);
    Space b = new Space(server, clock);
    a.open();
    clock.now = clock.now.plus(Duration.ofSeconds(20)); // within a's lease
    b.open();
    assertThat(b.removedRuns()).isZero();
    assertThat(server.namespaces.keySet()).containsExactlyInAnyOrder(a.id(), b.id());
    b.close();
    a.close();
    assertThat(server.namespaces).isEmpty();
    assertThat(server.leases).isEmpty();
  }

  @Test
  void aClosedSpaceOpensNothingAndClosingTwiceIsHarmless() {
    Server server = new Server();
    Space s = new Space(server, new MutableClock());
    s.close();
    assertThat(server.log).isEmpty();
    org.assertj.core.api.Assertions.assertThatThrownBy(s::open)
        .isInstanceOf(IllegalStateException.class);
    s.close();
  }
}
