package io.objectmeta.bigtable;

import static com.google.cloud.bigtable.data.v2.models.Filters.FILTERS;

import com.google.cloud.bigtable.data.v2.models.Filters;
import com.google.protobuf.ByteString;
import java.time.Instant;

/**
 * The names of the backend's cells besides versions and counters, the GC queue's row keys and
 * record ids, a key's usage shard: what {@link BigtableMetadataStore} writes, in one place (the
 * bench's raw baseline writes the same).
 */
public final class Cells {
  private Cells() {}

  /** Shards of the GC queue table. */
  public static final int GC_SHARDS = 16;
  /** Bucket rows of the buckets table: {@code b/NAME}, the bucket's JSON in {@code m:b}. */
  public static final String BUCKET_ROWS = "b/";
  public static final ByteString BUCKET = ByteString.copyFromUtf8("b");
  /** The deployment's UUID ({@code m:u} of row {@code i/uuid}). */
  public static final ByteString UUID_CELL = ByteString.copyFromUtf8("u");
  /** A key or upload row's pending intent ({@code m:i}; empty: none). */
  public static final ByteString INTENT = ByteString.copyFromUtf8("i");
  /** A key row's number of version columns ({@code m:n}): a read that sees another is torn. */
  public static final ByteString COUNT = ByteString.copyFromUtf8("n");
  /** The master row's current version ({@code d:o}). */
  public static final ByteString MASTER = ByteString.copyFromUtf8("o");
  /** An upload row's upload ({@code d:u}) and its completion or abort in progress ({@code d:cmp}). */
  public static final ByteString UPLOAD = ByteString.copyFromUtf8("u");
  public static final ByteString COMPLETING = ByteString.copyFromUtf8("cmp");
  /** A counter shard's close flag ({@code c:~del}), a counter read by every usage step. */
  public static final ByteString CLOSED = ByteString.copyFromUtf8("~del");
  /** An applied marker's value ({@code a:<tag>}). */
  public static final ByteString PLUS = ByteString.copyFromUtf8("+");
  /** A GC record row's record ({@code d:r}), claim ({@code m:c}, {@code m:l}), hold ({@code m:h}, {@code m:hk}). */
  public static final ByteString RECORD = ByteString.copyFromUtf8("r");
  public static final ByteString CLAIM = ByteString.copyFromUtf8("c");
  public static final ByteString UNTIL = ByteString.copyFromUtf8("l");
  public static final ByteString HELD = ByteString.copyFromUtf8("h");
  public static final ByteString HOLDER = ByteString.copyFromUtf8("hk");

  /** A key row's own cells and its first version column: the latest (columns are newest first). */
  public static final Filters.Filter LATEST_VERSION = FILTERS.interleave()
      .filter(FILTERS.family().exactMatch(Bt.META))
      .filter(FILTERS.chain().filter(FILTERS.family().exactMatch(Bt.DATA))
          .filter(FILTERS.limit().cellsPerRow(1)));

  /** The usage counter shard of a key. */
  public static int shardOf(String key) {
    return Math.floorMod(key.hashCode(), Rows.SHARDS);
  }

  public static long nanos(Instant t) {
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }

  /** A record id: its time first (queue order within a shard), then the writer's tag and index. */
  public static String gcId(Instant at, String tag, int n) {
    return String.format("%019d", nanos(at)) + "-" + tag + "." + n;
  }

  /** The row of a record id, or null if the id is not one this store makes. */
  public static ByteString gcRow(String id) {
    if (id.length() < 21 || id.charAt(19) != '-') {
      return null;
    }
    for (int i = 0; i < 19; i++) {
      if (!Character.isDigit(id.charAt(i))) {
        return null;
      }
    }
    return ByteString.copyFromUtf8(String.format("%02x/", Math.floorMod(id.hashCode(), GC_SHARDS))
        + id);
  }

  /** The first row key of a GC shard. */
  public static ByteString gcShard(int shard) {
    return ByteString.copyFromUtf8(String.format("%02x/", shard));
  }

  /** The record id of a GC row. */
  public static String idOf(ByteString gcRow) {
    return gcRow.substring(3).toStringUtf8();
  }

  /** The holder of the GC records a key write holds: its key row. */
  public static String keyHolder(ByteString keyRow) {
    return "k:" + java.util.Base64.getEncoder().encodeToString(keyRow.toByteArray());
  }
}
