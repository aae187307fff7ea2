package io.objectmeta.postgres;

import static io.objectmeta.postgres.PostgresMetadataStore.USAGE_SHARDS;
import static io.objectmeta.postgres.PostgresMetadataStore.micros;
import static io.objectmeta.postgres.PostgresMetadataStore.now;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.objectmeta.api.error.BucketAlreadyExistsException;
import io.objectmeta.api.error.BucketNotEmptyException;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.versioning.BucketRules;
import io.objectmeta.postgres.PostgresSql.Lock;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

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

  @Override
  public Bucket doCreateBucket(String name, String owner, ObjectNode attributes) {
    Bucket b = Bucket.newIncarnation(name, owner, now(), attributes);
    return store.jdbc(false, c -> {
      if (!insertBucket(c, b)) {
        throw new BucketAlreadyExistsException("bucket: \"" + name + "\" exists");
      }
      return b;
    });
  }

  /**
   * Inserts a bucket row and its usage shards; false (nothing written) if the name, or the id,
   * is taken.
   */
  boolean insertBucket(Connection c, Bucket b) throws SQLException {
    UUID id = UUID.fromString(b.id());
    try (NamedSql.Bound q = store.prepare(c, store.sql.insertBucket())) {
      if (q.set("id", id).set("name", b.name()).set("owner", b.owner())
          .set("created", Timestamp.from(b.created())).set("v", (short) b.versioning().ordinal())
          .set("attrs", PostgresRows.json(b.attributes())).update() == 0) {
        return false;
      }
    }
    try (NamedSql.Bound q = store.prepare(c, store.sql.insertUsageShards(USAGE_SHARDS))) {
      q.set("id", id).update();
    }
    return true;
  }

  @Override
  public Bucket doGetBucket(String name) {
    return store.jdbc(true, c -> store.bucket(c, name, Lock.NONE));
  }

  @Override
  public Bucket doUpdateBucket(String name, BucketUpdate update) {
    return store.jdbc(false, c -> {
      Bucket before = store.bucket(c, name, Lock.UPDATE);
      return update(c, before, BucketRules.apply(before, update));
    });
  }

  /** Writes a change of a (locked) bucket row; enabling versioning starts its history table. */
  Bucket update(Connection c, Bucket before, Bucket after) throws SQLException {
    if (!before.versioning().versioned() && after.versioning().versioned()) {
      // From now on the history lives in object_version: start it with the null versions.
      try (NamedSql.Bound q = store.prepare(c, store.sql.startHistory())) {
        q.set("id", UUID.fromString(before.id())).update();
      }
    }
    try (NamedSql.Bound q = store.prepare(c, store.sql.updateBucket())) {
      q.set("owner", after.owner()).set("v", (short) after.versioning().ordinal())
          .set("attrs", PostgresRows.json(after.attributes())).set("id", UUID.fromString(after.id()))
          .update();
    }
    return after;
  }

  @Override
  public void doDeleteBucket(String name) {
    store.jdbc(false, c -> {
      Bucket b = store.bucket(c, name, Lock.UPDATE);
      UUID id = UUID.fromString(b.id());
      boolean empty;
      try (NamedSql.Bound q = store.prepare(c, store.sql.bucketIsEmpty())) {
        empty = q.set("id", id).first(rs -> rs.getBoolean(1)).orElseThrow();
      }
      if (!empty) {
        throw new BucketNotEmptyException("bucket: \"" + name + "\" holds versions or delete markers");
      }
      try (NamedSql.Bound q = store.prepare(c, store.sql.queueBucketParts())) {
        q.set("id", id).set("name", name).set("kind", (short) GarbageRecord.Kind.PART.ordinal())
            .update();
      }
      for (String table : List.of("part", "upload", "bucket_usage")) {
        try (NamedSql.Bound q = store.prepare(c, store.sql.deleteBucketRows(table))) {
          q.set("id", id).update();
        }
      }
      try (NamedSql.Bound q = store.prepare(c, store.sql.deleteBucket())) {
        q.set("id", id).update();
      }
      try (NamedSql.Bound q = store.prepare(c, store.sql.insertDeletedBucket())) {
        q.set("id", id).set("name", name).set("owner", b.owner())
            .set("created", Timestamp.from(b.created())).update();
      }
      return null;
    });
  }

  @Override
  public List<Bucket> doListBuckets(String owner, String after, int limit) {
    return store.jdbc(true, c -> {
      try (NamedSql.Bound q = store.prepare(c, store.sql.listBuckets())) {
        return q.set("owner", owner).set("after", after == null ? "" : after).set("limit", limit)
            .list(PostgresRows::bucket);
      }
    });
  }

  @Override
  public Bucket doRestoreBucket(Bucket given) {
    Bucket b = new Bucket(given.name(), given.id(), given.owner(), micros(given.created()),
        given.versioning(), given.attributes());
    return store.jdbc(false, c -> {
      Optional<Bucket> existing = store.findBucket(c, b.name(), Lock.UPDATE);
      if (existing.isEmpty()) {
        if (insertBucket(c, b)) {
          return b;
        }
        // a concurrent restore of the same name, or an id another bucket holds
        existing = store.findBucket(c, b.name(), Lock.UPDATE);
        if (existing.isEmpty()) {
          throw new BucketAlreadyExistsException("bucket.id: " + b.id() + " is the id of another"
              + " bucket");
        }
      }
      return update(c, existing.get(), BucketRules.restore(existing.get(), b));
    });
  }
}
