package io.objectmeta.cli.command;

import io.objectmeta.api.validation.Validation;
import picocli.CommandLine.Option;

/** A command about one key, or with {@code --version-id} one version of it. */
abstract class VersionCommand extends KeyCommand {
  @Option(names = "--version-id", paramLabel = "ID",
      description = "That version of the key (\"null\" for the null version).")
  String versionId;

  @Override
  protected void checkInput() {
    super.checkInput();
    if (versionId != null) {
      Validation.versionId("versionId", versionId);
    }
  }
}
