package io.objectmeta.cli.command;

import io.objectmeta.api.validation.Validation;
import picocli.CommandLine.Parameters;

/** A command about one key of a bucket: {@code BUCKET KEY}, both checked before the store opens. */
abstract class KeyCommand extends OnBucketCommand {
  @Parameters(index = "1", paramLabel = "KEY")
  String key;

  @Override
  protected void checkInput() {
    super.checkInput();
    Validation.key(key);
  }
}
