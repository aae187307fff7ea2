package io.objectmeta.cli;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import picocli.CommandLine;

/** The entry point of {@code ./objectmeta}. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    // UTF-8 whatever the locale: keys are UTF-8, and a C locale would print them as '?'.
    PrintWriter out = new PrintWriter(new BufferedWriter(
        new OutputStreamWriter(System.out, StandardCharsets.UTF_8)), false);
    PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    int code;
    try {
      code = run(System.getenv(), out, err, RawArguments.of(args));
    } catch (RawArguments.NotUtf8Exception e) {
      err.println("objectmeta: " + e.getMessage());
      err.flush();
      code = ExitCode.USAGE;
    }
    System.exit(code);
  }

  /** Runs one command line; returns its exit code (see {@link ExitCode}). */
  public static int run(Map<String, String> env, PrintWriter out, PrintWriter err, String... args) {
    CommandLine cl = commandLine(env);
    cl.setOut(out);
    cl.setErr(err);
    try {
      return cl.execute(args);
    } finally {
      out.flush();
      err.flush();
    }
  }

  /** The command tree, with its converters and failure handling. */
  static CommandLine commandLine(Map<String, String> env) {
    CommandLine cl = new CommandLine(new ObjectmetaCommand(env));
    Converters.register(cl);
    Failures failures = new Failures();
    cl.setExecutionExceptionHandler(failures);
    cl.setParameterExceptionHandler(failures);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setUsageHelpAutoWidth(true);
    return cl;
  }
}
