package io.objectmeta.cli.gc;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.gc.GcSink;
import io.objectmeta.api.gc.GcSinkProvider;
import io.objectmeta.cli.Output;
import java.io.BufferedWriter;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code log:FILE}: appends every record of a batch to FILE as one JSON line (the api's
 * {@link GarbageRecord} fields), synced to disk before the batch counts as freed; {@code log:-}
 * writes to stdout. It frees nothing itself: it records what a separate job is to free.
 */
public final class LogSink implements GcSink, AutoCloseable {
  private final Writer out;
  private final FileOutputStream file;

  private LogSink(Writer out, FileOutputStream file) {
    this.out = out;
    this.file = file;
  }

  /** Finds the log sink by the name {@code log}. */
  public static final class Provider implements GcSinkProvider {
    @Override
    public String name() {
      return "log";
    }

    @Override
    public String description() {
      return "log:FILE appends each record to FILE as a JSON line (log:- to stdout);"
          + " every record counts as freed";
    }

    @Override
    public GcSink create(String options) {
      if (options.isEmpty() || options.equals("-")) {
        return new LogSink(new BufferedWriter(new OutputStreamWriter(System.out,
            StandardCharsets.UTF_8)), null);
      }
      try {
        FileOutputStream f = new FileOutputStream(options, true);
        return new LogSink(new BufferedWriter(new OutputStreamWriter(f, StandardCharsets.UTF_8)), f);
      } catch (IOException e) {
        throw new InvalidArgumentException("sink", "log: cannot open " + options + ": " + e.getMessage());
      }
    }
  }

  /** Whether the records go to stdout (the command then prints its summary on stderr). */
  public boolean toStdout() {
    return file == null;
  }

  @Override
  public synchronized Set<String> free(List<GarbageRecord> batch) throws IOException {
    Set<String> ids = new HashSet<>();
    for (GarbageRecord r : batch) {
      out.write(Output.jsonLine(r));
      out.write('\n');
      ids.add(r.id());
    }
    out.flush();
    if (file != null) {
      file.getFD().sync(); // on disk before the records leave the queue
    }
    return ids;
  }

  @Override
  public synchronized void close() throws IOException {
    out.flush();
    if (file != null) {
      out.close();
    }
  }
}
