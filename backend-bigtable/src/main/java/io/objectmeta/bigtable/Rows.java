package io.objectmeta.bigtable;

import com.google.protobuf.ByteString;
import io.objectmeta.api.version.VersionId;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Row keys of one bucket incarnation in the objects table. A bucket is one contiguous range
 * that starts with four hex digits of a hash of its id (buckets spread over tablets, as the
 * seed hashes node names) and the id itself; inside it, one range per kind of row:
 *
 * <pre>
 *   P c N           usage counters, shard N (0-7)
 *   P k KEY         the key row: every version of the key, the version cell, a pending intent
 *   P m KEY         the master: the current object (absent while the latest is a delete marker)
 *   P u ESC 00 00 U an upload (its parts are columns of the same row)
 * </pre>
 *
 * KEY is the key's UTF-8 bytes as they are (nothing follows it, so byte order is the key
 * order). ESC is the key with NUL written as {@code 00 01}, so the separator {@code 00 00} is
 * unambiguous and sorts below anything that may follow a key: byte order is still key order.
 * Public for the bench's raw baseline, which addresses the same rows.
 */
public final class Rows {
  public static final int SHARDS = 8;
  private final ByteString prefix;

  public Rows(String bucketId) {
    this.prefix = ByteString.copyFromUtf8(hash(bucketId) + bucketId);
  }

  static String hash(String id) {
    CRC32 crc = new CRC32();
    crc.update(id.getBytes(StandardCharsets.UTF_8));
    return String.format("%04x", crc.getValue() & 0xffff);
  }

  public ByteString start() {
    return prefix;
  }

  public ByteString end() {
    return prefix.concat(ByteString.copyFrom(new byte[] {(byte) 0xff}));
  }

  private ByteString kind(char k) {
    return prefix.concat(ByteString.copyFrom(new byte[] {(byte) k}));
  }

  public ByteString counter(int shard) {
    return kind('c').concat(ByteString.copyFromUtf8(Integer.toString(shard)));
  }

  ByteString countersStart() {
    return kind('c');
  }

  ByteString countersEnd() {
    return kind('d');
  }

  public ByteString key(String key) {
    return kind('k').concat(ByteString.copyFromUtf8(key));
  }

  ByteString keysStart() {
    return kind('k');
  }

  ByteString keysEnd() {
    return kind('l');
  }

  public ByteString master(String key) {
    return kind('m').concat(ByteString.copyFromUtf8(key));
  }

  public ByteString mastersStart() {
    return kind('m');
  }

  public ByteString mastersEnd() {
    return kind('n');
  }

  /** The key of a key row or a master row. */
  String keyOf(ByteString row) {
    return row.substring(prefix.size() + 1).toStringUtf8();
  }

  ByteString uploadsOf(String key) {
    return kind('u').concat(escape(key));
  }

  ByteString upload(String key, String uploadId) {
    return uploadsOf(key).concat(SEP).concat(ByteString.copyFromUtf8(uploadId));
  }

  ByteString uploadsStart() {
    return kind('u');
  }

  ByteString uploadsEnd() {
    return kind('v');
  }

  /** {key, uploadId} of an upload row. */
  String[] uploadOf(ByteString row) {
    byte[] b = row.substring(prefix.size() + 1).toByteArray();
    ByteArrayOutputStream key = new ByteArrayOutputStream();
    int i = 0;
    while (i < b.length) {
      if (b[i] == 0) {
        if (b[i + 1] == 0) {
          break;
        }
        key.write(0);
        i += 2;
      } else {
        key.write(b[i++]);
      }
    }
    return new String[] {key.toString(StandardCharsets.UTF_8),
        new String(b, i + 2, b.length - i - 2, StandardCharsets.UTF_8)};
  }

  private static final ByteString SEP = ByteString.copyFrom(new byte[] {0, 0});

  static ByteString escape(String key) {
    byte[] b = key.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream(b.length + 2);
    for (byte x : b) {
      out.write(x);
      if (x == 0) {
        out.write(1);
      }
    }
    return ByteString.copyFrom(out.toByteArray());
  }

  /** A version's column in its key row: newest first in column order. */
  public static ByteString versionColumn(VersionId revision) {
    return ByteString.copyFromUtf8(revision.encode());
  }

  static VersionId revisionOf(ByteString column) {
    return VersionId.decode(column.toStringUtf8(), "versionId");
  }

  /** A part's column in its upload row. */
  static ByteString partColumn(int partNumber) {
    return ByteString.copyFromUtf8(String.format("p%05d", partNumber));
  }

  /** The first row key after every key that starts with {@code p} (null: none, all 0xff). */
  public static ByteString after(ByteString p) {
    byte[] b = p.toByteArray();
    for (int i = b.length - 1; i >= 0; i--) {
      if (b[i] != (byte) 0xff) {
        byte[] out = java.util.Arrays.copyOf(b, i + 1);
        out[i]++;
        return ByteString.copyFrom(out);
      }
    }
    return null;
  }

  /** The smallest row key greater than {@code row}. */
  static ByteString successor(ByteString row) {
    return row.concat(ByteString.copyFrom(new byte[] {0}));
  }
}
