package io.objectmeta.postgres;

import io.objectmeta.api.error.InvalidArgumentException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Settings of a PostgreSQL store, from {@code postgres://USER:PASSWORD@HOST:PORT/DATABASE?opts},
 * then properties, then the environment (PGUSER, PGPASSWORD). Options and properties:
 * {@code schema} (default objectmeta), {@code user}, {@code password}, {@code maxPoolSize}
 * (default 10), {@code connectTimeoutSeconds} (default 5), {@code migrate} (true: apply schema
 * migrations on open; false: refuse to open an out-of-date schema).
 */
public record PostgresConfig(String host, int port, String database, String user, String password,
    String schema, int maxPoolSize, int connectTimeoutSeconds, boolean migrate) {

  public static PostgresConfig from(URI uri, Map<String, String> properties) {
    Map<String, String> opts = new HashMap<>();
    if (uri.getRawQuery() != null) {
      for (String pair : uri.getRawQuery().split("&")) {
        int eq = pair.indexOf('=');
        String k = decode(eq < 0 ? pair : pair.substring(0, eq));
        String v = eq < 0 ? "" : decode(pair.substring(eq + 1));
        opts.put(k, v);
      }
    }
    opts.putAll(properties);
    String user = null;
    String password = null;
    if (uri.getRawUserInfo() != null) {
      String[] ui = uri.getRawUserInfo().split(":", 2);
      user = decode(ui[0]);
      password = ui.length > 1 ? decode(ui[1]) : null;
    }
    user = first(opts.get("user"), user, System.getenv("PGUSER"), "postgres");
    password = first(opts.get("password"), password, System.getenv("PGPASSWORD"), null);
    String host = uri.getHost() == null ? "localhost" : uri.getHost();
    int port = uri.getPort() < 0 ? 5432 : uri.getPort();
    String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
    String database = path.isEmpty() ? "postgres" : path;
    String schema = opts.getOrDefault("schema", "objectmeta");
    if (!schema.matches("[a-z_][a-z0-9_]{0,62}")) {
      throw new InvalidArgumentException("schema", "must be a lowercase SQL identifier: " + schema);
    }
    return new PostgresConfig(host, port, database, user, password, schema,
        intOpt(opts, "maxPoolSize", 10), intOpt(opts, "connectTimeoutSeconds", 5),
        Boolean.parseBoolean(opts.getOrDefault("migrate", "true")));
  }

  public String jdbcUrl() {
    return "jdbc:postgresql://" + host + ":" + port + "/" + database;
  }

  private static int intOpt(Map<String, String> opts, String name, int dflt) {
    String v = opts.get(name);
    if (v == null) {
      return dflt;
    }
    try {
      int n = Integer.parseInt(v);
      if (n < 1) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new InvalidArgumentException(name, "must be a positive integer: " + v);
    }
  }

  @SafeVarargs
  private static <T> T first(T... values) {
    for (T v : values) {
      if (v != null) {
        return v;
      }
    }
    return null;
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }
}
