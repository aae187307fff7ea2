package io.objectmeta.bench;

import io.objectmeta.bigtable.Cells;

import static com.google.cloud.bigtable.data.v2.models.Filters.FILTERS;

import com.google.cloud.bigtable.admin.v2.BigtableTableAdminClient;
import com.google.cloud.bigtable.admin.v2.BigtableTableAdminSettings;
import com.google.cloud.bigtable.data.v2.BigtableDataClient;
import com.google.cloud.bigtable.data.v2.BigtableDataSettings;
import com.google.cloud.bigtable.data.v2.models.BulkMutation;
import com.google.cloud.bigtable.data.v2.models.Mutation;
import com.google.cloud.bigtable.data.v2.models.Query;
import com.google.cloud.bigtable.data.v2.models.Row;
import com.google.cloud.bigtable.data.v2.models.TableId;
import com.google.cloud.bigtable.emulator.core.EmulatorController;
import com.google.protobuf.ByteString;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.MetadataStores;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.bigtable.Bt;
import io.objectmeta.bigtable.Codec;
import io.objectmeta.bigtable.Rows;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Bigtable backend, opened by URI through {@link MetadataStores}
 * ({@code bigtable://PROJECT/INSTANCE?emulatorHost=HOST:PORT}) with tables of its own per store
 * ({@code tablePrefix}). The instance: {@code --bigtableUri}, else
 * {@code OBJECTMETA_BIGTABLE_URI}, else Google's emulator started by this JVM from the
 * emulator-core artifact (a Go binary in a child process: in memory, one process, so its
 * figures are ratios to quote, not times). The raw baseline is {@link BigtableBaseline} on a
 * data client of its own.
 *
 * <p>The stores run with {@code repairIntervalMs=3600000}: the background repair runs once when
 * the store opens and not again during the run (its scans of every bucket would land in
 * measured runs; a foreground write never needs it).
 */
public final class BigtableTarget implements BenchTarget {
  private static final AtomicInteger STORES = new AtomicInteger();

  private final URI uri;
  private final String project;
  private final String instance;
  private final String emulatorHost;
  private final EmulatorController emulator;
  private final BigtableRpcLog rpcLog;
  private final BigtableDataClient data;
  private final BigtableTableAdminClient admin;
  private final int gcBatch;
  private final Map<MetadataStore, String> prefixes = new IdentityHashMap<>();
  private final List<String> created = new ArrayList<>();

  private BigtableTarget(URI given, EmulatorController emulator, boolean logRpcs, int gcBatch) {
    this.emulator = emulator;
    this.gcBatch = gcBatch;
    this.project = given.getAuthority();
    this.instance = given.getPath().replaceFirst("^/", "");
    String host = null;
    List<String> query = new ArrayList<>();
    if (given.getRawQuery() != null) {
      for (String p : given.getRawQuery().split("&")) {
        if (p.startsWith("emulatorHost=")) {
          host = p.substring("emulatorHost=".length());
        } else {
          query.add(p);
        }
      }
    }
    if (host == null && System.getenv("BIGTABLE_EMULATOR_HOST") != null
        && !System.getenv("BIGTABLE_EMULATOR_HOST").isBlank()) {
      host = System.getenv("BIGTABLE_EMULATOR_HOST");
    }
    if (logRpcs) {
      if (host == null) {
        throw new IllegalArgumentException("--bigtableRpcLog needs an emulator (emulatorHost)");
      }
      try {
        rpcLog = new BigtableRpcLog(hostOf(host), portOf(host));
      } catch (java.io.IOException e) {
        throw new IllegalStateException("the RPC log proxy did not start: " + e, e);
      }
      host = "localhost:" + rpcLog.port();
    } else {
      rpcLog = null;
    }
    this.emulatorHost = host;
    if (host != null) {
      query.add("emulatorHost=" + host);
    }
    this.uri = URI.create("bigtable://" + project + "/" + instance
        + (query.isEmpty() ? "" : "?" + String.join("&", query)));
    try {
      this.data = BigtableDataClient.create(dataSettings());
      BigtableTableAdminSettings.Builder a = host == null ? BigtableTableAdminSettings.newBuilder()
          : BigtableTableAdminSettings.newBuilderForEmulator(hostOf(host), portOf(host));
      this.admin = BigtableTableAdminClient.create(a.setProjectId(project)
          .setInstanceId(instance).build());
    } catch (java.io.IOException e) {
      throw new IllegalStateException("bigtable: cannot connect to " + describe() + ": " + e, e);
    }
  }

  public static BigtableTarget create(BenchConfig c) {
    String given = c.bigtableUri().isBlank() ? System.getenv("OBJECTMETA_BIGTABLE_URI")
        : c.bigtableUri();
    if (given != null && !given.isBlank()) {
      return new BigtableTarget(URI.create(given), null, c.bigtableRpcLog(), c.gcBatch());
    }
    EmulatorController e;
    try {
      e = EmulatorController.createBundled();
      e.start();
    } catch (Exception x) {
      throw new IllegalStateException("the Bigtable emulator bundled in"
          + " google-cloud-bigtable-emulator-core did not start (set OBJECTMETA_BIGTABLE_URI or"
          + " --bigtableUri to use another): " + x, x);
    }
    try {
      return new BigtableTarget(URI.create("bigtable://bench-project/bench-instance?emulatorHost="
          + "localhost:" + e.getPort()), e, c.bigtableRpcLog(), c.gcBatch());
    } catch (RuntimeException x) {
      e.stop();
      throw x;
    }
  }

  private static String hostOf(String hp) {
    return hp.substring(0, hp.lastIndexOf(':'));
  }

  private static int portOf(String hp) {
    return Integer.parseInt(hp.substring(hp.lastIndexOf(':') + 1));
  }

  /** Settings of a data client like the backend's (each baseline gets a client of its own). */
  BigtableDataSettings dataSettings() {
    BigtableDataSettings.Builder b = emulatorHost == null ? BigtableDataSettings.newBuilder()
        : BigtableDataSettings.newBuilderForEmulator(hostOf(emulatorHost), portOf(emulatorHost));
    return b.setProjectId(project).setInstanceId(instance).build();
  }

  @Override
  public String name() {
    return "bigtable";
  }

  @Override
  public String describe() {
    if (emulator != null) {
      return (rpcLog == null ? "" : "RPCs logged through a proxy; ") + "Bigtable emulator (google-cloud-bigtable-emulator-core, in memory, one process) on"
          + " port " + emulator.getPort() + " started by the bench";
    }
    return "bigtable://" + project + "/" + instance
        + (emulatorHost == null ? "" : " (emulator at " + emulatorHost + ")");
  }

  @Override
  public MetadataStore openStore() {
    String prefix = "bench" + ProcessHandle.current().pid() + "_" + STORES.incrementAndGet() + "_";
    MetadataStore s = MetadataStores.open(uri.toString(), Map.of("tablePrefix", prefix,
        "repairIntervalMs", "3600000"));
    synchronized (this) {
      prefixes.put(s, prefix);
      created.add(prefix);
    }
    return s;
  }

  /** The table prefix of a store this target opened. */
  synchronized String prefix(MetadataStore store) {
    String p = prefixes.get(store);
    if (p == null) {
      throw new IllegalArgumentException("not a store of this target");
    }
    return p;
  }

  @Override
  public Baseline baseline(MetadataStore store) {
    try {
      return new BigtableBaseline(BigtableDataClient.create(dataSettings()), prefix(store),
          gcBatch);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The fewest RPCs that keep the same data ({@link BigtableMinimal}), on a client of its own. */
  @Override
  public Limit limit(MetadataStore store) {
    try {
      return new BigtableMinimal(BigtableDataClient.create(dataSettings()), prefix(store));
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The table prefixes of the stores opened so far, in order. */
  synchronized List<String> prefixes() {
    return List.copyOf(created);
  }

  /** The client the target fills and clears the GC queue with (tests read the tables with it). */
  BigtableDataClient data() {
    return data;
  }

  /**
   * Writes {@code n} released records like the ones an overwrite queues, an hour old, with a few
   * bulk mutations (the rows the backend's GC records are: version 1, the record's JSON).
   */
  @Override
  public void fillGarbage(MetadataStore store, String bucket, int n) {
    String bucketId = store.getBucket(bucket).id();
    TableId gc = TableId.of(prefix(store) + "gc");
    Instant start = Instant.now().minusSeconds(3600);
    String run = Long.toHexString(System.nanoTime());
    BulkMutation b = BulkMutation.create(gc);
    for (int i = 0; i < n; i++) {
      Instant at = start.plusNanos(i * 1000L);
      String id = Cells.gcId(at, "fill" + run, i);
      GarbageRecord r = new GarbageRecord(id, GarbageRecord.Kind.OBJECT_VERSION, bucket, bucketId,
          "gc/" + i, "null", 0, 1000, List.of(new DataLocation("blob", "data/gc/" + i, 0, 1000)),
          at);
      Mutation m = Mutation.create();
      Bt.set(m, Bt.META, Bt.VERSION, Codec.version(1));
      Bt.set(m, Bt.DATA, Cells.RECORD, Codec.bytes(Codec.garbage(r)));
      b.add(Cells.gcRow(id), m);
      if (b.getEntryCount() == 5000 || i == n - 1) {
        data.bulkMutateRows(b);
        b = BulkMutation.create(gc);
      }
    }
  }

  /** Removes every row of the store's GC table. */
  @Override
  public void clearGarbage(MetadataStore store) {
    admin.dropAllRows(prefix(store) + "gc");
  }

  /**
   * The rows in the row range the page's scan reads (from the start of the bucket's masters to
   * the master of the page's last key): a key whose latest version is a delete marker has no
   * master row, so this is the page, however many markers the bucket holds.
   */
  @Override
  public String listingScan(MetadataStore store, String bucket, String lastKey) {
    Rows rows = new Rows(store.getBucket(bucket).id());
    long n = 0;
    for (Row r : data.readRows(Query.create(TableId.of(prefix(store) + "objects"))
        .range(rows.mastersStart(), rows.master(lastKey).concat(ByteString.copyFrom(new byte[] {0})))
        .filter(FILTERS.chain().filter(FILTERS.limit().cellsPerRow(1))
            .filter(FILTERS.value().strip())))) {
      n++;
    }
    return n + " rows in the row range of the page's scan";
  }

  @Override
  public boolean resetStatementCounts() {
    if (rpcLog == null) {
      return false;
    }
    rpcLog.reset();
    return true;
  }

  @Override
  public String statementCounts(long ops) {
    return rpcLog == null ? null : rpcLog.counts(ops);
  }

  @Override
  public void close() {
    try {
      if (emulator == null) {
        for (String prefix : created) {
          for (String t : List.of("buckets", "objects", "gc")) {
            if (admin.exists(prefix + t)) {
              admin.deleteTable(prefix + t);
            }
          }
        }
      }
    } finally {
      data.close();
      admin.close();
      if (rpcLog != null) {
        rpcLog.close();
      }
      if (emulator != null) {
        emulator.stop();
      }
    }
  }
}
