package io.objectmeta.cli;

import io.objectmeta.cli.command.BucketCommand;
import io.objectmeta.cli.command.DeleteCommand;
import io.objectmeta.cli.command.DemoCommand;
import io.objectmeta.cli.command.GetCommand;
import io.objectmeta.cli.command.HeadCommand;
import io.objectmeta.cli.command.KeyFormatCommand;
import io.objectmeta.cli.command.ListCommand;
import io.objectmeta.cli.command.MigrateCommand;
import io.objectmeta.cli.command.PutCommand;
import io.objectmeta.cli.command.StatsCommand;
import io.objectmeta.cli.command.UploadsCommand;
import io.objectmeta.cli.command.VerifyCommand;
import io.objectmeta.cli.gc.GcCommand;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The top-level {@code objectmeta} command: the options every subcommand takes, and the list of
 * subcommands (adding one is adding its class to {@code subcommands}).
 */
@Command(name = "objectmeta",
    scope = ScopeType.INHERIT,
    mixinStandardHelpOptions = true,
    versionProvider = ObjectmetaCommand.Version.class,
    usageHelpAutoWidth = true,
    description = {"The metadata layer of an S3-style object store, from the command line.",
        "The store is --store URI, else $OBJECTMETA_STORE, else an embedded PostgreSQL whose data"
            + " lives in $OBJECTMETA_HOME (default ~/.objectmeta) and is shared by concurrent runs."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:done",
        "1:the store answered with an S3 error (NoSuchKey, BucketNotEmpty, PreconditionFailed, ...)",
        "2:usage error or invalid input (unknown option, invalid bucket name, unknown URI scheme),"
            + " or a store that is not there as configured (no such database, role, schema)",
        "3:the store is unreachable or unavailable (ServiceUnavailable); trying again may work",
        "4:gc run finished, but its sink refused some batches, or some records' lease ended before the"
            + " sink finished (either way they are back in the queue)",
        "5:verify found the store breaking the contract, or migrate's copy differs from its source",
        "70:internal error (a bug; --verbose shows the stack trace)"},
    subcommands = {
        DemoCommand.class,
        BucketCommand.class,
        PutCommand.class,
        GetCommand.class,
        HeadCommand.class,
        DeleteCommand.class,
        ListCommand.class,
        UploadsCommand.class,
        StatsCommand.class,
        GcCommand.class,
        VerifyCommand.class,
        MigrateCommand.class,
        KeyFormatCommand.class,
        HelpCommand.class})
public final class ObjectmetaCommand {

  @Option(names = "--store", paramLabel = "URI", scope = ScopeType.INHERIT,
      description = "The store: memory:, postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?schema=S], ...,"
          + " embedded[?schema=S] (default: $OBJECTMETA_STORE, else the embedded PostgreSQL)")
  String store;

  @Option(names = "--json", scope = ScopeType.INHERIT,
      description = "Print JSON instead of a table.")
  boolean json;

  @Option(names = {"-v", "--verbose"}, scope = ScopeType.INHERIT,
      description = "Log what the libraries do, and print stack traces of errors.")
  boolean verbose;

  @Option(names = {"-q", "--quiet"}, scope = ScopeType.INHERIT,
      description = "Do not say on stderr which store is used, or that a server starts.")
  boolean quiet;

  private final Map<String, String> env;

  ObjectmetaCommand(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  public boolean json() {
    return json;
  }

  public boolean verbose() {
    return verbose;
  }

  /** The environment the command runs in (a test can give its own). */
  public Map<String, String> env() {
    return env;
  }

  /** Opens the store the options and environment name, saying which on {@code err}. */
  public Session openSession(PrintWriter err) {
    return openSession(store, err);
  }

  /**
   * Opens the store {@code uri} names (null: $OBJECTMETA_STORE, else the embedded default),
   * saying which on {@code err}: for commands that work on a second store.
   */
  public Session openSession(String uri, PrintWriter err) {
    return Session.open(uri, env, message -> notice(err, message));
  }

  /** The store the command's session opens, when a subcommand names it its own way (--from). */
  public void useStore(String uri) {
    this.store = uri;
  }

  /** The store --store names, or null. */
  public String storeOption() {
    return store;
  }

  /** A line on stderr for a person watching, unless --quiet. */
  public void notice(PrintWriter err, String message) {
    if (!quiet) {
      err.println("objectmeta: " + Text.printable(message));
      err.flush();
    }
  }

  /** The version in the jar's manifest. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = ObjectmetaCommand.class.getPackage().getImplementationVersion();
      return new String[] {"objectmeta " + (v == null ? "(development build)" : v)};
    }
  }
}
