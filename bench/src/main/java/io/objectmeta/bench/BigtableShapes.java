package io.objectmeta.bench;

import static com.google.cloud.bigtable.data.v2.models.Filters.FILTERS;

import com.google.protobuf.ByteString;
import java.time.Instant;

/**
 * What the Bigtable baseline needs and the backend keeps private in
 * {@code BigtableMetadataStore}: the qualifiers of the cells it writes besides versions and
 * counters, the GC queue's row keys and record ids, the usage shard of a key. Written out
 * again here (the row keys, cell values and intents themselves come from the backend's public
 * {@code Rows}, {@code Codec} and {@code Intent}); {@code BigtableBenchTest} compares the rows
 * both sides leave, so a drift shows there.
 */
final class BigtableShapes {
  private BigtableShapes() {}

  /** Shards of the GC queue table. */
  static final int GC_SHARDS = 16;
  /** The bucket row of the buckets table: {@code b/NAME}, its JSON in {@code m:b}. */
  static final String BUCKET_ROWS = "b/";
  static final ByteString BUCKET = ByteString.copyFromUtf8("b");
  /** A key row's pending intent ({@code m:i}). */
  static final ByteString INTENT = ByteString.copyFromUtf8("i");
  /** The master row's current version ({@code d:o}). */
  static final ByteString MASTER = ByteString.copyFromUtf8("o");
  /** A counter shard's close ({@code a:~del}), read by every usage step. */
  static final ByteString CLOSED = ByteString.copyFromUtf8("~del");
  /** An applied marker's value ({@code a:<tag>}). */
  static final ByteString PLUS = ByteString.copyFromUtf8("+");
  /** A GC record row's record ({@code d:r}), claim ({@code m:c}, {@code m:l}), hold ({@code m:h}, {@code m:hk}). */
  static final ByteString RECORD = ByteString.copyFromUtf8("r");
  static final ByteString CLAIM = ByteString.copyFromUtf8("c");
  static final ByteString UNTIL = ByteString.copyFromUtf8("l");
  static final ByteString HELD = ByteString.copyFromUtf8("h");
  static final ByteString HOLDER = ByteString.copyFromUtf8("hk");

  /** A key row's number of version columns ({@code m:n}): a read that sees another is torn. */
  static final ByteString COUNT = ByteString.copyFromUtf8("n");

  /**
   * What get latest reads of the key row: the row's own cells and its first version column (the
   * latest: columns are newest first), after the newest cell of each column.
   */
  static final com.google.cloud.bigtable.data.v2.models.Filters.Filter LATEST_VERSION =
      FILTERS.chain().filter(io.objectmeta.bigtable.Bt.LATEST).filter(FILTERS.interleave()
          .filter(FILTERS.family().exactMatch(io.objectmeta.bigtable.Bt.META))
          .filter(FILTERS.chain().filter(FILTERS.family().exactMatch(io.objectmeta.bigtable.Bt.DATA))
              .filter(FILTERS.limit().cellsPerRow(1))));

  static int shardOf(String key) {
    return Math.floorMod(key.hashCode(), io.objectmeta.bigtable.Rows.SHARDS);
  }

  static long nanos(Instant t) {
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }

  /** A record id: its time first (queue order within a shard), then the writer's tag and index. */
  static String gcId(Instant at, String tag, int n) {
    return String.format("%019d", nanos(at)) + "-" + tag + "." + n;
  }

  static ByteString gcRow(String id) {
    return ByteString.copyFromUtf8(String.format("%02x/", Math.floorMod(id.hashCode(), GC_SHARDS))
        + id);
  }

  static ByteString gcShard(int shard) {
    return ByteString.copyFromUtf8(String.format("%02x/", shard));
  }

  /** The record id of a GC row. */
  static String idOf(ByteString gcRow) {
    return gcRow.substring(3).toStringUtf8();
  }

  /** The holder of the GC records a key write holds: its key row. */
  static String keyHolder(ByteString keyRow) {
    return "k:" + java.util.Base64.getEncoder().encodeToString(keyRow.toByteArray());
  }
}
