package io.objectmeta.cli.command;

import picocli.CommandLine.Command;

/** {@code head BUCKET KEY}: a version's summary. */
@Command(name = "head", description = "Show an object version's summary (HeadObject): version,"
    + " size, etag, content type, last modified.")
public final class HeadCommand extends ReadCommand {
  @Override
  boolean full() {
    return false;
  }
}
