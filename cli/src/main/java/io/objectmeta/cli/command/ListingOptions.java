package io.objectmeta.cli.command;

import picocli.CommandLine.Option;

/** What every listing takes: a prefix, a delimiter, and whether to walk all pages. */
final class ListingOptions {
  @Option(names = "--prefix", description = "Only keys that start with it.")
  String prefix;

  @Option(names = "--delimiter", description = "Roll keys up into common prefixes at it (e.g. /).")
  String delimiter;

  @Option(names = "--all", description = "Every page, not just the first.")
  boolean all;
}
