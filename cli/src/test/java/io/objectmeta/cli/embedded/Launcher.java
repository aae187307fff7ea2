package io.objectmeta.cli.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the real {@code ./objectmeta} script as a process, with {@code OBJECTMETA_HOME} set to a
 * directory of the test's and no {@code OBJECTMETA_STORE}: the embedded PostgreSQL default.
 * {@link #close()} stops a server a test left running (and says whether there was one).
 */
public final class Launcher implements AutoCloseable {
  /** The repository root, where the script is. */
  public static final Path ROOT = Path.of(System.getProperty("objectmeta.root", ".."))
      .toAbsolutePath().normalize();

  private final Path dir;
  private final Path home;
  private final AtomicInteger runs = new AtomicInteger();

  /** Processes get {@code dir/home} as their home; their output lands in {@code dir}. */
  public Launcher(Path dir) {
    this.dir = dir;
    this.home = dir.resolve("home");
  }

  public Path home() {
    return home;
  }

  /** What a finished run did. */
  public record Result(int exit, String out, String err, Duration took) {
    public List<String> errLines() {
      return err.isEmpty() ? List.of() : List.of(err.split("\n"));
    }
  }

  /** A started run. */
  public final class Run {
    private final Process process;
    private final Path out;
    private final Path err;
    private final long started = System.nanoTime();

    private Run(Process process, Path out, Path err) {
      this.process = process;
      this.out = out;
      this.err = err;
    }

    public Process process() {
      return process;
    }

    /** Its stderr so far. */
    public String err() {
      return read(err);
    }

    /** Waits for it to end; a run that outlives {@code timeout} is killed and fails the test. */
    public Result await(Duration timeout) throws InterruptedException {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("still running after " + timeout + "; stderr: " + read(err));
      }
      return new Result(process.exitValue(), read(out), read(err),
          Duration.ofNanos(System.nanoTime() - started));
    }
  }

  /** Starts {@code ./objectmeta args...}. */
  public Run start(String... args) throws IOException {
    int n = runs.incrementAndGet();
    List<String> command = new ArrayList<>(List.of(ROOT.resolve("objectmeta").toString()));
    command.addAll(List.of(args));
    Path out = dir.resolve("run" + n + ".out");
    Path err = dir.resolve("run" + n + ".err");
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().remove("OBJECTMETA_STORE");
    pb.environment().put("OBJECTMETA_HOME", home.toString());
    return new Run(pb.start(), out, err);
  }

  /** Runs {@code ./objectmeta args...} to its end (two minutes at most). */
  public Result run(String... args) throws IOException, InterruptedException {
    return start(args).await(Duration.ofMinutes(2));
  }

  /** The server running on the home's data directory, if one does. */
  public Optional<ProcessHandle> server() {
    return Postmaster.of(home.resolve("pgdata")).flatMap(Postmaster::process);
  }

  /**
   * Versions the embedded server's default schema holds now, read over JDBC (0 while there is no
   * server or no schema yet): what a test waits on to know a command is writing.
   */
  public long objectVersions() {
    Optional<Postmaster> pm = Postmaster.of(home.resolve("pgdata"));
    if (pm.isEmpty()) {
      return 0;
    }
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(
            "jdbc:postgresql://localhost:" + pm.get().port() + "/postgres", "postgres",
            Secret.of(home));
        java.sql.Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery("SELECT count(*) FROM objectmeta.object_version")) {
      rs.next();
      return rs.getLong(1);
    } catch (java.sql.SQLException notYet) {
      return 0;
    }
  }

  /** Asserts that no server runs on the home's data directory: the last process stopped it. */
  public void assertNoServer() {
    assertThat(server()).as("a PostgreSQL left running on " + home).isEmpty();
  }

  /** Stops a server that is still running (a failed test's), so none outlives the tests. */
  @Override
  public void close() throws Exception {
    Optional<ProcessHandle> left = server();
    if (left.isPresent()) {
      left.get().destroy();
      io.objectmeta.conformance.Polling.until("the left server stops", java.time.Duration.ofMinutes(1),
          () -> !Postmaster.running(left.get()));
    }
  }

  private static String read(Path p) {
    try {
      return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
