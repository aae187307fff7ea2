package io.objectmeta.bigtable;

import com.google.cloud.bigtable.data.v2.models.Query;
import com.google.cloud.bigtable.data.v2.models.Row;
import com.google.protobuf.ByteString;
import io.objectmeta.api.listing.Cursor;
import io.objectmeta.api.listing.KeyOrder;
import io.objectmeta.api.listing.PagedCursor;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectVersion;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import static io.objectmeta.bigtable.Cells.*;

/**
 * The three scans the shared listing engine pages through on Bigtable: master rows (current
 * objects), key rows (every version) and upload rows, each a row range in key order.
 */
final class BigtableScans implements io.objectmeta.api.spi.ComposedMetadataStore.Scans {
  private final BigtableMetadataStore s;

  BigtableScans(BigtableMetadataStore s) {
    this.s = s;
  }

  /**
   * A paged scan of one row range: {@code rowFrom} turns a seek key into the first row,
   * {@code rowOf} an entry back into its row (a scan that continues starts there again and drops
   * what it returned), {@code map} a row into its entries in order.
   */
  final class RowCursor<E> extends PagedCursor<E> {
    final ByteString end;
    final Function<String, ByteString> rowFrom;
    final Function<E, ByteString> rowOf;
    final Function<Row, List<E>> map;
    final Comparator<E> order;

    RowCursor(ByteString end, Function<String, ByteString> rowFrom, Function<E, ByteString> rowOf,
        Function<Row, List<E>> map, Comparator<E> order) {
      super(16, 1001); // a full page of 1000 and the entry that says it is truncated
      this.end = end;
      this.rowFrom = rowFrom;
      this.rowOf = rowOf;
      this.map = map;
      this.order = order;
    }

    @Override
    protected List<E> fetch(String from, E after, int limit) {
      List<E> out = new ArrayList<>(limit);
      ByteString start = after == null ? rowFrom.apply(from) : rowOf.apply(after);
      while (out.size() < limit) {
        int want = limit - out.size();
        List<Row> got = s.bt.scan(Query.create(s.objects).range(start, end).limit(want));
        for (Row r : got) {
          for (E e : map.apply(r)) {
            if (after == null || order.compare(e, after) > 0) {
              out.add(e);
            }
          }
        }
        if (got.size() < want) {
          break;
        }
        start = Rows.successor(got.get(got.size() - 1).getKey());
      }
      return out;
    }
  }

  static final Comparator<ObjectVersion> VERSION_ORDER = (x, y) -> {
    int c = KeyOrder.compare(x.key(), y.key());
    return c != 0 ? c : x.revision().compareTo(y.revision());
  };

  @Override
  public Cursor<ObjectVersion> currentObjects(Bucket bucket) {
    Rows rows = new Rows(bucket.id());
    return new RowCursor<>(rows.mastersEnd(), rows::master, v -> rows.master(v.key()), r -> {
      ByteString m = Bt.cell(r, Bt.DATA, MASTER);
      return m == null ? List.of() : List.of(Codec.master(rows.keyOf(r.getKey()), Codec.json(m)));
    }, VERSION_ORDER);
  }

  @Override
  public Cursor<ObjectVersion> versions(Bucket bucket) {
    Rows rows = new Rows(bucket.id());
    return new RowCursor<>(rows.keysEnd(), rows::key, v -> rows.key(v.key()), r -> {
      String key = rows.keyOf(r.getKey());
      BigtableKeys.KeyRow k = s.keys.keyRow(r.getKey(), key, r, false);
      if (k == null) {
        k = s.keys.keyRow(rows, key);
      }
      if (k.intent() != null && s.lease.expired(k.intent().since())) {
        // a stale intent met on the way is rolled forward before the key is listed
        s.intents.rollForward(null, rows, key, k.row(), k.version(), k.intent(), k.history(key).current());
        k = s.keys.keyRow(rows, key);
      }
      return k.history(key).versions();
    }, VERSION_ORDER);
  }

  @Override
  public Cursor<MultipartUpload> uploads(Bucket bucket) {
    Rows rows = new Rows(bucket.id());
    return new RowCursor<>(rows.uploadsEnd(), rows::uploadsOf,
        u -> rows.upload(u.key(), u.uploadId()), r -> {
          ByteString cmp = Bt.cell(r, Bt.DATA, COMPLETING);
          ByteString u = Bt.cell(r, Bt.DATA, UPLOAD);
          if (u == null || (cmp != null && s.uploads.completing(Long.parseLong(cmp.toStringUtf8())))) {
            return List.of();
          }
          String[] ku = rows.uploadOf(r.getKey());
          return List.of(Codec.upload(ku[0], ku[1], Codec.json(u)));
        }, (x, y) -> {
          int c = KeyOrder.compare(x.key(), y.key());
          return c != 0 ? c : x.uploadId().compareTo(y.uploadId());
        });
  }
}
