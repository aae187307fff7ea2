package io.objectmeta.postgres;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.spi.StoreOptions;
import java.net.URI;
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
    StoreOptions opts = StoreOptions.of(uri, properties);
    String user = null;
    String password = null;
    if (uri.getRawUserInfo() != null) {
      String[] ui = uri.getRawUserInfo().split(":", 2);
      user = StoreOptions.decode(ui[0]);
      password = ui.length > 1 ? StoreOptions.decode(ui[1]) : null;
    }
    user = StoreOptions.first(opts.get("user"), user, System.getenv("PGUSER"), "postgres");
    password = StoreOptions.first(opts.get("password"), password, System.getenv("PGPASSWORD"), null);
    String host = uri.getHost() == null ? "localhost" : uri.getHost();
    int port = uri.getPort() < 0 ? 5432 : uri.getPort();
    String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
    String database = path.isEmpty() ? "postgres" : path;
    String schema = opts.get("schema", "objectmeta");
    if (!schema.matches("[a-z_][a-z0-9_]{0,62}")) {
      throw new InvalidArgumentException("schema", "must be a lowercase SQL identifier: " + schema);
    }
    return new PostgresConfig(host, port, database, user, password, schema,
        opts.positiveInt("maxPoolSize", 10), opts.positiveInt("connectTimeoutSeconds", 5),
        Boolean.parseBoolean(opts.get("migrate", "true")));
  }

  public String jdbcUrl() {
    return "jdbc:postgresql://" + host + ":" + port + "/" + database;
  }
}
