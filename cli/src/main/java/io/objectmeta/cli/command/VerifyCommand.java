package io.objectmeta.cli.command;

import io.objectmeta.api.MetadataStores;
import io.objectmeta.api.spi.SweepingScratchSpace;
import io.objectmeta.api.spi.ScratchSpace;
import io.objectmeta.cli.ExitCode;
import io.objectmeta.cli.Output;
import io.objectmeta.cli.Session;
import io.objectmeta.cli.StoreCommand;
import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.ConformanceRun;
import io.objectmeta.conformance.ConformanceRun.Outcome;
import io.objectmeta.conformance.ConformanceRun.Report;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;

/**
 * {@code verify}: runs the conformance suite against the store's deployment, each test in a
 * scratch namespace of its own (a PostgreSQL schema, say) that is removed at the end, and prints
 * a pass/fail table per scenario group. The store's own data is never read or written.
 */
@Command(name = "verify", description = "Prove the store's deployment keeps the contract: run the"
    + " conformance suite in scratch namespaces next to it (removed afterwards) and print a pass/fail"
    + " table. Exits 5 if any test fails.")
public final class VerifyCommand extends StoreCommand {

  @Override
  protected int run(Session s) {
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger done = new AtomicInteger();
    boolean terminal = System.console() != null;
    java.util.Set<Outcome> beforeStop = java.util.concurrent.ConcurrentHashMap.newKeySet();
    Report report;
    try (ScratchSpace space = MetadataStores.scratch(s.uri(), Map.of())) {
      err().println("verify: scratch namespaces in " + space.describe());
      err().flush();
      ConformanceFixture scratch = ConformanceRun.fixture(s.description(), space);
      // The first namespace (the fixture's probe) removed what killed runs had left.
      int removedRuns = space instanceof SweepingScratchSpace leased ? leased.removedRuns() : 0;
      if (removedRuns > 0) {
        err().println("verify: removed the scratch namespaces of " + removedRuns + " earlier run"
            + (removedRuns == 1 ? "" : "s") + " that had not cleaned up (killed, say)");
      }
      ConformanceFixture fixture = new ConformanceFixture() {
        @Override
        public String name() {
          return scratch.name();
        }

        @Override
        public io.objectmeta.api.MetadataStore open() {
          if (stop.get()) {
            throw new IllegalStateException("verify was stopped");
          }
          return scratch.open();
        }

        @Override
        public java.util.Optional<io.objectmeta.api.MetadataStore> openPeer(
            io.objectmeta.api.MetadataStore store) {
          return scratch.openPeer(store);
        }

        @Override
        public Map<io.objectmeta.api.Capability, String> unsupported() {
          return scratch.unsupported();
        }
      };
      // Ctrl-C: the remaining tests fail at once, and the scratch namespaces are still removed.
      onInterrupt(() -> stop.set(true));
      report = ConformanceRun.run(fixture, (Outcome o) -> {
        if (stop.get()) {
          return; // a test failed by the stop says nothing of the store
        }
        beforeStop.add(o);
        int n = done.incrementAndGet();
        if (terminal && n % 10 == 0) {
          err().print("\rverify: " + n + " tests run");
          err().flush();
        }
      });
      onInterrupt(null);
      if (terminal) {
        err().print("\r");
      }
    }
    if (stop.get()) {
      // Stopped: the tests cut short failed because of the stop, not because of the store.
      long failedBefore = report.failures().stream().filter(beforeStop::contains).count();
      err().println("verify: interrupted after " + done.get() + " of "
          + (report.passed() + report.failed() + report.skipped().size()) + " tests ("
          + failedBefore + " failed before the stop); no verdict;"
          + " the scratch namespaces were removed");
      return ExitCode.INTERRUPTED;
    }
    print(report);
    return report.ok() ? ExitCode.OK : ExitCode.MISMATCH;
  }

  private void print(Report r) {
    if (json()) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("store", r.store());
      doc.put("ok", r.ok());
      doc.put("passed", r.passed());
      doc.put("failed", r.failed());
      doc.put("skipped", r.skipped().size());
      doc.put("seconds", r.took().toMillis() / 1000.0);
      doc.put("groups", r.groups());
      doc.put("failures", r.failures());
      doc.put("skippedTests", r.skipped());
      Output.json(out(), doc);
      return;
    }
    Output.Table table = new Output.Table("GROUP", "PASSED", "FAILED", "SKIPPED", "RESULT");
    for (ConformanceRun.Group g : r.groups()) {
      table.row(g.name(), g.passed(), g.failed(), g.skipped(), g.failed() > 0 ? "FAIL" : "pass");
    }
    table.print(out());
    if (!r.failures().isEmpty()) {
      out().println();
      out().println("Failures:");
      for (Outcome f : r.failures()) {
        out().println("  " + f.group() + " / " + f.test() + ": " + firstLine(f.message()));
      }
    }
    if (!r.skipped().isEmpty()) {
      out().println();
      out().println("Skipped (capabilities the store does not declare):");
      r.skipped().stream().map(o -> firstLine(o.message())).distinct()
          .forEach(m -> out().println("  " + m));
    }
    out().println();
    out().printf("%s: %d passed, %d failed, %d skipped in %.1f s — %s%n", r.store(), r.passed(),
        r.failed(), r.skipped().size(), r.took().toMillis() / 1000.0,
        r.ok() ? "the store keeps the contract" : "the store BREAKS the contract");
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl).strip();
  }
}
