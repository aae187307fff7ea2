package io.objectmeta.bench;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.MetadataStores;
import io.objectmeta.api.model.DataLocation;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.bson.BsonDocument;

/**
 * The MongoDB backend, opened by URI through {@link MetadataStores} ({@code mongodb://…/DB?layout=…
 * &keyFormat=…}), a new database per store. The server: {@code --mongoUri}, else
 * {@code MONGODB_URI}, else mongo-java-server started in this JVM ({@link InProcessMongo}, whose
 * command log gives the per-operation command counts). Targets: {@code mongo} (collection per
 * bucket, key format v1), {@code mongo-shared} (one shared collection), and either with
 * {@code -v0} (key format v0: masters and versions interleaved). The raw baseline is
 * {@link MongoBaseline} on a client of its own.
 *
 * <p>The stores run with {@code repairIntervalMs=3600000}: the background repair drain runs
 * once when the store opens and not again during the run, so its scans (every bucket's id range)
 * do not land in measured runs; a foreground write never needs it.
 */
public final class MongoTarget implements BenchTarget {
  private static final AtomicInteger DATABASES = new AtomicInteger();

  private final String name;
  private final boolean shared;
  private final boolean v0;
  private final String scheme;
  private final String authority;
  private final String driverQuery;
  private final InProcessMongo inProcess;
  private final MongoClient admin;
  private final int gcBatch;
  private final Map<MetadataStore, String> databases = new IdentityHashMap<>();
  private final List<String> created = new ArrayList<>();
  private String version = "";

  private MongoTarget(String name, String serverUri, InProcessMongo inProcess, int gcBatch) {
    this.name = name;
    this.shared = name.contains("-shared");
    this.v0 = name.endsWith("-v0");
    URI u = URI.create(serverUri);
    this.scheme = u.getScheme();
    this.authority = u.getRawAuthority();
    this.driverQuery = u.getRawQuery();
    this.inProcess = inProcess;
    this.gcBatch = gcBatch;
    this.admin = client();
    if (inProcess != null) {
      version = InProcessMongo.version() + " (in-process, memory backend: only _id equality and"
          + " $in use an index, every other query scans the collection)";
    } else {
      BsonDocument info = admin.getDatabase("admin").runCommand(new BsonDocument("buildInfo",
          new org.bson.BsonInt32(1)), BsonDocument.class);
      version = "MongoDB " + info.getString("version").getValue() + " at "
          + (scheme + "://" + authority).replaceAll(":[^:@/]*@", ":***@");
    }
  }

  /** {@code mongo}, {@code mongo-shared}, {@code mongo-v0}, {@code mongo-shared-v0}. */
  public static boolean isName(String name) {
    return name.matches("mongo(db)?(-shared)?(-v0)?");
  }

  public static MongoTarget create(BenchConfig c, String name) {
    String uri = c.mongoUri().isBlank() ? System.getenv("MONGODB_URI") : c.mongoUri();
    String n = name.replace("mongodb", "mongo");
    if (uri != null && !uri.isBlank()) {
      return new MongoTarget(n, uri, null, c.gcBatch());
    }
    InProcessMongo server = new InProcessMongo();
    return new MongoTarget(n, server.uri(), server, c.gcBatch());
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String describe() {
    return version + "; layout " + (shared ? "shared" : "collection-per-bucket") + ", key format "
        + (v0 ? "v0" : "v1");
  }

  /** A client of the same server, with the backend's timeouts (each baseline has its own). */
  private MongoClient client() {
    String cs = scheme + "://" + authority + "/" + (driverQuery == null ? "" : "?" + driverQuery);
    MongoClientSettings.Builder b = MongoClientSettings.builder()
        .applyConnectionString(new ConnectionString(cs));
    if (!cs.contains("serverSelectionTimeoutMS")) {
      b.applyToClusterSettings(s -> s.serverSelectionTimeout(5, TimeUnit.SECONDS));
    }
    if (!cs.contains("connectTimeoutMS")) {
      b.applyToSocketSettings(s -> s.connectTimeout(5, TimeUnit.SECONDS));
    }
    return MongoClients.create(b.build());
  }

  @Override
  public MetadataStore openStore() {
    String db = "objectmeta_bench_" + ProcessHandle.current().pid() + "_"
        + DATABASES.incrementAndGet();
    String ours = "layout=" + (shared ? "shared" : "collection-per-bucket") + "&keyFormat="
        + (v0 ? "v0" : "v1") + "&repairIntervalMs=3600000";
    MetadataStore s = MetadataStores.open(scheme + "://" + authority + "/" + db + "?"
        + (driverQuery == null ? "" : driverQuery + "&") + ours);
    synchronized (this) {
      databases.put(s, db);
      created.add(db);
    }
    return s;
  }

  private synchronized String database(MetadataStore store) {
    String db = databases.get(store);
    if (db == null) {
      throw new IllegalArgumentException("not a store of this target");
    }
    return db;
  }

  @Override
  public Baseline baseline(MetadataStore store) {
    return new MongoBaseline(client(), database(store), shared, gcBatch);
  }

  private MongoCollection<BsonDocument> gc(MetadataStore store) {
    return admin.getDatabase(database(store)).getCollection(MongoShapes.GC, BsonDocument.class);
  }

  /** Inserts {@code n} records like the ones an overwrite queues, an hour old, in a few inserts. */
  @Override
  public void fillGarbage(MetadataStore store, String bucket, int n) {
    String bucketId = store.getBucket(bucket).id();
    Instant start = Instant.now().minusSeconds(3600);
    String run = Long.toHexString(System.nanoTime());
    MongoCollection<BsonDocument> gc = gc(store);
    List<BsonDocument> chunk = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      chunk.add(MongoShapes.garbage("fill" + run + "." + i, bucket, bucketId, "gc/" + i, "null",
          1000, List.of(new DataLocation("blob", "data/gc/" + i, 0, 1000)),
          start.plusNanos(i * 1000L)));
      if (chunk.size() == 5000 || i == n - 1) {
        gc.insertMany(chunk);
        chunk.clear();
      }
    }
  }

  @Override
  public void clearGarbage(MetadataStore store) {
    gc(store).deleteMany(new BsonDocument());
  }

  /**
   * The documents in the {@code _id} range the page's query walks (from the start of the
   * bucket's masters to the master of the page's last key): what a server with the {@code _id}
   * index examines for that page, whatever the in-process server does.
   */
  @Override
  public String listingScan(MetadataStore store, String bucket, String lastKey) {
    String bucketId = store.getBucket(bucket).id();
    MongoShapes.Ns ns = MongoShapes.Ns.of(bucket, bucketId, shared, !v0);
    String start = ns.prefix() + (v0 ? "" : "\u007fM");
    long n = admin.getDatabase(database(store)).getCollection(ns.collection(), BsonDocument.class)
        .countDocuments(Filters.and(Filters.gte("_id", start), Filters.lte("_id",
            ns.master(lastKey))));
    return n + " documents in the _id range of the page's query";
  }

  /** The client the target fills and clears the GC queue with (tests read the databases with it). */
  MongoClient admin() {
    return admin;
  }

  /** The databases of the stores opened so far, in order. */
  synchronized List<String> databases() {
    return List.copyOf(created);
  }

  @Override
  public boolean resetStatementCounts() {
    if (inProcess == null) {
      return false;
    }
    inProcess.reset();
    return true;
  }

  @Override
  public String statementCounts(long ops) {
    return inProcess == null ? null : inProcess.counts(ops);
  }

  @Override
  public void close() {
    try {
      if (inProcess == null) {
        for (String db : created) {
          admin.getDatabase(db).drop();
        }
      }
    } finally {
      admin.close();
      if (inProcess != null) {
        inProcess.close();
      }
    }
  }
}
