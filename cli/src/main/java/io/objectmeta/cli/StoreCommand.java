package io.objectmeta.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * A command that works on a store: checks its input, opens the {@link Session}, runs, and closes
 * it — also when the process is asked to stop (Ctrl-C, SIGTERM): a shutdown hook then calls
 * {@link #onInterrupt()}'s action, waits for the command to wind down, and closes the session, so
 * the embedded server is let go of (and stopped by the last process) either way.
 */
public abstract class StoreCommand implements Callable<Integer> {
  /** How long a shutdown waits for a command that was asked to stop to finish. */
  private static final long WIND_DOWN_SECONDS = 60;

  @Spec
  protected CommandSpec spec;

  private volatile Runnable interrupt;

  @Override
  public final Integer call() throws Exception {
    checkInput();
    ObjectmetaCommand root = root();
    if (root.verbose()) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "info");
    }
    try (Session session = root.openSession(err())) {
      CountDownLatch done = new CountDownLatch(1);
      Thread hook = new Thread(() -> {
        Interrupts.begin();
        Runnable action = interrupt;
        if (action != null) {
          action.run();
          try {
            done.await(WIND_DOWN_SECONDS, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        session.close();
      }, "objectmeta-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      try {
        return run(session);
      } finally {
        out().flush();
        done.countDown();
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
          // the hook runs now and closes the session with us
        }
      }
    }
  }

  /** Checks arguments that need no store (bucket names, keys): bad input never starts a server. */
  protected void checkInput() {}

  /** Does the work; returns the exit code. */
  protected abstract int run(Session session) throws Exception;

  /**
   * While {@code action} is set, a shutdown calls it (to ask the work to stop) and waits for
   * {@link #run} to return before closing the session; null clears it.
   */
  protected void onInterrupt(Runnable action) {
    this.interrupt = action;
  }

  protected ObjectmetaCommand root() {
    return (ObjectmetaCommand) spec.root().userObject();
  }

  protected boolean json() {
    return root().json();
  }

  protected PrintWriter out() {
    return spec.commandLine().getOut();
  }

  protected PrintWriter err() {
    return spec.commandLine().getErr();
  }

  /** A usage error found after parsing (exit code 2). */
  protected ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
