package io.objectmeta.postgres;

import static io.objectmeta.postgres.PostgresMetadataStore.json;
import static io.objectmeta.postgres.PostgresMetadataStore.locations;
import static io.objectmeta.postgres.PostgresMetadataStore.micros;
import static io.objectmeta.postgres.PostgresMetadataStore.now;
import static io.objectmeta.postgres.PostgresMetadataStore.shard;
import static io.objectmeta.postgres.PostgresMetadataStore.uploadRow;
import static io.objectmeta.postgres.PostgresMetadataStore.utf8;
import static io.objectmeta.postgres.PostgresMetadataStore.withConnection;

import io.objectmeta.api.error.NoSuchUploadException;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.CompletedPart;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.WriteCondition;
import io.objectmeta.api.version.VersionId;
import io.objectmeta.api.versioning.KeyChange;
import io.objectmeta.api.versioning.KeyWrites;
import io.objectmeta.api.versioning.MultipartRules;
import io.objectmeta.api.versioning.UploadChange;
import java.sql.Timestamp;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * Multipart uploads on PostgreSQL: the {@code upload} and {@code part} tables, each write one
 * transaction that locks the upload row and applies what {@link
 * io.objectmeta.api.versioning.MultipartRules} plans (usage, parts freed to the GC queue); a
 * completion writes the object as a key write in the same transaction.
 */
final class PostgresUploads implements io.objectmeta.api.spi.ComposedMetadataStore.Uploads {
  private final PostgresMetadataStore store;

  PostgresUploads(PostgresMetadataStore store) {
    this.store = store;
  }

  // ---------------------------------------------------------------------------------- multipart

  @Override
  public MultipartUpload doInitiateMultipartUpload(String bucket, String key,
      ObjectMetadata metadata) {
    return store.tx(h -> {
      Bucket b = store.bucket(h, bucket, " FOR SHARE");
      VersionId id = store.ids.next();
      MultipartUpload u = new MultipartUpload(key, id.encodeOldestFirst(), id.timestamp(), metadata);
      h.createUpdate("INSERT INTO " + store.s + ".upload (bucket_id, key, upload_id, initiated, meta)"
              + " VALUES (:b, :k, :u, :at, CAST(:meta AS jsonb))")
          .bind("b", UUID.fromString(b.id())).bind("k", utf8(key)).bind("u", u.uploadId())
          .bind("at", Timestamp.from(u.initiated())).bind("meta", json(metadata)).execute();
      store.addUsage(h, UUID.fromString(b.id()), shard(key), MultipartRules.initiate().usageDelta());
      return u;
    });
  }

  @Override
  public Part doPutPart(String bucket, String key, String uploadId, Part part) {
    return store.tx(h -> {
      Bucket b = store.bucket(h, bucket, " FOR SHARE");
      lockUpload(h, b, key, uploadId);
      UUID bid = UUID.fromString(b.id());
      Part stored = part.withLastModified(now());
      Optional<Part> old = parts(h, bid, uploadId, part.partNumber() - 1, 1).stream()
          .filter(p -> p.partNumber() == part.partNumber()).findFirst();
      h.createUpdate("INSERT INTO " + store.s + ".part (bucket_id, upload_id, part_number, size, etag,"
              + " last_modified, locations) VALUES (:b, :u, :n, :size, :etag, :at, CAST(:loc AS jsonb))"
              + " ON CONFLICT (bucket_id, upload_id, part_number) DO UPDATE SET size = excluded.size,"
              + " etag = excluded.etag, last_modified = excluded.last_modified,"
              + " locations = excluded.locations")
          .bind("b", bid).bind("u", uploadId).bind("n", part.partNumber()).bind("size", part.size())
          .bind("etag", part.etag()).bind("at", Timestamp.from(stored.lastModified()))
          .bind("loc", json(part.dataLocations())).execute();
      UploadChange change = MultipartRules.putPart(old.orElse(null), stored);
      queueParts(h, b, key, uploadId, change.freed());
      store.addUsage(h, bid, shard(key), change.usageDelta());
      return stored;
    });
  }

  @Override
  public ObjectVersion doCompleteMultipartUpload(String bucket, String key, String uploadId,
      List<CompletedPart> named) {
    return store.tx(h -> {
      Bucket b = store.bucket(h, bucket, " FOR SHARE");
      MultipartUpload u = lockUpload(h, b, key, uploadId);
      h.execute("SELECT pg_advisory_xact_lock(?)", PostgresSql.keyHash(bucket, key));
      UUID bid = UUID.fromString(b.id());
      Map<Integer, Part> stored = new LinkedHashMap<>();
      for (Part p : parts(h, bid, uploadId, 0, Integer.MAX_VALUE)) {
        stored.put(p.partNumber(), p);
      }
      ObjectMetadata m = MultipartRules.complete(u.metadata(), stored, named);
      KeyChange c = withConnection(h, conn -> {
        KeyChange change = KeyWrites.put(store.keys.read(conn, b, key, null), b.versioning(), m,
            WriteCondition.none(), store.ids.next());
        store.keys.persist(conn, b, change);
        return change;
      });
      removeUpload(h, b, key, uploadId, MultipartRules.completion(stored, named));
      return c.subject();
    });
  }

  @Override
  public void doAbortMultipartUpload(String bucket, String key, String uploadId) {
    store.tx(h -> {
      Bucket b = store.bucket(h, bucket, " FOR SHARE");
      lockUpload(h, b, key, uploadId);
      Map<Integer, Part> parts = new LinkedHashMap<>();
      for (Part p : parts(h, UUID.fromString(b.id()), uploadId, 0, Integer.MAX_VALUE)) {
        parts.put(p.partNumber(), p);
      }
      removeUpload(h, b, key, uploadId, MultipartRules.abort(parts));
      return null;
    });
  }

  @Override
  public List<Part> doListParts(String bucket, String key, String uploadId, int after, int limit) {
    return store.tx(h -> {
      Bucket b = store.bucket(h, bucket, "");
      upload(h, b, key, uploadId, "");
      return parts(h, UUID.fromString(b.id()), uploadId, after, limit);
    });
  }

  MultipartUpload lockUpload(Handle h, Bucket b, String key, String uploadId) {
    return upload(h, b, key, uploadId, " FOR UPDATE");
  }

  MultipartUpload upload(Handle h, Bucket b, String key, String uploadId, String lock) {
    return h.createQuery("SELECT key, upload_id, initiated, meta FROM " + store.s + ".upload"
            + " WHERE bucket_id = :b AND key = :k AND upload_id = :u" + lock)
        .bind("b", UUID.fromString(b.id())).bind("k", utf8(key)).bind("u", uploadId)
        .map((rs, ctx) -> uploadRow(rs)).findOne()
        .orElseThrow(() -> NoSuchUploadException.of(key, uploadId));
  }

  List<Part> parts(Handle h, UUID bucketId, String uploadId, int after, int limit) {
    return h.createQuery("SELECT * FROM " + store.s + ".part WHERE bucket_id = :b AND upload_id = :u"
            + " AND part_number > :after ORDER BY part_number LIMIT :limit")
        .bind("b", bucketId).bind("u", uploadId).bind("after", after).bind("limit", limit)
        .map((rs, ctx) -> new Part(rs.getInt("part_number"), rs.getLong("size"), rs.getString("etag"),
            rs.getTimestamp("last_modified").toInstant(), locations(rs.getString("locations"))))
        .list();
  }

  void queueParts(Handle h, Bucket b, String key, String uploadId, Collection<Part> parts) {
    for (Part p : parts) {
      h.createUpdate("INSERT INTO " + store.s + ".deleted_object (bucket_id, kind, bucket, key, version_id,"
              + " part_number, size, locations) VALUES (:b, :kind, :name, :k, :u, :n, :size,"
              + " CAST(:loc AS jsonb))")
          .bind("b", UUID.fromString(b.id())).bind("kind", (short) GarbageRecord.Kind.PART.ordinal())
          .bind("name", b.name()).bind("k", utf8(key)).bind("u", uploadId)
          .bind("n", p.partNumber()).bind("size", p.size()).bind("loc", json(p.dataLocations()))
          .execute();
    }
  }

  /** Removes an upload and its parts, and queues and counts what the change says. */
  void removeUpload(Handle h, Bucket b, String key, String uploadId, UploadChange change) {
    queueParts(h, b, key, uploadId, change.freed());
    UUID bid = UUID.fromString(b.id());
    h.execute("DELETE FROM " + store.s + ".part WHERE bucket_id = ? AND upload_id = ?", bid, uploadId);
    h.execute("DELETE FROM " + store.s + ".upload WHERE bucket_id = ? AND key = ? AND upload_id = ?",
        bid, utf8(key), uploadId);
    store.addUsage(h, bid, shard(key), change.usageDelta());
  }

  @Override
  public void doRestoreUpload(String bucket, MultipartUpload upload, List<Part> parts) {
    store.tx(h -> {
      Bucket b = store.bucket(h, bucket, " FOR SHARE");
      UUID bid = UUID.fromString(b.id());
      String key = upload.key();
      h.execute("SELECT pg_advisory_xact_lock(?)", PostgresSql.keyHash(bucket, key));
      Usage delta = MultipartRules.restore(parts).usageDelta();
      boolean exists = h.createQuery("SELECT 1 FROM " + store.s + ".upload WHERE bucket_id = :b"
              + " AND key = :k AND upload_id = :u FOR UPDATE")
          .bind("b", bid).bind("k", utf8(key)).bind("u", upload.uploadId()).mapTo(Integer.class)
          .findOne().isPresent();
      if (exists) {
        List<Part> old = parts(h, bid, upload.uploadId(), 0, Integer.MAX_VALUE);
        delta = delta.minus(MultipartRules.restore(old).usageDelta());
        h.execute("DELETE FROM " + store.s + ".part WHERE bucket_id = ? AND upload_id = ?", bid,
            upload.uploadId());
        h.execute("DELETE FROM " + store.s + ".upload WHERE bucket_id = ? AND key = ? AND upload_id = ?",
            bid, utf8(key), upload.uploadId());
      }
      h.createUpdate("INSERT INTO " + store.s + ".upload (bucket_id, key, upload_id, initiated, meta)"
              + " VALUES (:b, :k, :u, :at, CAST(:meta AS jsonb))")
          .bind("b", bid).bind("k", utf8(key)).bind("u", upload.uploadId())
          .bind("at", Timestamp.from(micros(upload.initiated()))).bind("meta", json(upload.metadata()))
          .execute();
      if (!parts.isEmpty()) {
        org.jdbi.v3.core.statement.PreparedBatch batch = h.prepareBatch("INSERT INTO " + store.s
            + ".part (bucket_id, upload_id, part_number, size, etag, last_modified, locations)"
            + " VALUES (:b, :u, :n, :size, :etag, :at, CAST(:loc AS jsonb))");
        for (Part p : parts) {
          batch.bind("b", bid).bind("u", upload.uploadId()).bind("n", p.partNumber())
              .bind("size", p.size()).bind("etag", p.etag())
              .bind("at", Timestamp.from(micros(p.lastModified())))
              .bind("loc", json(p.dataLocations())).add();
        }
        batch.execute();
      }
      store.addUsage(h, bid, shard(key), delta);
      return null;
    });
  }
}
