package io.objectmeta.postgres;

import static io.objectmeta.postgres.PostgresMetadataStore.utf8;

import io.objectmeta.api.listing.Cursor;
import io.objectmeta.api.listing.PagedCursor;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.postgres.PostgresSql.Scan;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * The three scans the shared listing engine pages through on PostgreSQL: keyset pages over the
 * live table (current objects), the version table and the upload table, in key order, all
 * through one cursor ({@link PostgresSql#scanPage}).
 */
final class PostgresScans implements io.objectmeta.api.spi.ComposedMetadataStore.Scans {
  private final PostgresMetadataStore store;

  PostgresScans(PostgresMetadataStore store) {
    this.store = store;
  }

  @Override
  public Cursor<ObjectVersion> currentObjects(Bucket bucket) {
    return new Keyset<>(bucket, Scan.CURRENT, v -> null, rs -> PostgresRows.version(rs)
        .withLatest(true), ObjectVersion::key);
  }

  @Override
  public Cursor<ObjectVersion> versions(Bucket bucket) {
    return new Keyset<>(bucket, bucket.versioning().versioned() ? Scan.VERSIONS
        : Scan.LIVE_VERSIONS, v -> v.revision().encode(), PostgresRows::version,
        ObjectVersion::key);
  }

  @Override
  public Cursor<MultipartUpload> uploads(Bucket bucket) {
    return new Keyset<>(bucket, Scan.UPLOADS, MultipartUpload::uploadId, PostgresRows::upload,
        MultipartUpload::key);
  }

  /**
   * Pages of one scan: from a key, or after the last entry by (key, id) ({@code idOf} gives the
   * entry's id; null for a scan with one entry per key).
   */
  private final class Keyset<E> extends PagedCursor<E> {
    private final UUID bucketId;
    private final Scan scan;
    private final Function<E, String> idOf;
    private final NamedSql.RowMapper<E> row;
    private final Function<E, String> keyOf;

    Keyset(Bucket bucket, Scan scan, Function<E, String> idOf, NamedSql.RowMapper<E> row,
        Function<E, String> keyOf) {
      super(8, 1024);
      this.bucketId = UUID.fromString(bucket.id());
      this.scan = scan;
      this.idOf = idOf;
      this.row = row;
      this.keyOf = keyOf;
    }

    @Override
    protected List<E> fetch(String from, E after, int limit) {
      return store.jdbc(true, c -> {
        try (NamedSql.Bound q = store.prepare(c, store.sql.scanPage(scan, after == null))) {
          q.set("b", bucketId).set("k", utf8(after == null ? from : keyOf.apply(after)))
              .set("limit", limit);
          String id = after == null ? null : idOf.apply(after);
          if (id != null) {
            q.set("v", id);
          }
          return q.list(row);
        }
      });
    }
  }
}
