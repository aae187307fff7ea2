package io.objectmeta.cli;

import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.error.ServiceUnavailableException;
import io.objectmeta.api.error.StoreConfigurationException;
import java.util.Set;

/**
 * The exit codes of the command, for scripts. They are listed in every command's help and in
 * README.md; {@link #of(Throwable)} is the one place that maps a failure to its code.
 */
public final class ExitCode {
  private ExitCode() {}

  /** Done. */
  public static final int OK = 0;
  /** The store answered with an S3 error about the state it holds (NoSuchKey, BucketNotEmpty, …). */
  public static final int S3_ERROR = 1;
  /**
   * The command line or its input is wrong (unknown option, invalid bucket name, unknown URI scheme),
   * or the store it names is not there as configured (no such database, role or schema; a refused
   * password): trying again unchanged will not help.
   */
  public static final int USAGE = 2;
  /** The store cannot be reached or is unavailable (ServiceUnavailable); trying again may work. */
  public static final int UNAVAILABLE = 3;
  /**
   * gc run finished, but its sink refused some batches (they went back to the queue), or some
   * records' lease ended before the sink finished (not acknowledged; still queued).
   */
  public static final int INCOMPLETE = 4;
  /** verify found the store breaking the contract (or a migration's copy differing from its source). */
  public static final int MISMATCH = 5;
  /** A bug in objectmeta: run again with --verbose for the stack trace. */
  public static final int INTERNAL = 70;
  /** Stopped by Ctrl-C while failing (a stop by SIGINT or SIGTERM otherwise exits 130 or 143). */
  public static final int INTERRUPTED = 130;

  /** The S3 codes a store raises before anything reaches its database: the caller's input is wrong. */
  private static final Set<String> INPUT_CODES = Set.of("InvalidArgument", "InvalidBucketName",
      "KeyTooLongError");

  /** The code a failure exits with. */
  public static int of(Throwable t) {
    if (t instanceof ServiceUnavailableException) {
      return UNAVAILABLE;
    }
    if (t instanceof StoreConfigurationException) {
      return USAGE;
    }
    if (t instanceof MetadataException m) {
      return INPUT_CODES.contains(m.code()) ? USAGE : S3_ERROR;
    }
    return INTERNAL;
  }
}
