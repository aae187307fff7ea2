package io.objectmeta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.error.InvalidBucketNameException;
import io.objectmeta.api.error.NoSuchKeyException;
import io.objectmeta.api.error.ServiceUnavailableException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MainTest {
  private final Cli cli = new Cli();

  @Test
  void failuresMapToTheDocumentedExitCodes() {
    assertThat(ExitCode.of(new NoSuchKeyException("k"))).isEqualTo(1);
    assertThat(ExitCode.of(new InvalidBucketNameException("b"))).isEqualTo(2);
    assertThat(ExitCode.of(new ServiceUnavailableException("down"))).isEqualTo(3);
    assertThat(ExitCode.of(new io.objectmeta.api.error.StoreConfigurationException(
        "database \"x\" does not exist", null))).as("no retry cures it").isEqualTo(2);
    assertThat(ExitCode.of(new IllegalStateException("bug"))).isEqualTo(70);
  }

  @Test
  void theHelpListsEveryExitCode() {
    Cli.Result help = cli.ok("--help");
    for (int code : new int[] {ExitCode.OK, ExitCode.S3_ERROR, ExitCode.USAGE,
        ExitCode.UNAVAILABLE, ExitCode.INCOMPLETE, ExitCode.INTERNAL}) {
      assertThat(help.outLines()).anySatisfy(l -> assertThat(l).matches(" +" + code + " +\\S.*"));
    }
    assertThat(cli.ok("gc", "run", "--help").out()).contains("Exit codes:", "--grace-period");
  }

  @Test
  void usageErrorsAreOneLineWithAPointerToTheHelp() {
    Cli.Result unknownOption = cli.run("list", "photos", "--colour");
    assertThat(unknownOption.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(unknownOption.errLines()).containsExactly(
        "objectmeta: Unknown option: '--colour' (see: objectmeta list --help)");

    Cli.Result noCommand = cli.run();
    assertThat(noCommand.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(noCommand.errLines()).singleElement().asString().contains("Missing required subcommand");

    Cli.Result missing = cli.run("put", "photos");
    assertThat(missing.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(missing.errLines()).singleElement().asString().contains("KEY");
  }

  @Test
  void anUnknownSchemeAndAnUnreachableDatabaseAreOneLineEach() {
    Cli.Result scheme = cli.run("--store", "nosuch://x", "stats");
    assertThat(scheme.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(scheme.errLines()).containsExactly("objectmeta: InvalidArgument: uri: no backend for"
        + " scheme \"nosuch\" on the class path; schemes available: bigtable, memory, mongodb, mongodb+srv, postgres, postgresql");

    Cli.Result down = cli.run("--store", "postgres://127.0.0.1:1/x", "stats");
    assertThat(down.exit()).isEqualTo(ExitCode.UNAVAILABLE);
    assertThat(down.errLines()).singleElement().asString()
        .startsWith("objectmeta: ServiceUnavailable: cannot reach PostgreSQL at 127.0.0.1:1/x");

    Cli.Result mongo = cli.run("--store", "mongodb://127.0.0.1:1/x?serverSelectionTimeoutMS=300",
        "stats");
    assertThat(mongo.exit()).isEqualTo(ExitCode.UNAVAILABLE);
    assertThat(mongo.errLines()).singleElement().asString()
        .startsWith("objectmeta: ServiceUnavailable: mongodb");
  }

  @Test
  void theStoreIsTheOptionElseTheEnvironmentAndItIsNamedOnStderr() {
    Cli env = new Cli(Map.of("OBJECTMETA_STORE", "memory:from-env"));
    assertThat(env.runLoud("stats").errLines()).containsExactly("objectmeta: store: memory:from-env");
    assertThat(env.runLoud("--store", "memory:from-option", "stats").errLines())
        .containsExactly("objectmeta: store: memory:from-option");
    assertThat(env.runLoud("-q", "stats").err()).isEmpty();
  }

  @Test
  void aPasswordInTheStoreUriIsNotShown() {
    assertThat(Session.redact("postgres://alice:s3cret@db:5432/meta"))
        .isEqualTo("postgres://alice:***@db:5432/meta");
    assertThat(Session.redact("postgres://db/meta?user=a&password=s3cret&schema=x"))
        .isEqualTo("postgres://db/meta?user=a&password=***&schema=x");
    assertThat(Session.redact("memory:")).isEqualTo("memory:");
  }

  @Test
  void aRecognisablePasswordAppearsOnNoPathOfTheCommand(@org.junit.jupiter.api.io.TempDir
      java.nio.file.Path dir) {
    String pw = "Sup3rS3cretPw";
    String[] stores = {
        "postgres://alice:" + pw + "@bad host/db",                       // not a URI
        "postgres://alice:" + pw + "/x@db:5432/meta",                    // parses, oddly
        "postgres://alice:" + pw + "@127.0.0.1:1/db?connectTimeoutSeconds=1", // unreachable
        "postgres://alice:" + pw + "@127.0.0.1:1/db?schma=x",            // misspelled option
        "postgres://127.0.0.1:1/db?user=alice&password=" + pw + "&connectTimeoutSeconds=1",
        "mongodb://alice:" + pw + "@127.0.0.1:1/db?serverSelectionTimeoutMS=200",
        "mongodb://alice:" + pw + "@127.0.0.1:1/db?serverSelectionTimeotMS=200",
        "nosuch://alice:" + pw + "@h/db"};
    for (String store : stores) {
      for (String[] args : new String[][] {{"stats"}, {"-v", "stats"}, {"verify"},
          {"migrate", "--from", "memory:pw-src", "--to", store, "--checkpoint",
              dir.resolve("m.json").toString()},
          {"migrate", "--from", store, "--to", "memory:pw-dst", "--checkpoint",
              dir.resolve("m2.json").toString()}}) {
        java.util.List<String> line = new java.util.ArrayList<>();
        if (!args[0].equals("migrate")) {
          line.addAll(java.util.List.of("--store", store));
        }
        line.addAll(java.util.List.of(args));
        Cli.Result r = cli.runLoud(line.toArray(String[]::new));
        assertThat(r.exit()).as(line.toString()).isNotZero();
        assertThat(r.out() + r.err()).as(line + " said: " + r.err()).doesNotContain(pw);
      }
    }
  }

  @Test
  void theHomeIsTheEnvironmentsElseDotObjectmetaAndAlwaysAbsolute() {
    assertThat(Session.home(Map.of("OBJECTMETA_HOME", "rel/home")))
        .isAbsolute().endsWithRaw(java.nio.file.Path.of("rel", "home"));
    assertThat(Session.home(Map.of()))
        .isEqualTo(java.nio.file.Path.of(System.getProperty("user.home"), ".objectmeta").toAbsolutePath());
  }

  @Test
  void durationsAndTimesReadAsPeopleWriteThem() {
    assertThat(Converters.duration("0")).isZero();
    assertThat(Converters.duration("90")).hasSeconds(90);
    assertThat(Converters.duration("500ms")).hasMillis(500);
    assertThat(Converters.duration("5m")).hasMinutes(5);
    assertThat(Converters.duration("2d")).hasDays(2);
    assertThat(Converters.duration("PT1H30M")).hasMinutes(90);
    assertThat(Converters.instant("2026-11-22T10:00:00Z"))
        .isEqualTo(java.time.Instant.parse("2026-11-22T10:00:00Z"));
    assertThat(Converters.instant("2026-11-22T11:00:00+01:00"))
        .isEqualTo(java.time.Instant.parse("2026-11-22T10:00:00Z"));
    assertThat(cli.run("gc", "run", "--sink", "log:-", "--grace-period", "-PT1H").exit())
        .isEqualTo(ExitCode.USAGE);
  }
}
