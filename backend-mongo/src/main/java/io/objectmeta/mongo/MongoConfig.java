package io.objectmeta.mongo;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.spi.StoreOptions;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Settings of a MongoDB store, from {@code mongodb://HOST:PORT/DATABASE?options} (or
 * {@code mongodb+srv://}) and properties. The driver's own connection-string options (timeouts,
 * replica set, read and write concern, TLS…; {@link #DRIVER}) pass through to it, with a socket
 * timeout of 300 s unless {@code socketTimeoutMS} says otherwise; any other name is refused, so
 * a misspelled option is never ignored. Ours are taken out first:
 * <ul>
 *   <li>{@code layout}: {@code collection-per-bucket} (default, the reference design) or
 *       {@code shared} (every bucket in one collection); fixed when a database is first used
 *   <li>{@code keyFormat}: {@code v1} (default) or {@code v0}, for buckets created from now on
 *   <li>{@code intentLeaseMs}: how long a write may hold its key before another process rolls
 *       its recorded intent forward (default 30000)
 *   <li>{@code maxRetries}: how often a write (to a bucket, a key or an upload) restarts after
 *       losing a compare-and-set race before it fails with the retryable ServiceUnavailable
 *       (default 100); waiting for another writer's intent is bounded by twice the lease instead
 *   <li>{@code repairIntervalMs}: how often the background drain of the repair queue runs
 *       (default 60000; {@code repair=false} turns it off)
 * </ul>
 * The database is the URI's path (default {@code objectmeta}).
 */
record MongoConfig(String connection, String database, Layout layout, KeyFormat keyFormat,
    Duration intentLease, Duration repairInterval, boolean repair, int maxRetries) {

  static final Set<String> OURS = Set.of("layout", "keyFormat", "intentLeaseMs",
      "repairIntervalMs", "repair", "maxRetries");

  /** The connection-string options of the MongoDB Java driver (names in any case). */
  static final Set<String> DRIVER = Set.of("appName", "authMechanism",
      "authMechanismProperties", "authSource", "compressors", "connectTimeoutMS",
      "directConnection", "gssapiServiceName", "heartbeatFrequencyMS", "journal", "loadBalanced",
      "localThresholdMS", "maxConnecting", "maxIdleTimeMS", "maxLifeTimeMS", "maxPoolSize",
      "maxStalenessSeconds", "minPoolSize", "proxyHost", "proxyPassword", "proxyPort",
      "proxyUsername", "readConcernLevel", "readPreference", "readPreferenceTags", "replicaSet",
      "retryReads", "retryWrites", "safe", "serverMonitoringMode", "serverSelectionTimeoutMS",
      "socketTimeoutMS", "srvMaxHosts", "srvServiceName", "ssl", "sslInvalidHostNameAllowed",
      "timeoutMS", "tls", "tlsAllowInvalidHostnames", "tlsInsecure", "uuidRepresentation", "w",
      "waitQueueTimeoutMS", "wTimeoutMS", "zlibCompressionLevel");

  enum Layout {
    COLLECTION_PER_BUCKET("collection-per-bucket"), SHARED("shared");

    final String text;

    Layout(String text) {
      this.text = text;
    }

    static Layout of(String text) {
      for (Layout l : values()) {
        if (l.text.equals(text)) {
          return l;
        }
      }
      throw new InvalidArgumentException("layout", "unknown layout \"" + text + "\"");
    }
  }

  static MongoConfig from(URI uri, Map<String, String> properties) {
    Set<String> known = new java.util.HashSet<>(OURS);
    known.addAll(DRIVER);
    StoreOptions opts = StoreOptions.of(uri, properties).requireKnown(known, true);
    Layout layout = Layout.of(opts.oneOf("layout", "collection-per-bucket",
        Set.of("collection-per-bucket", "shared")));
    KeyFormat format = KeyFormat.valueOf(opts.oneOf("keyFormat", "v1", Set.of("v0", "v1"))
        .toUpperCase(java.util.Locale.ROOT));
    String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
    String database = path.isEmpty() ? "objectmeta" : path;
    if (!database.matches("[A-Za-z0-9_-]{1,63}")) {
      throw new InvalidArgumentException("database", "must be 1 to 63 letters, digits, _ or -: \""
          + database + "\"");
    }
    String driverQuery = StoreOptions.queryOf(uri).entrySet().stream()
        .filter(e -> !OURS.contains(e.getKey()))
        .map(e -> e.getKey() + "=" + java.net.URLEncoder.encode(e.getValue(),
            java.nio.charset.StandardCharsets.UTF_8))
        .sorted().collect(Collectors.joining("&"));
    String base = uri.getScheme() + "://" + (uri.getRawAuthority() == null ? "localhost"
        : uri.getRawAuthority()) + "/";
    String connection = driverQuery.isEmpty() ? base : base + "?" + driverQuery;
    return new MongoConfig(connection, database, layout, format,
        Duration.ofMillis(opts.positiveLong("intentLeaseMs", 30_000)),
        Duration.ofMillis(opts.positiveLong("repairIntervalMs", 60_000)),
        opts.bool("repair", true),
        opts.positiveInt("maxRetries", io.objectmeta.api.spi.RetryPolicy.DEFAULT_MAX_RETRIES));
  }

  MongoConfig withLease(Duration lease, Duration repairEvery) {
    return new MongoConfig(connection, database, layout, keyFormat, lease, repairEvery, repair,
        maxRetries);
  }

  MongoConfig withDatabase(String db) {
    return new MongoConfig(connection, db, layout, keyFormat, intentLease, repairInterval, repair,
        maxRetries);
  }
}
