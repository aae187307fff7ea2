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
    return new Keyset<>(bucket, Scan.CURRENT, v -> null, PostgresRows::raw,
        r -> r.version().withLatest(true), ObjectVersion::key);
  }

  @Override
  public Cursor<ObjectVersion> versions(Bucket bucket) {
    return new Keyset<>(bucket, bucket.versioning().versioned() ? Scan.VERSIONS
        : Scan.LIVE_VERSIONS, v -> v.revision().encode(), PostgresRows::raw,
        PostgresRows.RawVersion::version, ObjectVersion::key);
  }

  @Override
  public Cursor<MultipartUpload> uploads(Bucket bucket) {
    return new Keyset<MultipartUpload, MultipartUpload>(bucket, Scan.UPLOADS,
        MultipartUpload::uploadId, PostgresRows::upload, u -> u, MultipartUpload::key);
  }

  /**
   * Pages of one scan: from a key, or after the last entry by (key, id) ({@code idOf} gives the
   * entry's id; null for a scan with one entry per key). Rows are read as {@code R} on the
   * connection and turned into entries ({@code entry}) after it went back to the pool.
   */
  private final class Keyset<R, E> extends PagedCursor<E> {
    private final UUID bucketId;
    private final Scan scan;
    private final Function<E, String> idOf;
    private final NamedSql.RowMapper<R> row;
    private final Function<R, E> entry;
    private final Function<E, String> keyOf;

    Keyset(Bucket bucket, Scan scan, Function<E, String> idOf, NamedSql.RowMapper<R> row,
        Function<R, E> entry, Function<E, String> keyOf) {
      super(8, 1024);
      this.bucketId = UUID.fromString(bucket.id());
      this.scan = scan;
      this.idOf = idOf;
      this.row = row;
      this.entry = entry;
      this.keyOf = keyOf;
    }

    @Override
    protected List<E> fetch(String from, E after, int limit) {
      List<R> rows = store.jdbc(true, c -> {
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
      List<E> out = new java.util.ArrayList<>(rows.size());
      for (R r : rows) {
        out.add(entry.apply(r));
      }
      return out;
    }
  }
}
