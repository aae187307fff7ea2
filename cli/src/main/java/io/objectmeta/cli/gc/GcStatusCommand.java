package io.objectmeta.cli.gc;

import io.objectmeta.api.gc.GcQueueStats;
import io.objectmeta.cli.Output;
import io.objectmeta.cli.Session;
import io.objectmeta.cli.StoreCommand;
import io.objectmeta.cli.Text;
import java.time.Duration;
import java.time.Instant;
import picocli.CommandLine.Command;

/** {@code gc status}: the queue's length, its oldest record, and what is under lease. */
@Command(name = "status", description = "Show the GC queue: records queued, under lease, bytes,"
    + " the oldest record.")
public final class GcStatusCommand extends StoreCommand {

  @Override
  protected int run(Session s) {
    GcQueueStats q = s.store().gcQueueStats();
    if (json()) {
      Output.json(out(), q);
      return 0;
    }
    new Output.Fields().add("queued", q.queued() + " records (" + Text.bytes(q.bytes()) + ")")
        .add("under lease", q.leased())
        .add("oldest", q.oldest() == null ? "-" : Output.time(q.oldest()) + " (" + age(q.oldest()) + " ago)")
        .print(out());
    return 0;
  }

  /** The queue in one line, for stats. */
  public static String describe(GcQueueStats q) {
    if (q.queued() == 0) {
      return "empty";
    }
    return q.queued() + " records (" + Text.bytes(q.bytes()) + "), " + q.leased()
        + " under lease, oldest " + Output.time(q.oldest()) + " (" + age(q.oldest()) + " ago)";
  }

  /** How long ago, roughly: 42s, 5m, 3h12m, 2d4h. */
  static String age(Instant t) {
    Duration d = Duration.between(t, Instant.now());
    if (d.isNegative()) {
      d = Duration.ZERO;
    }
    if (d.toMinutes() < 1) {
      return d.toSeconds() + "s";
    }
    if (d.toHours() < 1) {
      return d.toMinutes() + "m";
    }
    if (d.toDays() < 1) {
      return d.toHours() + "h" + d.toMinutesPart() + "m";
    }
    return d.toDays() + "d" + d.toHoursPart() + "h";
  }
}
