package io.objectmeta.cli.embedded;

import io.objectmeta.api.error.ServiceUnavailableException;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The embedded default store: one PostgreSQL server (zonky's binaries, nothing to install) whose
 * data lives in {@code $OBJECTMETA_HOME/pgdata} and survives between runs, shared by every
 * objectmeta process that uses it at the same time.
 *
 * <h2>Sharing one server between processes</h2>
 * Files in {@code $OBJECTMETA_HOME}:
 * <ul>
 *   <li>{@code clients.lock}: every process using the server holds a shared lock on it for as
 *       long as it does;
 *   <li>{@code start.lock}: held exclusively while a process checks whether the server runs and
 *       starts it if not, so two processes never start two servers on one data directory;
 *   <li>{@code pgdata/}: the data directory; its {@code postmaster.pid}, written and removed by
 *       PostgreSQL itself, says whether a server runs and on which port ({@link Postmaster});
 *   <li>{@code postgres.log}: the server's output;
 *   <li>{@code postgres.secret} (0600): the superuser's password ({@link Secret}); every
 *       connection, TCP on loopback or the socket in {@code run/} (0700), must prove it (SCRAM);
 *   <li>{@code postgres/}: the PostgreSQL binaries, unpacked here rather than in a shared /tmp.
 * </ul>
 * {@link #attach} takes the shared lock first, then the start lock; if postmaster.pid names a live
 * postgres that answers on its port and serves this data directory, it attaches, otherwise it
 * starts the server. {@link #close} gives up the shared lock and then tries, without waiting, to
 * take clients.lock exclusively: only the last process gets it, and it stops the server while
 * holding it, so a process arriving meanwhile waits for the stop and then starts a fresh one.
 * The OS releases the locks of a process that dies (kill -9); the server it leaves running is
 * found and used by the next process, and stopped by the last one.
 *
 * <p>zonky's EmbeddedPostgres normally stops its server in a JVM shutdown hook and deletes its
 * data; here it runs with {@code setRegisterShutdownHook(false)} and
 * {@code setCleanDataDirectory(false)}: the server (started with pg_ctl, so not a child that dies
 * with the JVM) outlives the process that started it, and only the last process stops it. It is
 * stopped with SIGTERM, PostgreSQL's "smart" shutdown, which the server also answers when it runs
 * in the user namespace zonky gives it under root.
 *
 * <p>One instance per JVM (file locks belong to the process, not to a thread), shared by the
 * process's sessions: the last of them to close lets go of it.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {
  private static final Duration START_WAIT = Duration.ofSeconds(60);
  private static final Duration STOP_WAIT = Duration.ofSeconds(60);
  private static final AtomicBoolean IN_THIS_JVM = new AtomicBoolean();
  /** The server this process uses, shared by its sessions, and how many use it. */
  private static EmbeddedPostgresServer inThisJvm;
  private static int usersInThisJvm;

  private final Path home;
  private final FileChannel clients;
  private final int port;
  private final boolean started;
  private FileLock shared;

  private EmbeddedPostgresServer(Path home, FileChannel clients, FileLock shared, int port,
      boolean started) {
    this.home = home;
    this.clients = clients;
    this.shared = shared;
    this.port = port;
    this.started = started;
  }

  /**
   * Uses the server of {@code home}, starting it if none runs.
   *
   * @param notice told what happens that a person waiting may want to know (a start, a first run)
   * @throws ServiceUnavailableException the server could not be started or reached
   */
  public static EmbeddedPostgresServer attach(Path home, Consumer<String> notice) {
    synchronized (EmbeddedPostgresServer.class) {
      // A second user in this process (migrate between two schemas of it) shares the first's.
      if (inThisJvm != null) {
        if (!inThisJvm.home.equals(home)) {
          throw new IllegalStateException("this process already uses the embedded PostgreSQL of "
              + inThisJvm.home);
        }
        usersInThisJvm++;
        return inThisJvm;
      }
      EmbeddedPostgresServer server = attachNew(home, notice);
      inThisJvm = server;
      usersInThisJvm = 1;
      return server;
    }
  }

  private static EmbeddedPostgresServer attachNew(Path home, Consumer<String> notice) {
    if (!IN_THIS_JVM.compareAndSet(false, true)) {
      throw new IllegalStateException("this process already uses the embedded PostgreSQL");
    }
    FileChannel clients = null;
    try {
      if (!Files.isDirectory(home)) {
        Secret.privateDirectory(home); // a new home is its owner's alone
      }
      clients = FileChannel.open(home.resolve("clients.lock"), StandardOpenOption.CREATE,
          StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock shared = clients.lock(0, Long.MAX_VALUE, true);
      try (FileChannel start = FileChannel.open(home.resolve("start.lock"),
          StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock ignored = start.lock()) {
        Optional<Integer> running = runningPort(home);
        if (running.isPresent()) {
          return new EmbeddedPostgresServer(home, clients, shared, running.get(), false);
        }
        return new EmbeddedPostgresServer(home, clients, shared, start(home, notice), true);
      }
    } catch (IOException | RuntimeException e) {
      closeQuietly(clients);
      IN_THIS_JVM.set(false);
      throw e instanceof ServiceUnavailableException s ? s
          : new ServiceUnavailableException("the embedded PostgreSQL in " + home
              + " is not available: " + e.getMessage() + " (its log: " + log(home)
              + "; --store names another store)", e);
    }
  }

  /** The store URI of this server, its password included (not for display). */
  public String uri() {
    return "postgres://postgres:" + Secret.of(home) + "@localhost:" + port + "/postgres";
  }

  /** Whether this process started the server (rather than attaching to a running one). */
  public boolean started() {
    return started;
  }

  /** The data directory. */
  public Path dataDirectory() {
    return dataDirectory(home);
  }

  /**
   * Stops using the server; the last process to do so stops it. Close the store first: a smart
   * shutdown waits for open connections.
   */
  @Override
  public void close() {
    synchronized (EmbeddedPostgresServer.class) {
      if (inThisJvm == this && --usersInThisJvm > 0) {
        return;
      }
      if (inThisJvm == this) {
        inThisJvm = null;
      }
    }
    release();
  }

  private synchronized void release() {
    if (shared == null) {
      return;
    }
    try {
      shared.release();
      shared = null;
      FileLock last = clients.tryLock();
      if (last != null) {
        try {
          stop(home);
        } finally {
          last.release();
        }
      }
    } catch (IOException e) {
      // The locks go with the channel; a server left running is found by the next process.
    } finally {
      closeQuietly(clients);
      IN_THIS_JVM.set(false);
    }
  }

  private static Path dataDirectory(Path home) {
    return home.resolve("pgdata");
  }

  private static Path log(Path home) {
    return home.resolve("postgres.log");
  }

  /**
   * The port of the server that runs on this home's data directory, or empty when none does (no
   * postmaster.pid, or one left behind by a server that died). A server that is still starting
   * or stopping is waited for.
   */
  private static Optional<Integer> runningPort(Path home) {
    long deadline = System.nanoTime() + START_WAIT.toNanos();
    while (true) {
      Optional<Postmaster> pm = Postmaster.of(dataDirectory(home));
      if (pm.isEmpty() || pm.get().process().isEmpty()) {
        return Optional.empty();
      }
      if (serves(home, pm.get().port())) {
        return Optional.of(pm.get().port());
      }
      if (System.nanoTime() > deadline) {
        throw new ServiceUnavailableException("a PostgreSQL (pid " + pm.get().pid() + ") runs on "
            + dataDirectory(home) + " but does not answer on port " + pm.get().port()
            + " (its log: " + log(home) + ")");
      }
      sleep(200);
    }
  }

  /** Whether a server answers on the port and serves this data directory (not another's). */
  private static boolean serves(Path home, int port) {
    Path dataDirectory = dataDirectory(home);
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    p.setProperty("password", Secret.of(home));
    p.setProperty("connectTimeout", "2");
    p.setProperty("socketTimeout", "10");
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://localhost:" + port
        + "/postgres", p);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW data_directory")) {
      return rs.next() && Files.isSameFile(Path.of(rs.getString(1)), dataDirectory);
    } catch (SQLException | IOException e) {
      return false;
    }
  }

  private static int start(Path home, Consumer<String> notice) throws IOException {
    Path data = dataDirectory(home);
    boolean fresh = !Files.exists(data.resolve("PG_VERSION"));
    notice.accept(fresh
        ? "starting the embedded PostgreSQL; first run: creating its database in " + data
        : "starting the embedded PostgreSQL (data in " + data + ")");
    String secret = Secret.of(home);
    Path sockets = Secret.privateDirectory(home.resolve("run"));
    // A server that died keeps its port where it can: a process still using it reconnects there.
    Optional<Postmaster> dead = Postmaster.of(data);
    int port = dead.map(Postmaster::port).filter(EmbeddedPostgresServer::free).orElse(0);
    if (dead.isPresent()) {
      // runningPort found no live postmaster. PostgreSQL would refuse to start while the pid of
      // the file is a process at all: a zombie nobody has reaped yet, or another program's after
      // a reboot. Its shared-memory check still stops a start beside backends left running.
      Files.deleteIfExists(data.resolve("postmaster.pid"));
      Files.deleteIfExists(sockets.resolve(".s.PGSQL." + dead.get().port() + ".lock"));
      Files.deleteIfExists(sockets.resolve(".s.PGSQL." + dead.get().port()));
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (true) {
      try {
        EmbeddedPostgres.Builder b = EmbeddedPostgres.builder()
            .setDataDirectory(data)
            .setCleanDataDirectory(false)
            .setRegisterShutdownHook(false)
            .setPGStartupWait(START_WAIT)
            .setPort(port)
            // The binaries under the home, not in a /tmp directory another user could fill first.
            .setOverrideWorkingDirectory(Secret.privateDirectory(home.resolve("postgres")).toFile())
            // initdb: zonky passes "-A trust"; these later options win. The superuser gets the
            // home's secret, and every connection must prove it (SCRAM).
            .setLocaleConfig("auth", "scram-sha-256")
            .setLocaleConfig("pwfile", Secret.file(home).toString())
            .setConnectConfig("password", secret)
            // zonky passes -F (no fsync) and synchronous_commit=off, fine for tests; a store that
            // says "done" must have it on disk.
            .setServerConfig("fsync", "on")
            .setServerConfig("synchronous_commit", "on")
            .setServerConfig("full_page_writes", "on")
            .setServerConfig("listen_addresses", "localhost")
            .setServerConfig("unix_socket_directories", socketDirectory(sockets))
            .setServerConfig("unix_socket_permissions", "0700")
            .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log(home).toFile()))
            .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log(home).toFile()));
        EmbeddedPostgres pg = b.start();
        // zonky holds pgdata/epg-lock for the life of this JVM; our start.lock already keeps
        // starts apart, so the file goes: if this server dies while this process lives, another
        // process (or this one) can start the next without waiting for this one to exit.
        Files.deleteIfExists(data.resolve("epg-lock"));
        closeTrustOf(home, pg.getPort(), secret);
        return pg.getPort();
      } catch (IllegalStateException e) {
        // A server data directory started by an earlier objectmeta still has its epg-lock held
        // by the process that started it, which may still be exiting.
        if (e.getMessage() == null || !e.getMessage().startsWith("could not lock")
            || System.nanoTime() > deadline) {
          throw e;
        }
        sleep(200);
      }
    }
  }

  /** The socket directory, or none (TCP on loopback only) where its path would be too long. */
  private static String socketDirectory(Path sockets) {
    // sun_path holds 108 bytes: the directory, "/.s.PGSQL.", five digits and ".lock".
    return sockets.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 21 <= 107
        ? sockets.toString() : "";
  }

  private static boolean free(int port) {
    try (java.net.ServerSocket s = new java.net.ServerSocket(port, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * A data directory made by an earlier objectmeta trusts every local connection: its superuser
   * gets the home's secret and its pg_hba.conf asks every connection for it (SCRAM).
   */
  private static void closeTrustOf(Path home, int port, String secret) throws IOException {
    Path hba = dataDirectory(home).resolve("pg_hba.conf");
    List<String> rules = Files.readAllLines(hba);
    boolean trusts = rules.stream().map(String::trim)
        .anyMatch(l -> !l.startsWith("#") && l.matches(".*\\btrust\\b.*"));
    if (!trusts) {
      return;
    }
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    p.setProperty("password", secret);
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://localhost:" + port
        + "/postgres", p); Statement st = c.createStatement()) {
      st.execute("SET password_encryption = 'scram-sha-256'");
      st.execute("ALTER ROLE postgres PASSWORD '" + secret + "'");
      Files.write(hba, List.of(
          "# objectmeta: every connection proves the secret in $OBJECTMETA_HOME (SCRAM)",
          "local all all scram-sha-256",
          "host all all 127.0.0.1/32 scram-sha-256",
          "host all all ::1/128 scram-sha-256"));
      st.execute("SELECT pg_reload_conf()");
    } catch (SQLException e) {
      throw new IOException("could not set the password of the embedded PostgreSQL: "
          + e.getMessage(), e);
    }
  }

  private static void stop(Path home) {
    Optional<ProcessHandle> server = Postmaster.of(dataDirectory(home))
        .flatMap(Postmaster::process);
    if (server.isEmpty()) {
      return;
    }
    server.get().destroy(); // SIGTERM: PostgreSQL's smart shutdown; no client is left
    // Polled here: onExit() of a process that is not our child backs off to seconds between looks.
    long deadline = System.nanoTime() + STOP_WAIT.toNanos();
    while (Postmaster.running(server.get()) && System.nanoTime() < deadline) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return; // still stopping: the next process waits for it (runningPort) or attaches
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServiceUnavailableException("interrupted while waiting for the embedded PostgreSQL");
    }
  }

  private static void closeQuietly(FileChannel c) {
    if (c != null) {
      try {
        c.close();
      } catch (IOException ignored) {
        // closing releases its locks either way
      }
    }
  }
}
