package io.objectmeta.cli;

import java.util.concurrent.atomic.AtomicBoolean;

/** Whether the process is being stopped (Ctrl-C, SIGTERM): failures then are its echo, not news. */
final class Interrupts {
  private static final AtomicBoolean HAPPENED = new AtomicBoolean();

  private Interrupts() {}

  /** Records that a shutdown began. */
  static void begin() {
    HAPPENED.set(true);
  }

  static boolean began() {
    return HAPPENED.get();
  }
}
