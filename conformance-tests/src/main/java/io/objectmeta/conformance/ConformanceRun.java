package io.objectmeta.conformance;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.objectmeta.api.Capability;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.spi.ScratchSpace;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs the conformance suite outside a build, through the JUnit launcher, and reports per
 * scenario group: what {@code objectmeta verify} uses to prove a live deployment keeps the
 * contract (over a {@link ScratchSpace}, so the deployment's data is never touched).
 */
public final class ConformanceRun {
  private ConformanceRun() {}

  /** The suite over the fixture of the current run; run only through {@link #run}. */
  public static class Suite extends MetadataStoreConformance {
    static volatile ConformanceFixture current;

    @Override
    protected ConformanceFixture fixture() {
      return current;
    }
  }

  /** A test that did not pass: failed (with the assertion's message) or skipped (with the reason). */
  public record Outcome(String group, String test, String message) {}

  /** One scenario group's counts. */
  public record Group(String name, int passed, int failed, int skipped) {}

  /** The whole run. {@link #ok()} when nothing failed (skips are capabilities the store lacks). */
  public record Report(String store, List<Group> groups, List<Outcome> failures,
      List<Outcome> skipped, Duration took) {
    public int passed() {
      return groups.stream().mapToInt(Group::passed).sum();
    }

    public int failed() {
      return groups.stream().mapToInt(Group::failed).sum();
    }

    public boolean ok() {
      return failed() == 0;
    }
  }

  /**
   * A fixture over a scratch space: a new namespace per test. What the store does not declare
   * among its capabilities is reported as skipped with that reason (the suite still checks that
   * such calls are refused with NotImplemented).
   */
  public static ConformanceFixture fixture(String name, ScratchSpace space) {
    Set<Capability> has;
    try (MetadataStore probe = space.open()) {
      has = probe.capabilities();
    }
    Map<Capability, String> lacking = new LinkedHashMap<>();
    for (Capability c : EnumSet.allOf(Capability.class)) {
      if (!has.contains(c)) {
        lacking.put(c, "the store does not declare " + c);
      }
    }
    return new ConformanceFixture() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public MetadataStore open() {
        return space.open();
      }

      @Override
      public java.util.Optional<MetadataStore> openPeer(MetadataStore store) {
        return space.openPeer(store);
      }

      @Override
      public Map<Capability, String> unsupported() {
        return lacking;
      }
    };
  }

  /** Runs every scenario against {@code fixture}; {@code progress} hears each finished test. */
  public static synchronized Report run(ConformanceFixture fixture, Consumer<Outcome> progress) {
    Suite.current = fixture;
    Map<String, int[]> counts = new LinkedHashMap<>();
    List<Outcome> failures = new ArrayList<>();
    List<Outcome> skipped = new ArrayList<>();
    long start = System.nanoTime();
    TestExecutionListener listener = new TestExecutionListener() {
      private TestPlan plan;

      @Override
      public void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
      }

      private String group(TestIdentifier test) {
        return plan.getParent(test).filter(p -> p.getSource().isPresent()
                && !p.getDisplayName().equals(Suite.class.getSimpleName()))
            .map(TestIdentifier::getDisplayName).orElse("the suite");
      }

      @Override
      public void executionSkipped(TestIdentifier test, String reason) {
        if (test.isTest()) {
          record(new Outcome(group(test), test.getDisplayName(), reason), 2);
        }
      }

      @Override
      public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (!test.isTest()) {
          return;
        }
        String message = result.getThrowable().map(t -> String.valueOf(t.getMessage()).strip())
            .orElse("");
        int slot = switch (result.getStatus()) {
          case SUCCESSFUL -> 0;
          case FAILED -> 1;
          case ABORTED -> 2;
        };
        record(new Outcome(group(test), test.getDisplayName(), message), slot);
      }

      private synchronized void record(Outcome o, int slot) {
        counts.computeIfAbsent(o.group(), g -> new int[3])[slot]++;
        if (slot == 1) {
          failures.add(o);
        } else if (slot == 2) {
          skipped.add(o);
        }
        progress.accept(slot == 0 ? new Outcome(o.group(), o.test(), "") : o);
      }
    };
    try {
      Launcher launcher = LauncherFactory.create();
      launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(Suite.class))
          .filters(EngineFilter.includeEngines("junit-jupiter")).build(), listener);
    } finally {
      Suite.current = null;
    }
    List<Group> groups = new ArrayList<>();
    counts.forEach((g, c) -> groups.add(new Group(g, c[0], c[1], c[2])));
    return new Report(fixture.name(), groups, failures, skipped,
        Duration.ofNanos(System.nanoTime() - start));
  }
}
