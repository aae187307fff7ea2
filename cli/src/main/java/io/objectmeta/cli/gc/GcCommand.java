package io.objectmeta.cli.gc;

import picocli.CommandLine.Command;

/** {@code gc run|status}. */
@Command(name = "gc", description = "Drain the GC queue into a sink, or show the queue.",
    subcommands = {GcRunCommand.class, GcStatusCommand.class})
public final class GcCommand {}
