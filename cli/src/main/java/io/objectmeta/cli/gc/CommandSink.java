package io.objectmeta.cli.gc;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.gc.GcSink;
import io.objectmeta.api.gc.GcSinkProvider;
import io.objectmeta.cli.Output;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code command:CMD}: runs {@code sh -c CMD} once per batch with the batch's records as JSON
 * lines on its stdin; exit status 0 frees the whole batch, anything else returns it to the queue.
 * CMD's output goes to stderr. With several workers, several CMDs run at once.
 */
public final class CommandSink implements GcSink {
  private final String command;
  private final Set<Process> running = ConcurrentHashMap.newKeySet();

  private CommandSink(String command) {
    this.command = command;
  }

  /** Finds the command sink by the name {@code command}. */
  public static final class Provider implements GcSinkProvider {
    @Override
    public String name() {
      return "command";
    }

    @Override
    public String description() {
      return "command:CMD runs sh -c CMD for each batch, its records as JSON lines on stdin;"
          + " exit 0 frees the batch, anything else returns it to the queue";
    }

    @Override
    public GcSink create(String options) {
      if (options.isBlank()) {
        throw new InvalidArgumentException("sink", "command: needs a shell command,"
            + " e.g. command:'jq -r .dataLocations[].key | xargs rm -f'");
      }
      return new CommandSink(options);
    }
  }

  @Override
  public Set<String> free(List<GarbageRecord> batch) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("/bin/sh", "-c", command).redirectErrorStream(true).start();
    running.add(p);
    try {
      return feed(p, batch);
    } finally {
      running.remove(p);
    }
  }

  /**
   * Ends the commands that run now, and what they started; their batches go back to the queue.
   * For a stop asked of the process as a whole: Ctrl-C reaches them anyway, a SIGTERM does not.
   */
  public void abort() {
    for (Process p : running) {
      p.descendants().forEach(ProcessHandle::destroy);
      p.destroy();
    }
  }

  private Set<String> feed(Process p, List<GarbageRecord> batch)
      throws IOException, InterruptedException {
    Set<String> ids = new HashSet<>();
    StringBuilder lines = new StringBuilder();
    for (GarbageRecord r : batch) {
      lines.append(Output.jsonLine(r)).append('\n');
      ids.add(r.id());
    }
    Thread feeder = new Thread(() -> {
      try (Writer w = new BufferedWriter(new OutputStreamWriter(p.getOutputStream(),
          StandardCharsets.UTF_8))) {
        w.write(lines.toString());
      } catch (IOException closedEarly) {
        // the command stopped reading; its exit status decides
      }
    }, "objectmeta-gc-command-stdin");
    feeder.start();
    p.getInputStream().transferTo(System.err);
    int status = p.waitFor();
    feeder.join();
    if (status != 0) {
      System.err.println("objectmeta: gc: the sink command exited with " + status + "; its batch of "
          + batch.size() + " records goes back to the queue");
      throw new IOException("sink command exited with " + status + ": " + command);
    }
    return ids;
  }
}
