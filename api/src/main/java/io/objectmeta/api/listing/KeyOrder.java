package io.objectmeta.api.listing;

import java.util.Comparator;
import java.util.Optional;

/**
 * S3 orders keys by their UTF-8 bytes. Java's {@link String#compareTo} orders UTF-16 code units,
 * which disagrees for characters above U+FFFF (surrogate pairs, 0xD800..0xDFFF) against
 * U+E000..U+FFFF. Every comparison of keys, markers and prefixes in objectmeta goes through
 * {@link #UTF8}; UTF-8 byte order equals code point order, which is what it computes, without
 * encoding.
 */
public final class KeyOrder {
  private KeyOrder() {}

  /** Code point (= UTF-8 byte) order of well-formed strings. */
  public static final Comparator<String> UTF8 = KeyOrder::compare;

  /** Compares two strings in UTF-8 byte order. */
  public static int compare(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        boolean sx = Character.isSurrogate(x);
        boolean sy = Character.isSurrogate(y);
        if (sx == sy) {
          return x - y;
        }
        // A surrogate stands for a code point above U+FFFF: greater than any BMP character.
        return sx ? 1 : -1;
      }
    }
    return a.length() - b.length();
  }

  /** Whether {@code a} sorts strictly after {@code b}. */
  public static boolean after(String a, String b) {
    return compare(a, b) > 0;
  }

  /** The greater of two keys in UTF-8 order. */
  public static String max(String a, String b) {
    return compare(a, b) >= 0 ? a : b;
  }

  /**
   * The smallest well-formed string greater than every string that starts with {@code prefix}:
   * the prefix with its last code point incremented (skipping the surrogate range), dropping
   * trailing U+10FFFF. Empty when no such string exists (the prefix is empty or all U+10FFFF).
   * A listing skips a whole common prefix by seeking here, and a prefix range scan stops here.
   */
  public static Optional<String> prefixSuccessor(String prefix) {
    int end = prefix.length();
    while (end > 0) {
      int cp = prefix.codePointBefore(end);
      int len = Character.charCount(cp);
      if (cp < Character.MAX_CODE_POINT) {
        int next = cp + 1;
        if (next == Character.MIN_SURROGATE) {
          next = Character.MAX_SURROGATE + 1;
        }
        return Optional.of(new StringBuilder(end - len + 2)
            .append(prefix, 0, end - len)
            .appendCodePoint(next)
            .toString());
      }
      end -= len;
    }
    return Optional.empty();
  }

  /** The smallest string greater than {@code key}: the key followed by U+0000. */
  public static String successor(String key) {
    return key + '\0';
  }

  /** Whether the string is well-formed UTF-16 (no unpaired surrogate), so it has a UTF-8 form. */
  public static boolean isWellFormed(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
          return false;
        }
        i++;
      } else if (Character.isLowSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  /** The number of bytes of the UTF-8 form of a well-formed string, without encoding it. */
  public static int utf8Length(CharSequence s) {
    int bytes = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }
}
