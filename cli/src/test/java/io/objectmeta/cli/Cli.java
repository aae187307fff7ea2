package io.objectmeta.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Runs command lines in this JVM against one named in-memory store ({@code memory:NAME} is shared
 * by every command that names it), capturing stdout, stderr and the exit code.
 */
final class Cli {
  private final Map<String, String> env = new HashMap<>();

  /** A fresh store of its own. */
  Cli() {
    env.put("OBJECTMETA_STORE", "memory:cli-test-" + UUID.randomUUID());
  }

  /** With an environment of its own instead (no store unless it names one). */
  Cli(Map<String, String> env) {
    this.env.putAll(env);
  }

  /** What one command line did. */
  record Result(int exit, String out, String err) {
    List<String> errLines() {
      return err.isEmpty() ? List.of() : List.of(err.split("\n"));
    }

    List<String> outLines() {
      return out.isEmpty() ? List.of() : List.of(out.split("\n"));
    }

    JsonNode json() {
      try {
        return Output.JSON.readTree(out);
      } catch (Exception e) {
        throw new AssertionError("not JSON: " + out, e);
      }
    }
  }

  /** Runs {@code args} (with -q: no "store: ..." line on stderr). */
  Result run(String... args) {
    List<String> all = new ArrayList<>(List.of("-q"));
    all.addAll(List.of(args));
    return runLoud(all.toArray(String[]::new));
  }

  /** Runs {@code args} as given. */
  Result runLoud(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = Main.run(env, new PrintWriter(out), new PrintWriter(err), args);
    return new Result(exit, out.toString(), err.toString());
  }

  /** Runs {@code args} and insists it succeeded. */
  Result ok(String... args) {
    Result r = run(args);
    if (r.exit() != 0) {
      throw new AssertionError("exit " + r.exit() + " from " + String.join(" ", args) + ": " + r.err());
    }
    return r;
  }
}
