package io.objectmeta.mongo;

import io.objectmeta.api.version.VersionId;

/**
 * Document ids of one bucket's namespace. Every id is a string whose order is the order the
 * listing needs, on any server: MongoDB compares strings by UTF-8 bytes, while an in-process
 * server may compare UTF-16 units, and the two differ for characters at and above U+D800. So a
 * key is escaped ({@link #escape}) into characters below U+D7FF, whose order is the same in
 * both, keeping the keys' UTF-8 byte order:
 * <ul>
 *   <li>NUL becomes NUL U+0001, so the separator NUL NUL sorts below anything that can follow a
 *       key (a key's versions come before any longer key);
 *   <li>a code point at or above U+D7FF becomes U+D7FF and two fixed-width digits (U+0100 …
 *       U+10FF) of its distance from U+D7FF;
 *   <li>everything else is kept, so ordinary keys are stored as they are.
 * </ul>
 * Ids that start with U+D7FF followed by U+0000, U+0001 or U+0002 cannot be escaped keys; they
 * hold the bucket's usage counters, its multipart uploads and its keys' lock documents. In the shared layout every id starts with
 * the bucket incarnation id (fixed length), so a bucket is one contiguous id range.
 *
 * <p>Public as a part of the document format, for tools that read or write the same documents
 * (the bench's raw baseline, change-stream consumers).
 */
public final class Ids {
  static final char ESC = '\uD7FF';
  static final String SEP = "\0\0";
  private static final String V1_MASTER = "\u007fM";
  private static final String V1_VERSION = "\u007fV";
  private static final String USAGE = ESC + "\0u";
  private static final String UPLOADS = ESC + "\u0001";
  private static final String LOCKS = ESC + "\u0002";

  final String prefix;
  final KeyFormat format;
  private final String masterBase;
  private final String versionBase;

  Ids withFormat(KeyFormat f) {
    return f == format ? this : new Ids(prefix, f);
  }

  /** The ids of one bucket: {@code prefix} is its incarnation id in the shared layout, else "". */
  public Ids(String prefix, KeyFormat format) {
    this.prefix = prefix;
    this.format = format;
    this.masterBase = format == KeyFormat.V1 ? prefix + V1_MASTER : prefix;
    this.versionBase = format == KeyFormat.V1 ? prefix + V1_VERSION : prefix;
  }

  static String escape(String key) {
    int n = key.length();
    int i = 0;
    while (i < n) {
      char c = key.charAt(i);
      if (c == 0 || c >= ESC) {
        break;
      }
      i++;
    }
    if (i == n) {
      return key;
    }
    StringBuilder b = new StringBuilder(n + 8).append(key, 0, i);
    while (i < n) {
      int cp = key.codePointAt(i);
      i += Character.charCount(cp);
      if (cp == 0) {
        b.append('\0').append('\u0001');
      } else if (cp >= ESC) {
        int d = cp - ESC;
        b.append(ESC).append((char) (0x100 + (d >> 12))).append((char) (0x100 + (d & 0xFFF)));
      } else {
        b.append((char) cp);
      }
    }
    return b.toString();
  }

  static String unescape(String s, int from, int to) {
    StringBuilder b = null;
    int i = from;
    for (int j = from; j < to; j++) {
      char c = s.charAt(j);
      if (c == 0 || c == ESC) {
        if (b == null) {
          b = new StringBuilder(to - from);
        }
        b.append(s, i, j);
        if (c == 0) {
          b.append('\0');
          j += 1;
        } else {
          int d = ((s.charAt(j + 1) - 0x100) << 12) | (s.charAt(j + 2) - 0x100);
          b.appendCodePoint(ESC + d);
          j += 2;
        }
        i = j + 1;
      }
    }
    if (b == null) {
      return s.substring(from, to);
    }
    return b.append(s, i, to).toString();
  }

  // ------------------------------------------------------------------------------ object keys

  /**
   * A key as it appears in this format's ids. In v0 a key that starts with U+007F gets a second
   * one, so no v0 id falls in the v1 ranges ({@code \x7fM…}, {@code \x7fV…}): a bucket that a
   * migration is moving holds both formats at once. The order of keys is kept.
   */
  private String local(String key) {
    String e = escape(key);
    return format == KeyFormat.V0 && !e.isEmpty() && e.charAt(0) == '\u007f' ? '\u007f' + e : e;
  }

  private String unlocal(String id, int from, int to) {
    if (format == KeyFormat.V0 && to - from >= 2 && id.charAt(from) == '\u007f'
        && id.charAt(from + 1) == '\u007f') {
      from++;
    }
    return unescape(id, from, to);
  }

  /** Ids of the v1 ranges, which a v0 scan of a migrating bucket leaves out. */
  String v1Start() {
    return prefix + V1_MASTER;
  }

  String v1End() {
    return prefix + "\u007fW";
  }

  public String master(String key) {
    return masterBase + local(key);
  }

  /**
   * The key's lock document. Its id does not depend on the key format, so a key keeps one lock
   * while a migration moves it from v0 to v1 ids.
   */
  public String lock(String key) {
    return prefix + LOCKS + escape(key);
  }

  String locksStart() {
    return prefix + LOCKS;
  }

  String locksEnd() {
    return prefix + ESC + "\u0003";
  }

  String keyOfLock(String id) {
    return unescape(id, prefix.length() + 2, id.length());
  }

  /** The start of the key's version range. */
  public String versionsOf(String key) {
    return versionBase + local(key) + SEP;
  }

  public String version(String key, VersionId revision) {
    return versionsOf(key) + revision.encode();
  }

  /** Just past the key's version range. */
  public String versionsEnd(String key) {
    return versionBase + local(key) + "\0\u0001";
  }

  String masterFrom(String keyFrom) {
    return masterBase + local(keyFrom);
  }

  String versionFrom(String keyFrom) {
    return versionBase + local(keyFrom);
  }

  /** The range of masters (v1), or of everything keyed (v0). */
  String mastersStart() {
    return masterBase;
  }

  String mastersEnd() {
    return format == KeyFormat.V1 ? prefix + "\u007fN" : prefix + "\uFFFF";
  }

  String versionsStart() {
    return versionBase;
  }

  String versionsEnd() {
    return format == KeyFormat.V1 ? prefix + "\u007fW" : prefix + "\uFFFF";
  }

  String keyOfMaster(String id) {
    return unlocal(id, masterBase.length(), id.length());
  }

  String keyOfVersion(String id) {
    int sep = id.indexOf(SEP, versionBase.length());
    return unlocal(id, versionBase.length(), sep);
  }

  VersionId revisionOf(String versionDocId) {
    int sep = versionDocId.indexOf(SEP, versionBase.length());
    return VersionId.decode(versionDocId.substring(sep + 2), "versionId");
  }

  // --------------------------------------------------------------------------------- counters

  /** How many counter documents a bucket has. */
  public static final int SHARDS = 8;

  /** The counter shard a key's writes update. */
  public static int shardOf(String key) {
    return Math.floorMod(key.hashCode(), SHARDS);
  }

  public String usage(int shard) {
    return prefix + USAGE + shard;
  }

  // ---------------------------------------------------------------------------------- uploads

  String upload(String key, String uploadId) {
    return prefix + UPLOADS + escape(key) + SEP + uploadId;
  }

  String uploadFrom(String keyFrom) {
    return prefix + UPLOADS + escape(keyFrom);
  }

  String uploadsStart() {
    return prefix + UPLOADS;
  }

  String uploadsEnd() {
    return prefix + ESC + "\u0002";
  }

  String keyOfUpload(String id) {
    int sep = id.indexOf(SEP, prefix.length() + 2);
    return unescape(id, prefix.length() + 2, sep);
  }

  String uploadIdOf(String id) {
    int sep = id.indexOf(SEP, prefix.length() + 2);
    return id.substring(sep + 2);
  }

  static String part(String uploadDocId, int partNumber) {
    return uploadDocId + SEP + String.format(java.util.Locale.ROOT, "%05d", partNumber);
  }

  static String partsEnd(String uploadDocId) {
    return uploadDocId + "\0\u0001";
  }

  /** The whole namespace (shared layout: the bucket's range of the shared collection). */
  String start() {
    return prefix;
  }

  String end() {
    return prefix + "\uFFFF";
  }
}
