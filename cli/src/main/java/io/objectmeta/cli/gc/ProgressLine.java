package io.objectmeta.cli.gc;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.gc.GcRunner;
import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One line on a terminal, rewritten twice a second while gc runs: records freed, the rate, and
 * what remains in the queue. Nothing when stderr's process has no terminal (scripts, CI, tests).
 */
final class ProgressLine implements AutoCloseable {
  private static final long EVERY_MILLIS = 500;
  private static final long QUEUE_EVERY_MILLIS = 1000;

  private final PrintWriter err;
  private final MetadataStore store;
  private final AtomicReference<GcRunner.Progress> latest;
  private final Thread thread;
  private volatile boolean running = true;
  private int width;

  private ProgressLine(PrintWriter err, MetadataStore store,
      AtomicReference<GcRunner.Progress> latest) {
    this.err = err;
    this.store = store;
    this.latest = latest;
    this.thread = new Thread(this::loop, "objectmeta-gc-progress");
    thread.setDaemon(true);
  }

  /** A progress line if there is a terminal, else one that prints nothing. */
  static ProgressLine onTerminal(PrintWriter err, MetadataStore store,
      AtomicReference<GcRunner.Progress> latest) {
    ProgressLine line = new ProgressLine(err, store, latest);
    if (System.console() != null) {
      line.thread.start();
    }
    return line;
  }

  private void loop() {
    long queue = -1;
    long queueAt = 0;
    while (running) {
      try {
        Thread.sleep(EVERY_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      long now = System.currentTimeMillis();
      if (now - queueAt >= QUEUE_EVERY_MILLIS) {
        try {
          queue = store.gcQueueStats().queued();
        } catch (RuntimeException e) {
          queue = -1; // the line is a courtesy; the run reports failures
        }
        queueAt = now;
      }
      GcRunner.Progress p = latest.get();
      if (p != null && running) {
        double seconds = Math.max(p.elapsed().toMillis(), 1) / 1000.0;
        show(String.format("gc: %d records freed, %d/s, %s in the queue", p.freed(),
            Math.round(p.freed() / seconds), queue < 0 ? "?" : Long.toString(queue)));
      }
    }
  }

  private synchronized void show(String text) {
    err.print("\r" + text + " ".repeat(Math.max(0, width - text.length())));
    err.flush();
    width = text.length();
  }

  @Override
  public void close() {
    running = false;
    if (thread.isAlive()) {
      thread.interrupt();
      try {
        thread.join(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      synchronized (this) {
        if (width > 0) {
          err.print("\r" + " ".repeat(width) + "\r");
          err.flush();
        }
      }
    }
  }
}
