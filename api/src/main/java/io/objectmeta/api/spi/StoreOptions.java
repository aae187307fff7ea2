package io.objectmeta.api.spi;

import io.objectmeta.api.error.InvalidArgumentException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A store URI's query options merged with the properties given to {@code open} (properties win),
 * with typed getters whose errors name the option. Every backend reads its settings this way.
 */
public final class StoreOptions {
  private final Map<String, String> options;

  private StoreOptions(Map<String, String> options) {
    this.options = options;
  }

  public static StoreOptions of(URI uri, Map<String, String> properties) {
    Map<String, String> opts = new HashMap<>(queryOf(uri));
    opts.putAll(properties);
    return new StoreOptions(opts);
  }

  /** The URI's query options alone, decoded, in no particular order. */
  public static Map<String, String> queryOf(URI uri) {
    Map<String, String> opts = new HashMap<>();
    if (uri.getRawQuery() != null) {
      for (String pair : uri.getRawQuery().split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        opts.put(decode(eq < 0 ? pair : pair.substring(0, eq)),
            eq < 0 ? "" : decode(pair.substring(eq + 1)));
      }
    }
    return opts;
  }

  public String get(String name) {
    return options.get(name);
  }

  public String get(String name, String dflt) {
    return options.getOrDefault(name, dflt);
  }

  /** One of {@code allowed}, or the default; anything else is an InvalidArgument naming it. */
  public String oneOf(String name, String dflt, Set<String> allowed) {
    String v = options.getOrDefault(name, dflt);
    if (!allowed.contains(v)) {
      throw new InvalidArgumentException(name, "must be one of " + new java.util.TreeSet<>(allowed)
          + ", got \"" + v + "\"");
    }
    return v;
  }

  /** A positive integer, or the default. */
  public int positiveInt(String name, int dflt) {
    long n = positiveLong(name, dflt);
    if (n > Integer.MAX_VALUE) {
      throw new InvalidArgumentException(name, "must be a positive integer: " + options.get(name));
    }
    return (int) n;
  }

  /** A positive long, or the default. */
  public long positiveLong(String name, long dflt) {
    String v = options.get(name);
    if (v == null) {
      return dflt;
    }
    try {
      long n = Long.parseLong(v);
      if (n < 1) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new InvalidArgumentException(name, "must be a positive integer: " + v);
    }
  }

  /** {@code true} or {@code false}, or the default. */
  public boolean bool(String name, boolean dflt) {
    String v = options.get(name);
    if (v == null) {
      return dflt;
    }
    if (!v.equals("true") && !v.equals("false")) {
      throw new InvalidArgumentException(name, "must be true or false: " + v);
    }
    return Boolean.parseBoolean(v);
  }

  /** The names of the options given (URI query and properties). */
  public Set<String> names() {
    return java.util.Collections.unmodifiableSet(options.keySet());
  }

  /**
   * Refuses an option that is not one of {@code known}: an InvalidArgument naming it, with the
   * known ones listed and the likely one suggested ({@code schma} → {@code schema}), so that a
   * misspelled setting is never silently ignored.
   *
   * @param caseInsensitive the backend reads option names in any case (MongoDB's driver does)
   */
  public StoreOptions requireKnown(Set<String> known, boolean caseInsensitive) {
    Set<String> lower = new java.util.HashSet<>();
    known.forEach(k -> lower.add(k.toLowerCase(java.util.Locale.ROOT)));
    for (String name : new java.util.TreeSet<>(options.keySet())) {
      boolean ok = caseInsensitive ? lower.contains(name.toLowerCase(java.util.Locale.ROOT))
          : known.contains(name);
      if (!ok) {
        String near = nearest(name, known);
        throw new InvalidArgumentException(name, "unknown option" + (near == null ? ""
            : " (did you mean " + near + "?)") + "; known options: "
            + String.join(", ", new java.util.TreeSet<>(known)));
      }
    }
    return this;
  }

  /** The known name one edit (or a difference of case) away, if there is one. */
  private static String nearest(String name, Set<String> known) {
    for (String k : new java.util.TreeSet<>(known)) {
      if (k.equalsIgnoreCase(name) || oneEditApart(k.toLowerCase(java.util.Locale.ROOT),
          name.toLowerCase(java.util.Locale.ROOT))) {
        return k;
      }
    }
    return null;
  }

  private static boolean oneEditApart(String a, String b) {
    if (Math.abs(a.length() - b.length()) > 1) {
      return false;
    }
    int i = 0;
    while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    int j = 0;
    while (j < a.length() - i && j < b.length() - i
        && a.charAt(a.length() - 1 - j) == b.charAt(b.length() - 1 - j)) {
      j++;
    }
    return a.length() - i - j <= 1 && b.length() - i - j <= 1;
  }

  /**
   * A store URI as it may be shown: the password of its user info and any {@code password},
   * {@code secret}, {@code token} or key-like option masked. Works on text that is not a valid
   * URI too (it is what an error about a bad URI shows).
   */
  public static String redact(String uri) {
    if (uri == null) {
      return null;
    }
    String shown;
    try {
      URI u = new URI(uri);
      if (u.getRawAuthority() != null && u.getHost() == null) {
        // parsed, but not as host and port (a "registry" authority): read it as text below
        throw new java.net.URISyntaxException(uri, "no server-based authority");
      }
      String info = u.getRawUserInfo();
      shown = info == null || !info.contains(":") ? uri
          : uri.replaceFirst(java.util.regex.Pattern.quote(info + "@"),
              java.util.regex.Matcher.quoteReplacement(info.substring(0, info.indexOf(':')) + ":***@"));
    } catch (java.net.URISyntaxException e) {
      // Not a URI: where its user info ends is unknown, so all of it up to the last '@' goes.
      int start = uri.indexOf("://");
      int at = uri.lastIndexOf('@');
      shown = start >= 0 && at > start ? uri.substring(0, start + 3) + "***" + uri.substring(at)
          : uri;
    }
    return shown.replaceAll("(?i)([?&;](?:password|pass|pwd|secret|token|[a-z]*key|proxypassword)=)[^&#;]*",
            "$1***");
  }

  /** The first non-null value. */
  @SafeVarargs
  public static <T> T first(T... values) {
    for (T v : values) {
      if (v != null) {
        return v;
      }
    }
    return null;
  }

  public static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }
}
