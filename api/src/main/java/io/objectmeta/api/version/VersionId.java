package io.objectmeta.api.version;

import io.objectmeta.api.error.InvalidArgumentException;
import java.time.Instant;
import java.util.Comparator;

/**
 * A revision: the (timestamp, counter, writer id) triple that names one object version, as Oak's
 * MongoMK names its revisions. Many processes mint them without coordination: the writer id is a
 * random 48-bit number per {@link VersionIdGenerator}, the counter orders ids minted in one
 * millisecond, and the timestamp is recoverable ({@link #timestamp()}), which is what makes
 * "the bucket as of time T" answerable.
 *
 * <p>The external form ({@link #encode()}) is 24 characters of Crockford base32 over 15 bytes:
 * 6 bytes of {@code 2^48-1 - millis}, 3 bytes of {@code 2^24-1 - counter}, 6 bytes of writer id.
 * Ascending string order of external ids is therefore newest first, so "the latest version of a
 * key" is the first entry of its range in any byte-ordered store, and a version-id marker compares
 * without decoding. To clients it is opaque: it shows no timestamp.
 *
 * <p>The null version (written while versioning is unversioned or suspended) is reported with the
 * fixed id {@link #NULL}; internally it still has a revision, which fixes its place among the
 * other versions of its key.
 *
 * <p>{@link #encodeOldestFirst()} renders the same triple in ascending time order; multipart upload
 * ids use it, because S3 lists uploads of one key oldest first.
 */
public record VersionId(long millis, int counter, long writer) implements Comparable<VersionId> {

  /** The external id of the null version. */
  public static final String NULL = "null";

  static final long MAX_MILLIS = (1L << 48) - 1;
  static final int MAX_COUNTER = (1 << 24) - 1;
  static final long MAX_WRITER = (1L << 48) - 1;
  private static final int CHARS = 24;
  private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
  private static final int[] DECODE = new int[128];

  static {
    java.util.Arrays.fill(DECODE, -1);
    for (int i = 0; i < ALPHABET.length; i++) {
      DECODE[ALPHABET[i]] = i;
    }
  }

  /** Newest first: the order of {@link #encode()} strings. */
  public static final Comparator<VersionId> NEWEST_FIRST = Comparator.naturalOrder();

  public VersionId {
    if (millis < 0 || millis > MAX_MILLIS) {
      throw new IllegalArgumentException("millis out of range: " + millis);
    }
    if (counter < 0 || counter > MAX_COUNTER) {
      throw new IllegalArgumentException("counter out of range: " + counter);
    }
    if (writer < 0 || writer > MAX_WRITER) {
      throw new IllegalArgumentException("writer out of range: " + writer);
    }
  }

  /** When this revision was minted (the writer's clock, kept monotonic by its generator). */
  public Instant timestamp() {
    return Instant.ofEpochMilli(millis);
  }

  /** The external, newest-first sortable id. */
  public String encode() {
    return toBase32(MAX_MILLIS - millis, MAX_COUNTER - counter, writer);
  }

  /** The external, oldest-first sortable form (multipart upload ids). */
  public String encodeOldestFirst() {
    return toBase32(millis, counter, writer);
  }

  /**
   * Parses an external version id. {@code field} names the argument in the error.
   *
   * @throws InvalidArgumentException if the text is not an id this library minted (the null
   *     version's {@code "null"} included: callers handle it before parsing)
   */
  public static VersionId decode(String text, String field) {
    long[] p = fromBase32(text, field);
    return new VersionId(MAX_MILLIS - p[0], (int) (MAX_COUNTER - p[1]), p[2]);
  }

  /** Parses the oldest-first form produced by {@link #encodeOldestFirst()}. */
  public static VersionId decodeOldestFirst(String text, String field) {
    long[] p = fromBase32(text, field);
    return new VersionId(p[0], (int) p[1], p[2]);
  }

  /** Newest first. */
  @Override
  public int compareTo(VersionId o) {
    int c = Long.compare(o.millis, millis);
    if (c != 0) {
      return c;
    }
    c = Integer.compare(o.counter, counter);
    if (c != 0) {
      return c;
    }
    return Long.compare(writer, o.writer);
  }

  @Override
  public String toString() {
    return encode();
  }

  private static final long M48 = (1L << 48) - 1;

  /**
   * 120 bits (a: 48, b: 24, c: 48) as 24 base32 characters, most significant first: two halves
   * of 60 bits, twelve characters each.
   */
  private static String toBase32(long a, long b, long c) {
    long hi = (a & M48) << 12 | (b & 0xffffff) >>> 12;
    long lo = (b & 0xfff) << 48 | (c & M48);
    char[] out = new char[CHARS];
    for (int i = 0; i < 12; i++) {
      int shift = 55 - 5 * i;
      out[i] = ALPHABET[(int) (hi >>> shift) & 31];
      out[12 + i] = ALPHABET[(int) (lo >>> shift) & 31];
    }
    return new String(out);
  }


  private static long[] fromBase32(String text, String field) {
    if (text == null || text.length() != CHARS) {
      throw new InvalidArgumentException(field, "not a valid version id (expected " + CHARS
          + " base32 characters or \"null\")");
    }
    long hi = 0;
    long lo = 0;
    for (int i = 0; i < CHARS; i++) {
      char ch = text.charAt(i);
      int v = ch < 128 ? DECODE[ch] : -1;
      if (v < 0) {
        throw new InvalidArgumentException(field, "not a valid version id (character '" + ch
            + "' is not base32)");
      }
      if (i < 12) {
        hi = hi << 5 | v;
      } else {
        lo = lo << 5 | v;
      }
    }
    return new long[] {hi >>> 12, (hi & 0xfff) << 12 | lo >>> 48, lo & M48};
  }

}
