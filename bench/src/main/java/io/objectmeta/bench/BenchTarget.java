package io.objectmeta.bench;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.gc.GcRunner;
import io.objectmeta.api.model.ObjectMetadata;
import java.time.Duration;
import java.util.HashSet;

/**
 * A backend the harness can measure: a name and how to open a fresh, empty store. That is all a
 * backend must provide; a raw baseline and a fast way to fill the GC queue are optional.
 */
public interface BenchTarget extends AutoCloseable {

  /** Short name, as in the result table. */
  String name();

  /** A fresh, empty store (its own schema, keyspace or instance). The caller closes it. */
  MetadataStore openStore();

  /** One line about what runs underneath (database version), for the report. */
  default String describe() {
    return name();
  }

  /**
   * The raw baseline of this backend over the same database as {@code store}, or null when the
   * backend has none. The caller closes it.
   */
  default Baseline baseline(MetadataStore store) {
    return null;
  }

  /**
   * Queues {@code n} GC records (older than any grace period the drain uses) for {@code bucket},
   * an unversioned bucket. The default writes overwrites through the SPI (each queues one record).
   */
  default void fillGarbage(MetadataStore store, String bucket, int n) {
    ObjectMetadata m = ObjectMetadata.builder().size(1).etag("gc").build();
    for (int i = 0; i < Math.min(n, 100); i++) {
      store.putObject(bucket, "gc/" + i, m);
    }
    for (int i = 0; i < n; i++) {
      store.putObject(bucket, "gc/" + (i % 100), m);
    }
  }

  /** Empties the GC queue (untimed setup). The default drains it through the SPI. */
  default void clearGarbage(MetadataStore store) {
    GcRunner.builder(store, batch -> {
      HashSet<String> ids = new HashSet<>();
      batch.forEach(r -> ids.add(r.id()));
      return ids;
    }).batchSize(10_000).gracePeriod(Duration.ZERO).build().run();
  }

  /**
   * What a listing of {@code bucket} whose page ends at {@code lastKey} reads on a server that
   * walks an index (e.g. the documents in the id range the query scans), or null. Shown in the
   * notes of the listing rows, where it tells a key layout's cost apart from the server's.
   */
  default String listingScan(MetadataStore store, String bucket, String lastKey) {
    return null;
  }

  /**
   * Starts counting the statements the database receives (pg_stat_statements and the like);
   * false when the target cannot.
   */
  default boolean resetStatementCounts() {
    return false;
  }

  /** Statements received since the reset, with calls per operation, one per line (or null). */
  default String statementCounts(long ops) {
    return null;
  }

  /**
   * A fresh, empty store for the concurrency group, with a pool of {@code pool} connections
   * where the backend has one (0: the backend's default). The default ignores the size.
   */
  default MetadataStore openConcurrentStore(int pool) {
    return openStore();
  }

  /**
   * The least the database must do for each concurrency workload ("the limit"), over the same
   * database as {@code store}, or null when the target has none. The caller closes it.
   */
  default Limit limit(MetadataStore store) {
    return null;
  }

  /** Statements the database received since {@link #resetStatementCounts} per operation, or NaN. */
  default double statementsPerOp(long ops) {
    return Double.NaN;
  }

  /**
   * Round trips to the database while {@code work} runs on this thread (untimed: counting may
   * slow the client), or -1 when the target cannot count them.
   */
  default long roundTrips(Runnable work) {
    return -1;
  }

  /**
   * CPU time the database server's processes have used so far, in nanoseconds, where the target
   * can read it (a server on this machine), else -1.
   */
  default long serverCpuNanos() {
    return -1;
  }

  /** The limit of the concurrency workloads: the same rows with the fewest statements. */
  interface Limit extends AutoCloseable {
    /**
     * Untimed, once, after the fixture of this side is loaded through the SPI: rows of the
     * limit's own the gets and the listing read, where it keeps them apart from the store's.
     */
    default void prepare(Concurrency.Fixture f) {}

    /** Operation {@code i} of client thread {@code thread} on the fixture's buckets. */
    void op(Concurrency.Kind k, Concurrency.Fixture f, int thread, long i,
        java.util.concurrent.ThreadLocalRandom random) throws Exception;

    /** The database's own load generator running the same SQL, ops/s; empty where it cannot. */
    default java.util.OptionalDouble pgbench(Concurrency.Kind k, Concurrency.Fixture f,
        int threads, double seconds) {
      return java.util.OptionalDouble.empty();
    }

    @Override
    void close();
  }

  @Override
  default void close() {}
}
