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
 * migrations on open; false: refuse to open an out-of-date schema), and every connection
 * property of the PostgreSQL JDBC driver by its name ({@code sslmode}, {@code sslrootcert},
 * {@code ssl}, {@code socketTimeout} (default {@value #DEFAULT_SOCKET_TIMEOUT_SECONDS} s here),
 * {@code ApplicationName}, {@code options}…), handed to the driver as given. Any other name is
 * refused: a misspelled option is never ignored. {@link #toString()} shows no password.
 *
 * @param driverOptions the driver's connection properties given, by name
 */
public record PostgresConfig(String host, int port, String database, String user, String password,
    String schema, int maxPoolSize, int connectTimeoutSeconds, boolean migrate,
    Map<String, String> driverOptions) {

  /** How long a connection may wait on the server before it fails (ServiceUnavailable). */
  public static final int DEFAULT_SOCKET_TIMEOUT_SECONDS = 300;

  /** Our own options. */
  static final java.util.Set<String> OURS = java.util.Set.of("schema", "user", "password",
      "maxPoolSize", "connectTimeoutSeconds", "migrate");

  /** The JDBC driver's connection properties, by the names its documentation gives. */
  static final java.util.Set<String> DRIVER = java.util.Arrays.stream(
      org.postgresql.PGProperty.values()).map(org.postgresql.PGProperty::getName)
      .filter(n -> !OURS.contains(n)).collect(java.util.stream.Collectors.toUnmodifiableSet());

  public PostgresConfig {
    driverOptions = driverOptions == null ? Map.of() : Map.copyOf(driverOptions);
  }

  public static PostgresConfig from(URI uri, Map<String, String> properties) {
    java.util.Set<String> known = new java.util.HashSet<>(OURS);
    known.addAll(DRIVER);
    StoreOptions opts = StoreOptions.of(uri, properties).requireKnown(known, false);
    Map<String, String> driver = new java.util.TreeMap<>();
    for (String name : opts.names()) {
      if (DRIVER.contains(name)) {
        driver.put(name, opts.get(name));
      }
    }
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
        opts.bool("migrate", true), driver);
  }

  public String jdbcUrl() {
    return "jdbc:postgresql://" + host + ":" + port + "/" + database;
  }

  /** The same deployment, another schema and pool size (scratch namespaces). */
  PostgresConfig withSchema(String otherSchema, int poolSize) {
    return new PostgresConfig(host, port, database, user, password, otherSchema, poolSize,
        connectTimeoutSeconds, migrate, driverOptions);
  }

  /**
   * What the driver is given besides user and password: the connect and socket timeouts, then
   * the driver options as given (they win).
   */
  public java.util.Properties driverProperties() {
    java.util.Properties p = new java.util.Properties();
    p.setProperty("connectTimeout", String.valueOf(connectTimeoutSeconds));
    p.setProperty("socketTimeout", String.valueOf(DEFAULT_SOCKET_TIMEOUT_SECONDS));
    p.putAll(driverOptions);
    return p;
  }

  /**
   * The store's connection pool settings (HikariCP): this deployment's URL, user and password,
   * {@code maxPoolSize}, the connect timeout for a connection and for the pool's start, batched
   * inserts rewritten into one, and every driver option.
   */
  public com.zaxxer.hikari.HikariConfig poolConfig(String poolName) {
    com.zaxxer.hikari.HikariConfig hc = new com.zaxxer.hikari.HikariConfig();
    hc.setJdbcUrl(jdbcUrl());
    hc.setUsername(user);
    if (password != null) {
      hc.setPassword(password);
    }
    hc.setMaximumPoolSize(maxPoolSize);
    hc.setConnectionTimeout(connectTimeoutSeconds * 1000L);
    hc.setInitializationFailTimeout(connectTimeoutSeconds * 1000L);
    hc.addDataSourceProperty("reWriteBatchedInserts", "true");
    driverProperties().forEach((k, v) -> hc.addDataSourceProperty((String) k, v));
    hc.setPoolName(poolName);
    return hc;
  }

  /** A plain connection (outside the pool) with every setting of the store's. */
  java.sql.Connection connect() throws java.sql.SQLException {
    java.util.Properties p = driverProperties();
    if (user != null) {
      p.setProperty("user", user);
    }
    if (password != null) {
      p.setProperty("password", password);
    }
    return java.sql.DriverManager.getConnection(jdbcUrl(), p);
  }

  /** No password: it shows where a config is printed or logged. */
  @Override
  public String toString() {
    return "PostgresConfig[" + user + (password == null ? "" : ":***") + "@" + host + ":" + port
        + "/" + database + ", schema=" + schema + ", maxPoolSize=" + maxPoolSize
        + ", connectTimeoutSeconds=" + connectTimeoutSeconds + ", migrate=" + migrate
        + ", driverOptions=" + redactedOptions() + "]";
  }

  private Map<String, String> redactedOptions() {
    Map<String, String> shown = new java.util.TreeMap<>(driverOptions);
    shown.replaceAll((k, v) -> k.toLowerCase(java.util.Locale.ROOT).contains("password")
        || k.toLowerCase(java.util.Locale.ROOT).contains("key") ? "***" : v);
    return shown;
  }
}
