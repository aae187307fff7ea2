package io.objectmeta.cli.command;

import io.objectmeta.api.listing.ListBucketsRequest;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.validation.Validation;
import io.objectmeta.cli.Output;
import io.objectmeta.cli.Session;
import io.objectmeta.cli.StoreCommand;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code bucket create|list|delete|versioning}. */
@Command(name = "bucket", description = "Create, list and delete buckets; get or set versioning.",
    subcommands = {BucketCommand.Create.class, BucketCommand.ListBuckets.class,
        BucketCommand.Delete.class, BucketCommand.Versioning.class})
public final class BucketCommand {

  /** S3's versioning statuses a bucket can be set to. */
  public enum Status {
    Enabled(VersioningState.ENABLED), Suspended(VersioningState.SUSPENDED);

    final VersioningState state;

    Status(VersioningState state) {
      this.state = state;
    }
  }

  /** The default owner of what the command creates: the OS user. */
  static String defaultOwner() {
    String user = System.getProperty("user.name");
    return user == null || user.isEmpty() ? "objectmeta" : user;
  }

  static void print(PrintWriter out, Bucket b, boolean json) {
    if (json) {
      Output.json(out, b);
      return;
    }
    new Output.Fields().add("bucket", b.name()).add("id", b.id()).add("owner", b.owner())
        .add("created", Output.time(b.created())).add("versioning", Names.versioning(b.versioning()))
        .print(out);
  }

  @Command(name = "create", description = "Create a bucket (unversioned unless --versioning Enabled).")
  static final class Create extends OnBucketCommand {

    @Option(names = "--owner", paramLabel = "ID", description = "The owner's id (default: the OS user).")
    String owner = defaultOwner();

    @Option(names = "--versioning", paramLabel = "STATUS",
        description = "Enabled or Suspended right after creating it.")
    Status versioning;

    @Override
    protected void checkInput() {
      super.checkInput();
      Validation.owner("owner", owner);
    }

    @Override
    protected int run(Session s) {
      Bucket b = s.store().createBucket(bucket, owner, null);
      if (versioning != null) {
        b = s.store().updateBucket(bucket, BucketUpdate.versioning(versioning.state));
      }
      print(out(), b, json());
      return 0;
    }
  }

  @Command(name = "list", description = "List the buckets, in name order.")
  static final class ListBuckets extends StoreCommand {
    @Option(names = "--owner", paramLabel = "ID", description = "Only this owner's buckets.")
    String owner;

    @Override
    protected int run(Session s) {
      List<Bucket> all = new ArrayList<>();
      ListBucketsRequest first = owner == null ? ListBucketsRequest.all() : ListBucketsRequest.ofOwner(owner);
      Pages.buckets(s.store(), first, page -> all.addAll(page.buckets()));
      if (json()) {
        Output.json(out(), Map.of("buckets", all));
        return 0;
      }
      Output.Table t = new Output.Table("BUCKET", "VERSIONING", "CREATED", "OWNER");
      for (Bucket b : all) {
        t.row(b.name(), Names.versioning(b.versioning()), Output.time(b.created()), b.owner());
      }
      t.print(out());
      return 0;
    }
  }

  @Command(name = "delete", description = "Delete an empty bucket (its uploads are aborted with it).")
  static final class Delete extends OnBucketCommand {
    @Override
    protected int run(Session s) {
      s.store().deleteBucket(bucket);
      if (json()) {
        Output.json(out(), Map.of("deleted", bucket));
      } else {
        out().println("deleted bucket " + bucket);
      }
      return 0;
    }
  }

  @Command(name = "versioning",
      description = "Show a bucket's versioning status, or set it to Enabled or Suspended.")
  static final class Versioning extends OnBucketCommand {
    @Parameters(index = "1", arity = "0..1", paramLabel = "STATUS",
        description = "Enabled or Suspended (leave out to show the status).")
    Status status;

    @Override
    protected int run(Session s) {
      Bucket b = status == null ? s.store().getBucket(bucket)
          : s.store().updateBucket(bucket, BucketUpdate.versioning(status.state));
      if (json()) {
        Output.json(out(), Map.of("bucket", b.name(), "versioning", b.versioning()));
      } else {
        out().println(Names.versioning(b.versioning()));
      }
      return 0;
    }
  }
}
