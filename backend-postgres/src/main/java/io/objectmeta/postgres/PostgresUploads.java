package io.objectmeta.postgres;

import static io.objectmeta.postgres.PostgresMetadataStore.micros;
import static io.objectmeta.postgres.PostgresMetadataStore.now;
import static io.objectmeta.postgres.PostgresMetadataStore.utf8;

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
import io.objectmeta.postgres.PostgresSql.Lock;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

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

  @Override
  public MultipartUpload doInitiateMultipartUpload(String bucket, String key,
      ObjectMetadata metadata) {
    return store.jdbc(false, c -> {
      Bucket b = store.bucket(c, bucket, Lock.SHARE);
      VersionId id = store.ids.next();
      MultipartUpload u = MultipartUpload.initiate(key, id, metadata);
      insertUpload(c, UUID.fromString(b.id()), u);
      store.addUsage(c, UUID.fromString(b.id()), store.usageShard(), MultipartRules.initiate().usageDelta());
      return u;
    });
  }

  private void insertUpload(Connection c, UUID bucketId, MultipartUpload u) throws SQLException {
    try (NamedSql.Bound q = store.prepare(c, store.sql.insertUpload())) {
      q.set("b", bucketId).set("k", utf8(u.key())).set("u", u.uploadId())
          .set("at", Timestamp.from(micros(u.initiated())))
          .set("meta", PostgresRows.json(u.metadata())).update();
    }
  }

  @Override
  public Part doPutPart(String bucket, String key, String uploadId, Part part) {
    return store.jdbc(false, c -> {
      Bucket b = store.bucket(c, bucket, Lock.SHARE);
      upload(c, b, key, uploadId, Lock.UPDATE);
      UUID bid = UUID.fromString(b.id());
      Part stored = part.withLastModified(now());
      Optional<Part> old = parts(c, bid, uploadId, part.partNumber() - 1, 1).stream()
          .filter(p -> p.partNumber() == part.partNumber()).findFirst();
      writePart(c, store.sql.upsertPart(), bid, uploadId, stored);
      UploadChange change = MultipartRules.putPart(old.orElse(null), stored);
      queueParts(c, b, key, uploadId, change.freed());
      store.addUsage(c, bid, store.usageShard(), change.usageDelta());
      return stored;
    });
  }

  private void writePart(Connection c, String statement, UUID bucketId, String uploadId, Part p)
      throws SQLException {
    try (NamedSql.Bound q = store.prepare(c, statement)) {
      bindPart(q, bucketId, uploadId, p).update();
    }
  }

  private static NamedSql.Bound bindPart(NamedSql.Bound q, UUID bucketId, String uploadId, Part p)
      throws SQLException {
    return q.set("b", bucketId).set("u", uploadId).set("n", p.partNumber()).set("size", p.size())
        .set("etag", p.etag()).set("at", Timestamp.from(micros(p.lastModified())))
        .set("loc", PostgresRows.json(p.dataLocations()));
  }

  @Override
  public ObjectVersion doCompleteMultipartUpload(String bucket, String key, String uploadId,
      List<CompletedPart> named) {
    return store.jdbc(false, c -> {
      Bucket b = store.bucket(c, bucket, Lock.SHARE);
      MultipartUpload u = upload(c, b, key, uploadId, Lock.UPDATE);
      // the key's lock and its history (the bucket, under the lock held above, is the same)
      PostgresKeys.Locked l = store.keys.lockAndRead(c, bucket, key, null);
      Map<Integer, Part> stored = allParts(c, UUID.fromString(b.id()), uploadId);
      ObjectMetadata m = MultipartRules.complete(u.metadata(), stored, named);
      KeyChange change = KeyWrites.put(l.history(), b.versioning(), m,
          WriteCondition.none(), store.ids.next());
      store.keys.persist(c, b, change, false);
      removeUpload(c, b, key, uploadId, MultipartRules.completion(stored, named));
      return change.subject();
    });
  }

  @Override
  public void doAbortMultipartUpload(String bucket, String key, String uploadId) {
    store.jdbc(false, c -> {
      Bucket b = store.bucket(c, bucket, Lock.SHARE);
      upload(c, b, key, uploadId, Lock.UPDATE);
      removeUpload(c, b, key, uploadId,
          MultipartRules.abort(allParts(c, UUID.fromString(b.id()), uploadId)));
      return null;
    });
  }

  @Override
  public List<Part> doListParts(String bucket, String key, String uploadId, int after, int limit) {
    return store.jdbc(false, c -> {
      Bucket b = store.bucket(c, bucket, Lock.NONE);
      upload(c, b, key, uploadId, Lock.NONE);
      return parts(c, UUID.fromString(b.id()), uploadId, after, limit);
    });
  }

  private void lockKey(Connection c, String bucket, String key) throws SQLException {
    try (NamedSql.Bound q = store.prepare(c, store.sql.lockKey())) {
      q.set("lock", PostgresSql.keyHash(bucket, key)).first(rs -> 1);
    }
  }

  private Optional<MultipartUpload> findUpload(Connection c, UUID bucketId, String key,
      String uploadId, Lock lock) throws SQLException {
    try (NamedSql.Bound q = store.prepare(c, store.sql.findUpload(lock))) {
      return q.set("b", bucketId).set("k", utf8(key)).set("u", uploadId).first(PostgresRows::upload);
    }
  }

  private MultipartUpload upload(Connection c, Bucket b, String key, String uploadId, Lock lock)
      throws SQLException {
    return findUpload(c, UUID.fromString(b.id()), key, uploadId, lock)
        .orElseThrow(() -> NoSuchUploadException.of(key, uploadId));
  }

  private List<Part> parts(Connection c, UUID bucketId, String uploadId, int after, int limit)
      throws SQLException {
    try (NamedSql.Bound q = store.prepare(c, store.sql.listParts())) {
      return q.set("b", bucketId).set("u", uploadId).set("after", after).set("limit", limit)
          .list(PostgresRows::part);
    }
  }

  private Map<Integer, Part> allParts(Connection c, UUID bucketId, String uploadId)
      throws SQLException {
    Map<Integer, Part> parts = new LinkedHashMap<>();
    for (Part p : parts(c, bucketId, uploadId, 0, Integer.MAX_VALUE)) {
      parts.put(p.partNumber(), p);
    }
    return parts;
  }

  private void queueParts(Connection c, Bucket b, String key, String uploadId,
      Collection<Part> parts) throws SQLException {
    if (parts.isEmpty()) {
      return;
    }
    try (NamedSql.Bound q = store.prepare(c, store.sql.queuePart())) {
      for (Part p : parts) {
        q.set("b", UUID.fromString(b.id())).set("kind", (short) GarbageRecord.Kind.PART.ordinal())
            .set("name", b.name()).set("k", utf8(key)).set("u", uploadId)
            .set("n", p.partNumber()).set("size", p.size())
            .set("loc", PostgresRows.json(p.dataLocations())).add();
      }
      q.runBatch();
    }
  }

  /** Removes an upload and its parts, and queues and counts what the change says. */
  private void removeUpload(Connection c, Bucket b, String key, String uploadId,
      UploadChange change) throws SQLException {
    queueParts(c, b, key, uploadId, change.freed());
    deleteUpload(c, UUID.fromString(b.id()), key, uploadId);
    store.addUsage(c, UUID.fromString(b.id()), store.usageShard(), change.usageDelta());
  }

  private void deleteUpload(Connection c, UUID bucketId, String key, String uploadId)
      throws SQLException {
    try (NamedSql.Bound q = store.prepare(c, store.sql.deleteParts())) {
      q.set("b", bucketId).set("u", uploadId).update();
    }
    try (NamedSql.Bound q = store.prepare(c, store.sql.deleteUpload())) {
      q.set("b", bucketId).set("k", utf8(key)).set("u", uploadId).update();
    }
  }

  @Override
  public void doRestoreUpload(String bucket, MultipartUpload upload, List<Part> parts) {
    store.jdbc(false, c -> {
      Bucket b = store.bucket(c, bucket, Lock.SHARE);
      UUID bid = UUID.fromString(b.id());
      String key = upload.key();
      lockKey(c, bucket, key);
      Usage delta = MultipartRules.restore(parts).usageDelta();
      if (findUpload(c, bid, key, upload.uploadId(), Lock.UPDATE).isPresent()) {
        List<Part> old = parts(c, bid, upload.uploadId(), 0, Integer.MAX_VALUE);
        delta = delta.minus(MultipartRules.restore(old).usageDelta());
        deleteUpload(c, bid, key, upload.uploadId());
      }
      insertUpload(c, bid, upload);
      if (!parts.isEmpty()) {
        try (NamedSql.Bound q = store.prepare(c, store.sql.insertPart())) {
          for (Part p : parts) {
            bindPart(q, bid, upload.uploadId(), p).add();
          }
          q.runBatch();
        }
      }
      store.addUsage(c, bid, store.usageShard(), delta);
      return null;
    });
  }
}
