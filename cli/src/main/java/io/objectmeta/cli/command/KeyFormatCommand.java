package io.objectmeta.cli.command;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.cli.Output;
import io.objectmeta.cli.Session;
import io.objectmeta.mongo.KeyFormatMigration;
import io.objectmeta.mongo.MongoMetadataStore;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code key-format}: the MongoDB backend's bucket key formats. */
@Command(name = "key-format", description = "MongoDB: convert a bucket's key format.",
    subcommands = {KeyFormatCommand.Migrate.class})
public final class KeyFormatCommand {

  @Command(name = "migrate", description = "Convert a MongoDB bucket from the v0 key format to v1,"
      + " online (reads and writes go on); run again to resume, a v1 bucket is left as it is.")
  static final class Migrate extends OnBucketCommand {
    @Override
    protected int run(Session s) {
      if (!(s.store() instanceof MongoMetadataStore mongo)) {
        throw new InvalidArgumentException("store", "key formats belong to the MongoDB backend;"
            + " this store is " + s.description());
      }
      KeyFormatMigration m = mongo.migrateKeyFormat(bucket);
      if (json()) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("bucket", m.bucket());
        doc.put("keysMoved", m.keysMoved());
        doc.put("versionsMoved", m.versionsMoved());
        doc.put("seconds", m.took().toMillis() / 1000.0);
        Output.json(out(), doc);
      } else {
        new Output.Fields().add("bucket", m.bucket()).add("key format", "v1")
            .add("keys moved", m.keysMoved()).add("versions moved", m.versionsMoved())
            .add("took", m.took().toMillis() + " ms").print(out());
      }
      return 0;
    }
  }
}
