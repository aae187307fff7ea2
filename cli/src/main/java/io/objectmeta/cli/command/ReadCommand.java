package io.objectmeta.cli.command;

import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.validation.Validation;
import io.objectmeta.cli.Session;
import io.objectmeta.cli.StoreCommand;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** What {@code get} and {@code head} share: which version of which key to read. */
abstract class ReadCommand extends StoreCommand {
  @Parameters(index = "0", paramLabel = "BUCKET")
  String bucket;

  @Parameters(index = "1", paramLabel = "KEY")
  String key;

  @Option(names = "--version-id", paramLabel = "ID",
      description = "This version (\"null\" for the null version) instead of the current object.")
  String versionId;

  @Override
  protected void checkInput() {
    Validation.bucketName(bucket);
    Validation.key(key);
    if (versionId != null) {
      Validation.versionId("versionId", versionId);
    }
  }

  @Override
  protected int run(Session s) {
    ObjectVersion v = versionId == null ? s.store().getObject(bucket, key)
        : s.store().getObjectVersion(bucket, key, versionId);
    VersionView.print(out(), v, full(), json());
    return 0;
  }

  /** Whether to print the whole metadata. */
  abstract boolean full();
}
