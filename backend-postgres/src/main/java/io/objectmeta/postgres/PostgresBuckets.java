package io.objectmeta.postgres;

import static io.objectmeta.postgres.PostgresMetadataStore.USAGE_SHARDS;
import static io.objectmeta.postgres.PostgresMetadataStore.bucketRow;
import static io.objectmeta.postgres.PostgresMetadataStore.json;
import static io.objectmeta.postgres.PostgresMetadataStore.micros;
import static io.objectmeta.postgres.PostgresMetadataStore.now;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.objectmeta.api.error.BucketAlreadyExistsException;
import io.objectmeta.api.error.BucketNotEmptyException;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.versioning.BucketRules;
import java.sql.Timestamp;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * Buckets on PostgreSQL: the {@code bucket} table, one row per live bucket; a bucket delete takes
 * the row's lock (writers hold it shared for their transaction), so no write lands in a deleted
 * incarnation unseen, and queues its uploads' parts and the bucket's record in the same
 * transaction.
 */
final class PostgresBuckets implements io.objectmeta.api.spi.ComposedMetadataStore.Buckets {
  private final PostgresMetadataStore store;

  PostgresBuckets(PostgresMetadataStore store) {
    this.store = store;
  }

  // ------------------------------------------------------------------------------------ buckets

  @Override
  public Bucket doCreateBucket(String name, String owner, ObjectNode attributes) {
    Bucket b = new Bucket(name, UUID.randomUUID().toString(), owner, now(),
        VersioningState.UNVERSIONED, attributes);
    return store.tx(h -> {
      if (!insertBucket(h, b)) {
        throw new BucketAlreadyExistsException("bucket: \"" + name + "\" exists");
      }
      return b;
    });
  }

  /**
   * Inserts a bucket row and its usage shards; false (nothing written) if the name, or the id,
   * is taken.
   */
  boolean insertBucket(Handle h, Bucket b) {
    int n = h.createUpdate("INSERT INTO " + store.s + ".bucket (id, name, owner, created, versioning,"
            + " attributes) VALUES (:id, :name, :owner, :created, :v, CAST(:attrs AS jsonb))"
            + " ON CONFLICT DO NOTHING")
        .bind("id", UUID.fromString(b.id())).bind("name", b.name()).bind("owner", b.owner())
        .bind("created", Timestamp.from(b.created())).bind("v", (short) b.versioning().ordinal())
        .bind("attrs", json(b.attributes())).execute();
    if (n == 0) {
      return false;
    }
    h.createUpdate("INSERT INTO " + store.s + ".bucket_usage (bucket_id, shard)"
            + " SELECT :id, g FROM generate_series(0, " + (USAGE_SHARDS - 1) + ") g")
        .bind("id", UUID.fromString(b.id())).execute();
    return true;
  }

  @Override
  public Bucket doGetBucket(String name) {
    return store.handle(h -> store.bucket(h, name, ""));
  }

  @Override
  public Bucket doUpdateBucket(String name, BucketUpdate update) {
    return store.tx(h -> {
      Bucket before = store.bucket(h, name, " FOR UPDATE");
      return update(h, before, BucketRules.apply(before, update));
    });
  }

  /** Writes a change of a (locked) bucket row; enabling versioning starts its history table. */
  Bucket update(Handle h, Bucket before, Bucket after) {
    if (!before.versioning().versioned() && after.versioning().versioned()) {
      // From now on the history lives in object_version: start it with the null versions.
      h.createUpdate("INSERT INTO " + store.s + ".object_version (bucket_id, key, version_id, is_null,"
              + " delete_marker, size, meta) SELECT bucket_id, key, version_id, is_null, false, size,"
              + " meta FROM " + store.s + ".object_live WHERE bucket_id = :id")
          .bind("id", UUID.fromString(before.id())).execute();
    }
    h.createUpdate("UPDATE " + store.s + ".bucket SET owner = :owner, versioning = :v,"
            + " attributes = CAST(:attrs AS jsonb) WHERE id = :id")
        .bind("owner", after.owner()).bind("v", (short) after.versioning().ordinal())
        .bind("attrs", json(after.attributes())).bind("id", UUID.fromString(after.id()))
        .execute();
    return after;
  }

  @Override
  public void doDeleteBucket(String name) {
    store.tx(h -> {
      Bucket b = store.bucket(h, name, " FOR UPDATE");
      UUID id = UUID.fromString(b.id());
      boolean empty = h.createQuery("SELECT NOT EXISTS (SELECT 1 FROM " + store.s + ".object_version"
          + " WHERE bucket_id = :id) AND NOT EXISTS (SELECT 1 FROM " + store.s + ".object_live"
          + " WHERE bucket_id = :id)").bind("id", id).mapTo(Boolean.class).one();
      if (!empty) {
        throw new BucketNotEmptyException("bucket: \"" + name + "\" holds versions or delete markers");
      }
      h.createUpdate("INSERT INTO " + store.s + ".deleted_object (bucket_id, kind, bucket, key, version_id,"
              + " part_number, size, locations)"
              + " SELECT p.bucket_id, " + GarbageRecord.Kind.PART.ordinal() + ", :name, u.key,"
              + " p.upload_id, p.part_number, p.size, p.locations FROM " + store.s + ".part p JOIN " + store.s
              + ".upload u ON u.bucket_id = p.bucket_id AND u.upload_id = p.upload_id"
              + " WHERE p.bucket_id = :id ORDER BY u.key, p.upload_id, p.part_number")
          .bind("id", id).bind("name", name).execute();
      for (String table : List.of("part", "upload", "bucket_usage")) {
        h.execute("DELETE FROM " + store.s + "." + table + " WHERE bucket_id = ?", id);
      }
      h.execute("DELETE FROM " + store.s + ".bucket WHERE id = ?", id);
      h.createUpdate("INSERT INTO " + store.s + ".deleted_bucket (id, name, owner, created)"
              + " VALUES (:id, :name, :owner, :created)")
          .bind("id", id).bind("name", name).bind("owner", b.owner())
          .bind("created", Timestamp.from(b.created())).execute();
      return null;
    });
  }

  @Override
  public List<Bucket> doListBuckets(String owner, String after, int limit) {
    return store.handle(h -> h.createQuery("SELECT * FROM " + store.s + ".bucket WHERE (CAST(:owner AS text) IS NULL"
            + " OR owner = :owner) AND name > :after ORDER BY name LIMIT :limit")
        .bind("owner", owner).bind("after", after == null ? "" : after).bind("limit", limit)
        .map((rs, ctx) -> bucketRow(rs)).list());
  }

  @Override
  public Bucket doRestoreBucket(Bucket given) {
    Bucket b = new Bucket(given.name(), given.id(), given.owner(), micros(given.created()),
        given.versioning(), given.attributes());
    return store.tx(h -> {
      Optional<Bucket> existing = store.findBucket(h, b.name(), " FOR UPDATE");
      if (existing.isEmpty()) {
        if (insertBucket(h, b)) {
          return b;
        }
        // a concurrent restore of the same name, or an id another bucket holds
        existing = store.findBucket(h, b.name(), " FOR UPDATE");
        if (existing.isEmpty()) {
          throw new BucketAlreadyExistsException("bucket.id: " + b.id() + " is the id of another"
              + " bucket");
        }
      }
      return update(h, existing.get(), BucketRules.restore(existing.get(), b));
    });
  }
}
