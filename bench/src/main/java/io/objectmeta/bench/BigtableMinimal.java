package io.objectmeta.bench;

import com.google.cloud.bigtable.data.v2.BigtableDataClient;
import com.google.cloud.bigtable.data.v2.models.Filters;
import com.google.cloud.bigtable.data.v2.models.Query;
import com.google.cloud.bigtable.data.v2.models.Row;
import com.google.cloud.bigtable.data.v2.models.RowMutation;
import com.google.cloud.bigtable.data.v2.models.TableId;
import com.google.protobuf.ByteString;
import io.objectmeta.api.model.Json;
import io.objectmeta.api.version.VersionIdGenerator;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The limit of the concurrency workloads on Bigtable: the fewest RPCs that keep the same data, in
 * rows of their own in the store's objects table (row key {@code min/BUCKET/KEY}): a put or a
 * delete marker is one {@code mutateRow} (the version's column and the row's current-version
 * cell), a get one {@code readRow} (the newest version column, or the named one), a listing page
 * one {@code readRows} of 101 rows. No history read, no condition, no counters, no intent; the
 * metadata JSON is serialized once, before the run.
 */
final class BigtableMinimal implements BenchTarget.Limit {
  private static final String FAMILY = "d";
  private static final String META = "m";
  private static final ByteString CURRENT = ByteString.copyFromUtf8("current");
  private final BigtableDataClient client;
  private final TableId objects;
  private final VersionIdGenerator ids = new VersionIdGenerator();
  private final ByteString[] metas = new ByteString[64];
  private String[] olderIds = new String[0];

  BigtableMinimal(BigtableDataClient client, String tablePrefix) {
    this.client = client;
    this.objects = TableId.of(tablePrefix + "objects");
    for (int i = 0; i < metas.length; i++) {
      try {
        metas[i] = ByteString.copyFromUtf8(
            Json.MAPPER.writeValueAsString(Bench.meta("concurrency/" + i, 1000 + i)));
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private static String row(String bucket, String key) {
    return "min/" + bucket + "/" + key;
  }

  /** The rows the gets and the listing read: two versions of every get key, written directly. */
  @Override
  public void prepare(Concurrency.Fixture f) {
    olderIds = new String[f.getKeys()];
    for (int n = 0; n < f.getKeys(); n++) {
      String key = Concurrency.Fixture.getKey(n);
      olderIds[n] = put(f.bucket(Concurrency.Kind.GET_LATEST), key, metas[0]);
      put(f.bucket(Concurrency.Kind.GET_LATEST), key, metas[1]);
      if (n < 1000) {
        put(f.bucket(Concurrency.Kind.LIST_PAGE), key, metas[0]);
      }
    }
  }

  private String put(String bucket, String key, ByteString meta) {
    String v = ids.next().encode();
    client.mutateRow(RowMutation.create(objects, row(bucket, key))
        .setCell(FAMILY, ByteString.copyFromUtf8(v), meta)
        .setCell(META, CURRENT, ByteString.copyFromUtf8(v)));
    return v;
  }

  @Override
  public void op(Concurrency.Kind k, Concurrency.Fixture f, int thread, long i,
      ThreadLocalRandom r) {
    switch (k) {
      case PUT_ONE_BUCKET, PUT_16_BUCKETS -> put(f.bucket(k, i),
          Concurrency.Fixture.newKey(thread, i), metas[(int) (i & 63)]);
      case PUT_HOT_KEYS -> put(f.bucket(k), Concurrency.Fixture.hotKey(r.nextInt(16)),
          metas[(int) (i & 63)]);
      case DELETE_MARKER -> put(f.bucket(k), Concurrency.Fixture.newKey(thread, i),
          ByteString.EMPTY);
      case GET_LATEST -> {
        // the newest version: the current-version cell and the version columns, newest cell each
        Row row = client.readRow(objects, row(f.bucket(k),
            Concurrency.Fixture.getKey(r.nextInt(f.getKeys()))),
            Filters.FILTERS.limit().cellsPerColumn(1));
        consume(row);
      }
      case GET_VERSION -> {
        int n = r.nextInt(f.getKeys());
        Row row = client.readRow(objects, row(f.bucket(k), Concurrency.Fixture.getKey(n)),
            Filters.FILTERS.chain().filter(Filters.FILTERS.family().exactMatch(FAMILY))
                .filter(Filters.FILTERS.qualifier().exactMatch(olderIds[n])));
        consume(row);
      }
      case LIST_PAGE -> {
        for (Row row : client.readRows(Query.create(objects)
            .prefix("min/" + f.bucket(k) + "/").limit(101)
            .filter(Filters.FILTERS.limit().cellsPerColumn(1)))) {
          consume(row);
        }
      }
    }
  }

  private static void consume(Row row) {
    if (row != null) {
      row.getCells().forEach(c -> c.getValue().toString(StandardCharsets.UTF_8));
    }
  }

  @Override
  public void close() {
    client.close();
  }
}
