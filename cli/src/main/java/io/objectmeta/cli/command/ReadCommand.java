package io.objectmeta.cli.command;

import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.cli.Session;

/** What {@code get} and {@code head} share: read the current object, or a version, and print it. */
abstract class ReadCommand extends VersionCommand {

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
