package io.objectmeta.cli.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.MetadataStores;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.conformance.Polling;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The embedded server keeps what it acknowledged through a crash, lets no other OS user in, and
 * comes back when it died while the process that started it lives on.
 */
class EmbeddedServerSafetyIT extends LauncherTestBase {
  private static final boolean CI = "true".equalsIgnoreCase(System.getenv("CI"));

  /** Kills the postmaster and every backend, as a crash (or the OOM killer) would. */
  private static void crash(Path home) {
    ProcessHandle pm = Postmaster.of(home.resolve("pgdata")).flatMap(Postmaster::process)
        .orElseThrow(() -> new AssertionError("no server runs on " + home));
    List<ProcessHandle> all = new ArrayList<>(pm.descendants().toList());
    all.add(0, pm);
    all.forEach(ProcessHandle::destroyForcibly);
    Polling.until("the killed server is gone", Duration.ofSeconds(30),
        () -> all.stream().noneMatch(Postmaster::running));
  }

  private static String setting(String uri, String name) throws Exception {
    java.net.URI u = java.net.URI.create(uri);
    String[] userInfo = u.getUserInfo().split(":", 2);
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://localhost:" + u.getPort()
        + "/postgres", userInfo[0], userInfo[1]);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SHOW " + name)) {
      rs.next();
      return rs.getString(1);
    }
  }

  @Test
  void everyAcknowledgedPutSurvivesAKillOfTheServerUnderLoad() throws Exception {
    Path home = launcher.home();
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    try (EmbeddedPostgresServer server = EmbeddedPostgresServer.attach(home, n -> { })) {
      assertThat(setting(server.uri(), "synchronous_commit")).isEqualTo("on");
      assertThat(setting(server.uri(), "fsync")).isEqualTo("on");
      try (MetadataStore store = MetadataStores.open(server.uri())) {
        store.createBucket("crash", "o", null);
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          int id = t;
          Thread w = new Thread(() -> {
            for (int i = 0; !stop.get(); i++) {
              String key = "w" + id + "/" + i;
              try {
                store.putObject("crash", key, ObjectMetadata.builder().size(i).etag("e").build());
                acknowledged.add(key);
              } catch (RuntimeException lost) {
                if (stop.get()) {
                  return;
                }
              }
            }
          });
          w.start();
          writers.add(w);
        }
        Polling.until("writes under way", Duration.ofSeconds(60), () -> acknowledged.size() > 1500);
        crash(home);
        stop.set(true);
        for (Thread w : writers) {
          w.join(TimeUnit.SECONDS.toMillis(60));
        }
      }
    }
    assertThat(acknowledged).hasSizeGreaterThan(1500);
    // The next user starts the server again; it recovers from its WAL.
    try (EmbeddedPostgresServer server = EmbeddedPostgresServer.attach(home, n -> { });
        MetadataStore store = MetadataStores.open(server.uri())) {
      List<String> missing = new ArrayList<>();
      for (String key : acknowledged) {
        try {
          store.getObject("crash", key);
        } catch (io.objectmeta.api.error.NoSuchKeyException e) {
          missing.add(key);
        }
      }
      assertThat(missing).as("acknowledged puts lost by the crash, of %d", acknowledged.size())
          .isEmpty();
    }
    launcher.assertNoServer();
  }

  @Test
  void aServerThatDiedIsStartedAgainByTheNextProcessWhileItsStarterLives() throws Exception {
    Path home = launcher.home();
    try (EmbeddedPostgresServer server = EmbeddedPostgresServer.attach(home, n -> { });
        MetadataStore store = MetadataStores.open(server.uri())) {
      store.createBucket("phoenix", "o", null);
      crash(home);

      Launcher.Result next = launcher.run("-q", "put", "phoenix", "after", "--size", "1");
      assertThat(next.exit()).as(next.err() + "\nserver log:\n"
          + Files.readString(home.resolve("postgres.log"))).isZero();
      assertThat(launcher.server()).as("the server the next process started, for us").isPresent();

      // The starter's store finds the new server on the old port once its broken connections go.
      Polling.until("the starter's store works again", Duration.ofSeconds(30), () -> {
        try {
          store.putObject("phoenix", "again", ObjectMetadata.builder().size(1).build());
          return true;
        } catch (io.objectmeta.api.error.ServiceUnavailableException brokenConnection) {
          return false;
        }
      });
      assertThat(store.getObject("phoenix", "after").metadata().size()).isEqualTo(1);
    }
    launcher.assertNoServer();
  }

  @Test
  void anotherOsUserCannotConnectNorReadTheSecret() throws Exception {
    boolean root = "root".equals(System.getProperty("user.name"));
    Path psql = Stream.of("/usr/bin/psql").map(Path::of).filter(Files::isExecutable).findFirst()
        .orElse(null);
    if (!CI) {
      assumeThat(root).as("switching to another OS user needs root").isTrue();
      assumeThat(psql).as("psql, to connect as another user").isNotNull();
    }
    assertThat(root).as("CI runs as root, to switch users").isTrue();
    assertThat(psql).as("psql (Debian's postgresql-client, installed by .ci/run)").isNotNull();

    Path home = launcher.home();
    try (EmbeddedPostgresServer server = EmbeddedPostgresServer.attach(home, n -> { })) {
      int port = java.net.URI.create(server.uri()).getPort();
      // As if the home were in a directory anyone may pass through (a home directory of 0755).
      for (Path p = home; p != null && !p.equals(dir.getParent()); p = p.getParent()) {
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
      }
      Path secret = home.resolve("postgres.secret");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret)))
          .isEqualTo("rw-------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve("run"))))
          .isEqualTo("rwx------");
      assertThat(Files.list(home.resolve("postgres")).toList()).as("the binaries, under the home")
          .anySatisfy(d -> assertThat(d.resolve("bin/postgres")).isExecutable());
      assertThat(Files.readString(home.resolve("pgdata/pg_hba.conf")))
          .doesNotContainPattern("(?m)^[^#]*\\btrust\\b");
      assertThat(setting(server.uri(), "listen_addresses")).isEqualTo("localhost");

      Shell tcp = Shell.asNobody(psql + " -w -h 127.0.0.1 -p " + port + " -U postgres -d postgres"
          + " -c 'SELECT 1'");
      assertThat(tcp.exit()).as(tcp.out()).isNotZero();
      assertThat(tcp.out()).containsAnyOf("no password supplied", "password authentication failed");
      Shell socket = Shell.asNobody(psql + " -w -h " + home.resolve("run") + " -p " + port
          + " -U postgres -d postgres -c 'SELECT 1'");
      assertThat(socket.exit()).as(socket.out()).isNotZero();
      assertThat(socket.out()).doesNotContain("1 row");
      Shell read = Shell.asNobody("cat " + secret);
      assertThat(read.exit()).as(read.out()).isNotZero();
      assertThat(read.out()).contains("Permission denied");

      // The owner, with the secret, gets in.
      Shell owner = Shell.run(List.of("bash", "-c", "PGPASSWORD=$(cat " + secret + ") " + psql
          + " -w -h 127.0.0.1 -p " + port + " -U postgres -d postgres -tAc 'SELECT 7'"));
      assertThat(owner.out().trim()).as(owner.out()).isEqualTo("7");
    }
    launcher.assertNoServer();
  }

  /** A shell command's exit code and output (stdout and stderr together). */
  private record Shell(int exit, String out) {
    static Shell asNobody(String command) throws Exception {
      return run(List.of("runuser", "-u", "nobody", "--", "bash", "-c", command));
    }

    static Shell run(List<String> command) throws Exception {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      return new Shell(p.exitValue(), out);
    }
  }
}
