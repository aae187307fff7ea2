package io.objectmeta.cli;

import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.error.NoSuchKeyException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Every failure becomes one line on stderr, {@code objectmeta: CODE: message} for a store's S3
 * error, and the exit code of {@link ExitCode#of}; a stack trace only with --verbose.
 */
final class Failures implements IExecutionExceptionHandler, IParameterExceptionHandler {

  @Override
  public int handleExecutionException(Exception ex, CommandLine cl, ParseResult parsed) {
    PrintWriter err = cl.getErr();
    boolean verbose = ((ObjectmetaCommand) cl.getCommandSpec().root().userObject()).verbose();
    if (Interrupts.began()) {
      err.println("objectmeta: interrupted");
      err.flush();
      return ExitCode.INTERRUPTED;
    }
    int code = ExitCode.of(ex);
    String line;
    if (ex instanceof MetadataException m) {
      line = m.code() + ": " + m.getMessage();
      if (m instanceof NoSuchKeyException k && k.deleteMarker()) {
        line += " [delete marker " + k.versionId() + "]";
      }
    } else {
      line = "internal error: " + ex + (verbose ? "" : " (--verbose shows the stack trace)");
    }
    err.println("objectmeta: " + Text.printable(line));
    if (verbose) {
      ex.printStackTrace(err);
    }
    err.flush();
    return code;
  }

  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    CommandLine cl = ex.getCommandLine();
    PrintWriter err = cl.getErr();
    err.println("objectmeta: " + Text.printable(ex.getMessage()) + " (see: "
        + cl.getCommandSpec().qualifiedName() + " --help)");
    err.flush();
    return ExitCode.USAGE;
  }
}
