package io.objectmeta.cli.command;

import io.objectmeta.api.validation.Validation;
import io.objectmeta.cli.StoreCommand;
import picocli.CommandLine.Parameters;

/** A command on one bucket: {@code BUCKET} first, its name checked before the store opens. */
abstract class OnBucketCommand extends StoreCommand {
  @Parameters(index = "0", paramLabel = "BUCKET", description = "The bucket (S3's naming rules).")
  String bucket;

  @Override
  protected void checkInput() {
    Validation.bucketName(bucket);
  }
}
