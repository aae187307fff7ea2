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
