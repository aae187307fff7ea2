package io.objectmeta.bigtable;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.spi.StoreOptions;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * Settings of a Bigtable store, from {@code bigtable://PROJECT/INSTANCE?options} and properties:
 * <ul>
 *   <li>{@code tablePrefix}: the prefix of the store's three tables (default {@code objectmeta_})
 *   <li>{@code appProfile}: the app profile of every request (default: the instance's default)
 *   <li>{@code emulatorHost}: {@code HOST:PORT} of an emulator (default: the
 *       {@code BIGTABLE_EMULATOR_HOST} variable; neither: the real service)
 *   <li>{@code endpoint}: the data API's HOST:PORT (default the service's; a private or
 *       regional endpoint)
 *   <li>{@code credentialsFile}: a service account key file (JSON) to authenticate with (default
 *       the application default credentials)
 *   <li>{@code createTables}: create missing tables and families on open (default true; false in
 *       production, where a missing table is then an error naming it)
 *   <li>{@code maxRetries}: how often an operation restarts after losing a check-and-mutate race
 *       before it fails with the retryable ServiceUnavailable (default 100; waiting for another
 *       writer's intent does not count: it is bounded by twice the intent lease)
 *   <li>{@code bucketCacheMs}: how long a bucket row read stays cached (default 0: off, every
 *       operation reads its bucket's row; with a cache, another store's change to a bucket may
 *       go unseen for this long: its versioning state, or a delete and re-create)
 *   <li>{@code intentLeaseMs}: how long a write may hold its key before another process rolls
 *       its recorded intent forward (default 30000)
 *   <li>{@code repairIntervalMs}: how often the background repair runs (default 300000;
 *       {@code repair=false} turns it off)
 * </ul>
 */
record BigtableConfig(String project, String instance, String tablePrefix, String appProfile,
    String emulatorHost, boolean createTables, int maxRetries, Duration bucketCache,
    Duration intentLease, Duration repairInterval, boolean repair, String endpoint,
    String credentialsFile) {

  /** Every option there is; any other name is refused, so a misspelled one is never ignored. */
  static final java.util.Set<String> KNOWN = java.util.Set.of("tablePrefix", "appProfile",
      "emulatorHost", "createTables", "maxRetries", "bucketCacheMs", "intentLeaseMs",
      "repairIntervalMs", "repair", "endpoint", "credentialsFile");

  static BigtableConfig from(URI uri, Map<String, String> properties) {
    StoreOptions opts = StoreOptions.of(uri, properties).requireKnown(KNOWN, false);
    String project = uri.getAuthority();
    String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
    if (project == null || !project.matches("[a-z][-a-z0-9.:]{0,62}")) {
      throw new InvalidArgumentException("project", "bigtable://PROJECT/INSTANCE needs a project"
          + " id (lower-case letters, digits, -), got \"" + project + "\"");
    }
    if (!path.matches("[a-z][-a-z0-9]{1,32}")) {
      throw new InvalidArgumentException("instance", "bigtable://PROJECT/INSTANCE needs an instance"
          + " id (lower-case letters, digits, -), got \"" + path + "\"");
    }
    String prefix = opts.get("tablePrefix", "objectmeta_");
    if (!prefix.matches("[-_.a-zA-Z0-9]{0,40}")) {
      throw new InvalidArgumentException("tablePrefix", "must be up to 40 letters, digits, - _ or"
          + " .: \"" + prefix + "\"");
    }
    String emulator = StoreOptions.first(opts.get("emulatorHost"),
        System.getenv("BIGTABLE_EMULATOR_HOST"));
    if (emulator != null && !emulator.matches("[^:]+:\\d{1,5}")) {
      throw new InvalidArgumentException("emulatorHost", "must be HOST:PORT, got \"" + emulator
          + "\"");
    }
    // Off by default: a write follows the bucket state as of its own start (MetadataStore's
    // "Several stores on one database"); a cache trades that for one read less per operation.
    long cacheMs = "0".equals(opts.get("bucketCacheMs")) ? 0
        : opts.positiveLong("bucketCacheMs", 0);
    return new BigtableConfig(project, path, prefix, opts.get("appProfile"), emulator,
        opts.bool("createTables", true), opts.positiveInt("maxRetries", 100),
        Duration.ofMillis(cacheMs), Duration.ofMillis(opts.positiveLong("intentLeaseMs", 30_000)),
        Duration.ofMillis(opts.positiveLong("repairIntervalMs", 300_000)),
        opts.bool("repair", true), endpoint(opts.get("endpoint")), opts.get("credentialsFile"));
  }

  BigtableConfig withTablePrefix(String prefix) {
    return new BigtableConfig(project, instance, prefix, appProfile, emulatorHost, createTables,
        maxRetries, bucketCache, intentLease, repairInterval, repair, endpoint, credentialsFile);
  }

  private static String endpoint(String e) {
    if (e != null && !e.matches("[^:/]+:\\d{1,5}")) {
      throw new InvalidArgumentException("endpoint", "must be HOST:PORT, got \"" + e + "\"");
    }
    return e;
  }

  String table(String name) {
    return tablePrefix + name;
  }

  /** Where the store lives, for messages (no credentials). */
  String describe() {
    return "bigtable://" + project + "/" + instance + " tables " + tablePrefix + "*"
        + (emulatorHost == null ? "" : " (emulator " + emulatorHost + ")");
  }
}
