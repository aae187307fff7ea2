package io.objectmeta.cli.gc;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.gc.GcQueueStats;
import io.objectmeta.api.gc.GcRunner;
import io.objectmeta.api.gc.GcSink;
import io.objectmeta.api.gc.GcSinks;
import io.objectmeta.api.validation.Validation;
import io.objectmeta.cli.ExitCode;
import io.objectmeta.cli.Output;
import io.objectmeta.cli.Session;
import io.objectmeta.cli.StoreCommand;
import io.objectmeta.cli.Text;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gc run}: drains the GC queue into a sink with the api's {@link GcRunner}. Ctrl-C (or
 * SIGTERM) asks the runner to stop; the batches in flight finish, claimed records the sink did not
 * confirm are released at once (not left to their lease), and the summary is printed.
 */
@Command(name = "run", description = {"Drain the GC queue into a sink (GcRunner): claim batches"
    + " older than the grace period, hand them to the sink, acknowledge what it freed.",
    "Concurrent runs, in this or other processes, never free the same record."})
public final class GcRunCommand extends StoreCommand {
  @Option(names = "--sink", paramLabel = "SPEC",
      description = {"Where the records go:",
          "  log:FILE      append each record to FILE as a JSON line (log:- for stdout);"
              + " every record counts as freed",
          "  command:CMD   run sh -c CMD for each batch, its records as JSON lines on stdin;"
              + " exit 0 frees the batch, any other status returns it to the queue",
          "Other sinks: any GcSinkProvider on the class path. Required unless --dry-run."})
  String sink;

  @Option(names = "--grace-period", paramLabel = "DURATION", defaultValue = "1h",
      description = "Only records queued at least this long ago (default ${DEFAULT-VALUE}; 0, 90s, 5m, 1h, 2d, PT1H).")
  Duration gracePeriod;

  @Option(names = "--batch-size", paramLabel = "N", defaultValue = "100",
      description = "Records per claim, 1 to 10000 (default ${DEFAULT-VALUE}).")
  int batchSize;

  @Option(names = "--workers", paramLabel = "N", defaultValue = "1",
      description = "Batches in flight at once (default ${DEFAULT-VALUE}).")
  int workers;

  @Option(names = "--lease", paramLabel = "DURATION", defaultValue = "5m",
      description = "How long a claim holds before its records return to the queue (default ${DEFAULT-VALUE}).")
  Duration lease;

  @Option(names = "--max-records", paramLabel = "N", defaultValue = "0",
      description = "Stop after claiming about this many records (0: no limit).")
  long maxRecords;

  @Option(names = "--max-time", paramLabel = "DURATION",
      description = "Stop claiming after this long.")
  Duration maxTime;

  @Option(names = "--dry-run", description = "Claim nothing: say what the queue holds and whether"
      + " its oldest record is past the grace period.")
  boolean dryRun;

  @Override
  protected void checkInput() {
    Validation.claim(batchSize, gracePeriod, lease);
    if (maxTime != null) {
      Validation.gracePeriod("maxTime", maxTime);
    }
    if (workers < 1) {
      throw usage("--workers must be at least 1, got " + workers);
    }
    if (maxRecords < 0) {
      throw usage("--max-records must not be negative, got " + maxRecords);
    }
    if (sink == null && !dryRun) {
      throw usage("Missing required option: '--sink=SPEC' (log:FILE, log:-, command:CMD)");
    }
    if (sink != null) {
      GcSinks.provider(sink); // an unknown sink is bad input: say so before opening the store
    }
  }

  @Override
  protected int run(Session s) throws Exception {
    if (dryRun) {
      return dryRun(s.store());
    }
    GcSink target = GcSinks.open(sink);
    try {
      AtomicReference<GcRunner.Progress> latest = new AtomicReference<>();
      RefusalLimit refusals = new RefusalLimit();
      GcRunner runner = GcRunner.builder(s.store(), target).gracePeriod(gracePeriod)
          .batchSize(batchSize).concurrency(workers).lease(lease).maxRecords(maxRecords)
          .maxTime(maxTime).progress(p -> {
            latest.set(p);
            refusals.check(p);
          }).build();
      refusals.runner = runner;
      GcRunner.Progress done;
      onInterrupt(() -> {
        runner.stop();
        if (target instanceof CommandSink c) {
          c.abort();
        }
      });
      try (ProgressLine line = ProgressLine.onTerminal(err(), s.store(), latest)) {
        done = runner.run();
      } finally {
        onInterrupt(null);
      }
      summary(target instanceof LogSink l && l.toStdout() ? err() : out(), done,
          s.store().gcQueueStats());
      return done.failedBatches() > 0 || done.lost() > 0 ? ExitCode.INCOMPLETE : ExitCode.OK;
    } finally {
      if (target instanceof AutoCloseable c) {
        c.close();
      }
    }
  }

  /**
   * Stops a run whose sink refuses batch after batch: records it hands back are claimable again
   * at once, so a sink that always fails would otherwise be handed the same records forever.
   */
  private final class RefusalLimit {
    private static final int IN_A_ROW = 3;
    private volatile GcRunner runner;
    private long freedMark;
    private long failedMark;
    private boolean stopped;

    synchronized void check(GcRunner.Progress p) {
      if (p.freed() > freedMark) {
        freedMark = p.freed();
        failedMark = p.failedBatches();
      } else if (!stopped && p.failedBatches() - failedMark >= IN_A_ROW && runner != null) {
        stopped = true;
        runner.stop();
        err().println("objectmeta: gc: the sink refused " + IN_A_ROW + " batches in a row; stopping");
        err().flush();
      }
    }
  }

  private int dryRun(MetadataStore store) {
    GcQueueStats q = store.gcQueueStats();
    boolean due = q.oldest() != null && !q.oldest().plus(gracePeriod).isAfter(java.time.Instant.now());
    long claimableAtMost = due ? q.queued() - q.leased() : 0;
    if (json()) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("dryRun", true);
      doc.put("gcQueue", q);
      doc.put("gracePeriod", gracePeriod);
      doc.put("claimableAtMost", claimableAtMost);
      Output.json(out(), doc);
      return ExitCode.OK;
    }
    new Output.Fields()
        .add("dry run", "nothing claimed")
        .add("queue", GcStatusCommand.describe(q))
        .add("grace period", gracePeriod + (q.oldest() == null ? ""
            : due ? ": the oldest record is past it" : ": no record is past it yet"))
        .add("claimable now", "at most " + claimableAtMost + " records")
        .print(out());
    return ExitCode.OK;
  }

  private void summary(PrintWriter to, GcRunner.Progress p, GcQueueStats after) {
    double seconds = Math.max(p.elapsed().toMillis(), 1) / 1000.0;
    if (json()) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("claimed", p.claimed());
      doc.put("freed", p.freed());
      doc.put("released", p.released());
      doc.put("failedBatches", p.failedBatches());
      doc.put("lostLease", p.lost());
      doc.put("bytesFreed", p.bytesFreed());
      doc.put("elapsed", p.elapsed());
      doc.put("recordsPerSecond", Math.round(p.freed() / seconds));
      doc.put("gcQueue", after);
      Output.json(to, doc);
    } else {
      new Output.Fields()
          .add("freed", p.freed() + " records (" + Text.bytes(p.bytesFreed()) + ") in "
              + String.format("%.1f s, %d records/s", seconds, Math.round(p.freed() / seconds)))
          .add("claimed", p.claimed())
          .add("released", p.released() + (p.failedBatches() == 0 ? ""
              : " (" + p.failedBatches() + " batches refused by the sink)"))
          .add("lease lost", p.lost() == 0 ? "none" : p.lost() + " records: their lease ended"
              + " before the sink finished, so they were not acknowledged (still queued; their"
              + " data may be freed already)")
          .add("queue now", GcStatusCommand.describe(after))
          .print(to);
    }
    to.flush();
  }
}
