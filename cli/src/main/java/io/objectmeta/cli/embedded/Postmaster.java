package io.objectmeta.cli.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What {@code postmaster.pid} says about the server of a data directory. PostgreSQL writes the
 * file itself when it starts and removes it when it stops, so it never disagrees with the server
 * about its pid and port (a separate port file could); a file left by a server that died is
 * recognized by its pid no longer being a postgres process.
 *
 * @param dataDirectory the data directory whose postmaster.pid this is
 * @param pid the postmaster's process id
 * @param port the port it listens on
 */
record Postmaster(Path dataDirectory, long pid, int port) {

  /** The server the data directory's postmaster.pid names, if the file is there and readable. */
  static Optional<Postmaster> of(Path dataDirectory) {
    List<String> lines;
    try {
      lines = Files.readAllLines(dataDirectory.resolve("postmaster.pid"), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
    // Line 1 is the pid, line 4 the port (PostgreSQL's LOCK_FILE_LINE_PID / _PORT).
    if (lines.size() < 4) {
      return Optional.empty(); // being written by a server that is starting
    }
    try {
      return Optional.of(new Postmaster(dataDirectory, Long.parseLong(lines.get(0).trim()),
          Integer.parseInt(lines.get(3).trim())));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * The running postmaster, if the pid is alive and is a postgres of this data directory: after a
   * crash or reboot the pid of a stale file may belong to anything, another PostgreSQL included.
   */
  Optional<ProcessHandle> process() {
    return ProcessHandle.of(pid).filter(Postmaster::running)
        .filter(p -> p.info().commandLine()
            .map(c -> c.contains("postgres") && c.contains(dataDirectory.toString())).orElse(true));
  }

  /**
   * Alive and not a zombie. A postmaster is a daemon (pg_ctl forks it); where PID 1 is slow to
   * reap, one that has exited stays a zombie for a while, and Java counts zombies as alive.
   */
  static boolean running(ProcessHandle p) {
    if (!p.isAlive()) {
      return false;
    }
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
      int end = stat.lastIndexOf(')'); // the command may hold spaces and parentheses
      return end < 0 || end + 2 >= stat.length() || stat.charAt(end + 2) != 'Z';
    } catch (IOException | RuntimeException e) {
      return true; // no /proc (macOS): isAlive() is all there is
    }
  }
}
