package io.objectmeta.cli.command;

import picocli.CommandLine.Command;

/** {@code get BUCKET KEY}: a version with all of its metadata. */
@Command(name = "get", description = "Show an object version with all its metadata (GetObject"
    + " without the data). NoSuchKey when its latest version is a delete marker.")
public final class GetCommand extends ReadCommand {
  @Override
  boolean full() {
    return true;
  }
}
