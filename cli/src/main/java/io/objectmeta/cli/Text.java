package io.objectmeta.cli;

/** Text as a terminal line can show it: keys may hold any character, newlines and NUL included. */
public final class Text {
  private Text() {}

  /** {@code s} with control characters escaped (\n, \t, \\u0000, …), so it stays on one line. */
  public static String printable(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      String esc = switch (c) {
        case '\n' -> "\\n";
        case '\r' -> "\\r";
        case '\t' -> "\\t";
        default -> Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : null;
      };
      if (esc != null && b == null) {
        b = new StringBuilder(s.length() + 8).append(s, 0, i);
      }
      if (b != null) {
        b.append(esc != null ? esc : String.valueOf(c));
      }
    }
    return b == null ? s : b.toString();
  }

  /** A byte count for people: 1023 B, 1.5 KiB, 12.0 MiB. */
  public static String bytes(long n) {
    if (n < 1024) {
      return n + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = n;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format("%.1f %s", v, units[u]);
  }
}
