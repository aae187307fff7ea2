package io.objectmeta.postgres;

import static io.objectmeta.postgres.PostgresMetadataStore.uploadRow;
import static io.objectmeta.postgres.PostgresMetadataStore.utf8;
import static io.objectmeta.postgres.PostgresMetadataStore.versionRow;

import io.objectmeta.api.listing.Cursor;
import io.objectmeta.api.listing.PagedCursor;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectVersion;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.statement.Query;

/**
 * The three scans the shared listing engine pages through on PostgreSQL: keyset pages over the
 * live table (current objects), the version table and the upload table, in key order.
 */
final class PostgresScans implements io.objectmeta.api.spi.ComposedMetadataStore.Scans {
  private final PostgresMetadataStore store;

  PostgresScans(PostgresMetadataStore store) {
    this.store = store;
  }

  // ----------------------------------------------------------------------------------- listings

  @Override
  public Cursor<ObjectVersion> currentObjects(Bucket bucket) {
    UUID bid = UUID.fromString(bucket.id());
    return new PagedCursor<>(8, 1024) {
      protected List<ObjectVersion> fetch(String from, ObjectVersion after, int limit) {
        return store.handle(h -> h.createQuery("SELECT key, version_id, is_null, false AS delete_marker, meta FROM "
                + store.s + ".object_live WHERE bucket_id = :b AND key " + (after == null ? ">=" : ">")
                + " :k ORDER BY key LIMIT :limit")
            .bind("b", bid).bind("k", utf8(after == null ? from : after.key())).bind("limit", limit)
            .map((rs, ctx) -> versionRow(rs).withLatest(true)).list());
      }
    };
  }

  @Override
  public Cursor<ObjectVersion> versions(Bucket bucket) {
    UUID bid = UUID.fromString(bucket.id());
    String from = bucket.versioning().versioned()
        ? "SELECT key, version_id, is_null, delete_marker, meta FROM " + store.s + ".object_version"
        : "SELECT key, version_id, is_null, false AS delete_marker, meta FROM " + store.s + ".object_live";
    return new PagedCursor<>(8, 1024) {
      protected List<ObjectVersion> fetch(String seek, ObjectVersion after, int limit) {
        return store.handle(h -> {
          Query q = h.createQuery(from + " WHERE bucket_id = :b AND "
              + (after == null ? "key >= :k" : "(key, version_id) > (:k, :v)")
              + " ORDER BY key, version_id LIMIT :limit")
              .bind("b", bid).bind("k", utf8(after == null ? seek : after.key()))
              .bind("limit", limit);
          if (after != null) {
            q.bind("v", after.revision().encode());
          }
          return q.map((rs, ctx) -> versionRow(rs)).list();
        });
      }
    };
  }

  @Override
  public Cursor<MultipartUpload> uploads(Bucket bucket) {
    UUID bid = UUID.fromString(bucket.id());
    return new PagedCursor<>(8, 1024) {
      protected List<MultipartUpload> fetch(String from, MultipartUpload after, int limit) {
        return store.handle(h -> {
          Query q = h.createQuery("SELECT key, upload_id, initiated, meta FROM " + store.s + ".upload"
              + " WHERE bucket_id = :b AND "
              + (after == null ? "key >= :k" : "(key, upload_id) > (:k, :u)")
              + " ORDER BY key, upload_id LIMIT :limit")
              .bind("b", bid).bind("k", utf8(after == null ? from : after.key()))
              .bind("limit", limit);
          if (after != null) {
            q.bind("u", after.uploadId());
          }
          return q.map((rs, ctx) -> uploadRow(rs)).list();
        });
      }
    };
  }
}
