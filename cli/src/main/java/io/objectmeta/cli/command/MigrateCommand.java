package io.objectmeta.cli.command;

import io.objectmeta.api.migrate.BucketComparison;
import io.objectmeta.api.migrate.BucketSummary;
import io.objectmeta.api.migrate.MigrationCounts;
import io.objectmeta.api.migrate.MigrationProgress;
import io.objectmeta.api.migrate.MigrationRefusedException;
import io.objectmeta.api.migrate.MigrationReport;
import io.objectmeta.api.migrate.Mismatch;
import io.objectmeta.api.migrate.StoreMigration;
import io.objectmeta.api.migrate.VerificationReport;
import io.objectmeta.cli.ExitCode;
import io.objectmeta.cli.Output;
import io.objectmeta.cli.Session;
import io.objectmeta.cli.StoreCommand;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code migrate}: copies every bucket, version, delete marker, upload and GC record of one store
 * into another with the api's {@link StoreMigration} (streaming, checkpointed, resumable), then
 * verifies the copy: counts and digests per bucket and of the GC queue.
 */
@Command(name = "migrate", description = {"Copy one store into another: every bucket, version,"
    + " delete marker, upload and GC record, streaming, then verify the copy (counts and a digest"
    + " per bucket). With --checkpoint an interrupted run resumes where it stopped when run again."
    + " The source should be quiet meanwhile. Exits 5 if the verification finds a difference.",
    "Stores: --from (default: --store, $OBJECTMETA_STORE, else the embedded PostgreSQL) and --to;"
        + " 'embedded' names the embedded PostgreSQL, 'embedded?schema=S' another schema on it."})
public final class MigrateCommand extends StoreCommand {

  @Option(names = "--from", paramLabel = "URI", description = "The store to copy (the source).")
  String from;

  @Option(names = "--to", paramLabel = "URI", required = true,
      description = "The store to copy into (the target): empty of the source's buckets, unless"
          + " resuming with the same --checkpoint.")
  String to;

  @Option(names = "--checkpoint", paramLabel = "FILE",
      description = "Where the position is kept after each batch; run again with the same file to"
          + " resume. Without it an interrupted run starts over.")
  Path checkpoint;

  @Option(names = "--batch-size", paramLabel = "N", defaultValue = "1000",
      description = "Versions (or uploads, or GC records) per listing page and per checkpoint,"
          + " 1 to 1000 (default ${DEFAULT-VALUE}).")
  int batchSize;

  @Option(names = "--no-verify", description = "Do not compare the stores after the copy.")
  boolean noVerify;

  @Option(names = "--verify-only", description = "Compare the two stores; copy nothing.")
  boolean verifyOnly;

  @Override
  protected void checkInput() {
    if (batchSize < 1 || batchSize > 1000) {
      throw usage("--batch-size: 1 to 1000, not " + batchSize);
    }
    if (noVerify && verifyOnly) {
      throw usage("--no-verify and --verify-only exclude each other");
    }
    if (from != null) {
      String store = root().storeOption();
      if (store != null && !store.equals(from)) {
        throw usage("--from and --store name different stores; give one");
      }
      root().useStore(from);
    }
  }

  @Override
  protected int run(Session source) {
    try (Session target = root().openSession(to, err())) {
      if (verifyOnly) {
        VerificationReport v = StoreMigration.verify(source.store(), target.store());
        printVerification(v, null);
        return v.matches() ? ExitCode.OK : ExitCode.MISMATCH;
      }
      ProgressLine line = new ProgressLine();
      StoreMigration m = StoreMigration.builder(source.store(), target.store())
          .checkpoint(checkpoint).batchSize(batchSize).verify(!noVerify)
          .progress(line::show).build();
      onInterrupt(m::stop);
      MigrationReport r;
      try {
        r = m.run();
      } catch (MigrationRefusedException e) {
        throw new io.objectmeta.api.error.InvalidArgumentException("migrate", e.getMessage());
      } finally {
        onInterrupt(null);
        line.end();
      }
      print(r);
      if (!r.finished()) {
        return ExitCode.INTERRUPTED;
      }
      return r.verification() == null || r.verified() ? ExitCode.OK : ExitCode.MISMATCH;
    }
  }

  /** A line on a terminal, rewritten at most twice a second; nothing without one. */
  private final class ProgressLine {
    private final boolean terminal = System.console() != null;
    private long shownAt;
    private int width;

    void show(MigrationProgress p) {
      long now = System.currentTimeMillis();
      if (!terminal || now - shownAt < 500) {
        return;
      }
      shownAt = now;
      String text = String.format(Locale.ROOT, "migrate: %s%s: %,d records copied, %,.0f/s",
          p.phase().name().toLowerCase(Locale.ROOT), p.bucket() == null ? "" : " " + p.bucket(),
          p.copied().records(), p.recordsPerSecond());
      err().print("\r" + text + " ".repeat(Math.max(0, width - text.length())));
      err().flush();
      width = text.length();
    }

    void end() {
      if (terminal && width > 0) {
        err().print("\r" + " ".repeat(width) + "\r");
        err().flush();
      }
    }
  }

  private void print(MigrationReport r) {
    if (json()) {
      Output.json(out(), r);
      return;
    }
    MigrationCounts c = r.copied();
    new Output.Fields()
        .add("source store", r.source())
        .add("target store", r.target())
        .add("run", (r.resumed() ? "resumed from the checkpoint" : "from the start")
            + (r.finished() ? ", finished" : ", STOPPED: run again with the same --checkpoint"))
        .add("copied", String.format(Locale.ROOT, "%d buckets, %d keys, %d versions, %d delete"
            + " markers, %d uploads (%d parts), %d GC records", c.buckets(), c.keys(), c.versions(),
            c.deleteMarkers(), c.uploads(), c.parts(), c.garbage()))
        .add("took", String.format(Locale.ROOT, "%.1f s", r.elapsed().toMillis() / 1000.0))
        .print(out());
    if (r.verification() != null) {
      out().println();
      printVerification(r.verification(), r);
    }
  }

  private void printVerification(VerificationReport v, MigrationReport run) {
    if (json() && run == null) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("matches", v.matches());
      doc.put("verification", v);
      Output.json(out(), doc);
      return;
    }
    Output.Table table = new Output.Table("BUCKET", "KEYS", "VERSIONS", "DELETE MARKERS",
        "UPLOADS", "PARTS", "VERSIONS DIGEST", "RESULT");
    for (BucketComparison b : v.buckets()) {
      BucketSummary s = b.source();
      table.row(s.name(), s.keys(), s.versions(), s.deleteMarkers(), s.uploads(), s.parts(),
          s.versionsDigest().substring(0, 12), b.target() == null ? "MISSING" : b.matches() ? "same" : "DIFFERS");
    }
    table.row("(GC queue)", "", v.sourceGarbage().records() + " records", "", "", "",
        v.sourceGarbage().digest().substring(0, Math.min(12, v.sourceGarbage().digest().length())),
        v.sourceGarbage().equals(v.targetGarbage()) ? "same" : "DIFFERS");
    table.print(out());
    if (!v.onlyInTarget().isEmpty()) {
      out().println("Only in the target (not compared): " + String.join(", ", v.onlyInTarget()));
    }
    if (!v.mismatches().isEmpty()) {
      out().println();
      out().println("Differences:");
      for (Mismatch m : v.mismatches()) {
        out().println("  " + m);
      }
    }
    out().println();
    out().println(v.matches() ? "verified: the target holds everything the source holds, the same"
        : "NOT verified: " + v.mismatches().size() + " difference(s)");
  }
}
