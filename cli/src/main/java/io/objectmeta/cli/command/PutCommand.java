package io.objectmeta.cli.command;

import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.WriteCondition;
import io.objectmeta.cli.Session;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code put BUCKET KEY}: writes an object version's metadata, as PutObject would. */
@Command(name = "put", description = {"Write an object version's metadata (PutObject).",
    "Unversioned buckets overwrite; versioned ones add a version; suspended ones replace the null"
        + " version."})
public final class PutCommand extends KeyCommand {
  @Mixin
  MetadataOptions metadata;

  @ArgGroup(exclusive = true)
  Condition condition;

  /** At most one precondition, as S3's If-Match / If-None-Match headers. */
  static final class Condition {
    @Option(names = "--if-none-match", paramLabel = "*",
        description = "Create only: fail with PreconditionFailed if the key has a current object.")
    String ifNoneMatch;

    @Option(names = "--if-match", paramLabel = "ETAG",
        description = "Fail with PreconditionFailed unless the current object has this etag.")
    String ifMatch;

    @Option(names = "--if-match-version-id", paramLabel = "ID",
        description = "Fail with PreconditionFailed unless the current object is this version.")
    String ifMatchVersionId;
  }

  @Override
  protected void checkInput() {
    super.checkInput();
    if (condition != null && condition.ifNoneMatch != null && !condition.ifNoneMatch.equals("*")) {
      throw usage("--if-none-match takes only '*' (create only), got '" + condition.ifNoneMatch + "'");
    }
  }

  @Override
  protected int run(Session s) {
    ObjectVersion v = s.store().putObject(bucket, key, metadata.build(), writeCondition());
    VersionView.print(out(), v, false, json());
    return 0;
  }

  private WriteCondition writeCondition() {
    if (condition == null) {
      return WriteCondition.none();
    }
    if (condition.ifNoneMatch != null) {
      return WriteCondition.createOnly();
    }
    return condition.ifMatch != null ? WriteCondition.ifMatchEtag(condition.ifMatch)
        : WriteCondition.ifMatchVersionId(condition.ifMatchVersionId);
  }
}
