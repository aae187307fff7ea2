package io.objectmeta.cli.command;

import io.objectmeta.api.model.DeleteResult;
import io.objectmeta.cli.Output;
import io.objectmeta.cli.Session;
import io.objectmeta.cli.Text;
import picocli.CommandLine.Command;

/** {@code delete BUCKET KEY [--version-id ID]}: DeleteObject. */
@Command(name = "delete", description = {"Delete an object (DeleteObject).",
    "Without --version-id: unversioned buckets remove it, versioned ones add a delete marker.",
    "With --version-id: that version is removed for good, in any bucket."})
public final class DeleteCommand extends VersionCommand {

  @Override
  protected int run(Session s) {
    DeleteResult r = versionId == null ? s.store().deleteObject(bucket, key)
        : s.store().deleteObjectVersion(bucket, key, versionId);
    if (json()) {
      Output.json(out(), r);
    } else if (versionId != null) {
      out().println("removed " + (r.deleteMarker() ? "delete marker " : "version ") + r.versionId()
          + " of " + Text.printable(key));
    } else if (r.deleteMarker()) {
      out().println("deleted " + Text.printable(key) + ": delete marker " + r.versionId());
    } else {
      out().println("deleted " + Text.printable(key));
    }
    return 0;
  }
}
