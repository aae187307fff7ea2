package io.objectmeta.bench;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.message.MongoMessage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * mongo-java-server (memory backend) in this JVM, for when no {@code MONGODB_URI} is given, with a
 * log of the commands it receives: while counting, each command is recorded by its normalized
 * shape (command, collection, the filter's and update's structure with every value replaced by
 * {@code ?}, sort, limit, statements per write command), with calls and server time — the
 * MongoDB counterpart of {@code pg_stat_statements}, so the report shows that the backend and the
 * baseline send the same commands per operation.
 *
 * <p>Not a MongoDB: its only index use is an {@code _id} equality or {@code $in}; any other
 * query (a range, an {@code $and}) scans the whole collection and sorts in memory. Its absolute
 * numbers, and listings over large collections, say little about MongoDB.
 */
final class InProcessMongo implements AutoCloseable {
  private static final Set<String> IGNORED = Set.of("hello", "ismaster", "isMaster", "ping",
      "buildinfo", "buildInfo", "endSessions", "getLastError", "saslStart", "saslContinue");

  private final MongoServer server;
  private final String uri;
  private volatile boolean counting;
  private final Map<String, LongAdder[]> log = new ConcurrentHashMap<>();

  InProcessMongo() {
    MemoryBackend backend = new MemoryBackend() {
      @Override
      public Document handleMessage(MongoMessage message) {
        Document query = message.getDocument();
        String command = query.isEmpty() ? "" : query.keySet().iterator().next();
        if (!counting || IGNORED.contains(command)) {
          return super.handleMessage(message);
        }
        long t0 = System.nanoTime();
        try {
          return super.handleMessage(message);
        } finally {
          LongAdder[] a = log.computeIfAbsent(shapeOf(command, query),
              k -> new LongAdder[] {new LongAdder(), new LongAdder()});
          a[0].increment();
          a[1].add(System.nanoTime() - t0);
        }
      }
    };
    server = new MongoServer(backend);
    String s = server.bindAndGetConnectionString();
    uri = s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
  }

  /** {@code mongodb://127.0.0.1:PORT}, no path. */
  String uri() {
    return uri;
  }

  static String version() {
    String v = MongoServer.class.getPackage().getImplementationVersion();
    return "mongo-java-server " + (v == null ? "1.47" : v);
  }

  void reset() {
    log.clear();
    counting = true;
  }

  /** The commands since the reset, most called first (at most 14), per operation. */
  String counts(long ops) {
    counting = false;
    List<Map.Entry<String, LongAdder[]>> rows = new ArrayList<>(log.entrySet());
    rows.sort(Comparator.comparingLong((Map.Entry<String, LongAdder[]> e) -> -e.getValue()[0].sum())
        .thenComparing(Map.Entry::getKey));
    StringBuilder b = new StringBuilder();
    for (Map.Entry<String, LongAdder[]> e : rows.subList(0, Math.min(14, rows.size()))) {
      long calls = e.getValue()[0].sum();
      b.append(String.format(Locale.ROOT, "%9.3f calls/op %7d calls %8.3f ms/call  %s%n",
          calls / (double) Math.max(1, ops), calls, e.getValue()[1].sum() / 1e6 / Math.max(1, calls),
          e.getKey()));
    }
    return b.toString();
  }

  // ----------------------------------------------------------------------------------- shapes

  static String shapeOf(String command, Document q) {
    Object c = q.get(command);
    String coll = c instanceof String s ? normalize(s) : "";
    StringBuilder b = new StringBuilder(command).append(' ').append(coll);
    switch (command) {
      case "find" -> {
        b.append(" filter=").append(shape(q.get("filter")));
        if (q.get("sort") != null) {
          b.append(" sort=").append(literal(q.get("sort")));
        }
        if (q.get("projection") != null) {
          b.append(" projection=").append(literal(q.get("projection")));
        }
        if (q.get("limit") != null) {
          b.append(" limit=").append(q.get("limit"));
        }
      }
      case "update" -> statements(b, q.get("updates"), d -> "q=" + shape(d.get("q")) + " u="
          + update(d.get("u")) + (Boolean.TRUE.equals(d.get("upsert")) ? " upsert" : "")
          + (Boolean.TRUE.equals(d.get("multi")) ? " multi" : ""));
      case "delete" -> statements(b, q.get("deletes"), d -> "q=" + shape(d.get("q"))
          + " limit=" + d.get("limit"));
      case "insert" -> statements(b, q.get("documents"), d -> "doc" + keys(d));
      case "count", "aggregate" -> b.append(' ').append(shape(q.get("query")));
      default -> { }
    }
    return b.toString();
  }

  private static void statements(StringBuilder b, Object list,
      java.util.function.Function<Document, String> f) {
    if (!(list instanceof List<?> l)) {
      b.append(" ?");
      return;
    }
    b.append(" ×").append(l.size()).append(':');
    String prev = null;
    int same = 0;
    for (Object o : l) {
      String s = o instanceof Document d ? f.apply(d) : "?";
      if (s.equals(prev)) {
        same++;
        continue;
      }
      if (same > 0) {
        b.append(" (×").append(same + 1).append(')');
      }
      b.append(prev == null ? " " : "; ").append(s);
      prev = s;
      same = 0;
    }
    if (same > 0) {
      b.append(" (×").append(same + 1).append(')');
    }
  }

  private static String update(Object u) {
    if (!(u instanceof Document d)) {
      return "?";
    }
    boolean ops = d.keySet().stream().anyMatch(k -> k.startsWith("$"));
    if (!ops) {
      return "replace" + keys(d);
    }
    StringBuilder b = new StringBuilder();
    for (Map.Entry<String, Object> e : d.entrySet()) {
      b.append(e.getKey()).append(e.getValue() instanceof Document x ? keys(x) : "?");
    }
    return b.toString();
  }

  private static String keys(Document d) {
    return "{" + String.join(",", d.keySet().stream().map(InProcessMongo::normalize).toList()) + "}";
  }

  /** The structure of a filter: operators and field names kept, values replaced by ?. */
  private static String shape(Object v) {
    if (v instanceof Document d) {
      StringBuilder b = new StringBuilder("{");
      for (Map.Entry<String, Object> e : d.entrySet()) {
        if (b.length() > 1) {
          b.append(", ");
        }
        b.append(normalize(e.getKey())).append(": ").append(shape(e.getValue()));
      }
      return b.append('}').toString();
    }
    if (v instanceof List<?> l) {
      if (l.stream().allMatch(x -> !(x instanceof Document) && !(x instanceof List))) {
        return "[?…]";
      }
      List<String> parts = new ArrayList<>();
      for (Object x : l) {
        parts.add(shape(x));
      }
      return "[" + String.join(", ", parts) + "]";
    }
    return v == null ? "null" : "?";
  }

  private static String literal(Object v) {
    return String.valueOf(v).replace("Document", "");
  }

  /** Bucket collections and intent tags vary by bucket and write: normalized away. */
  private static String normalize(String s) {
    return s.replaceAll("objects\\.[0-9a-f-]{36}", "objects.<bucket>")
        .replaceAll("^a\\.[0-9a-f]{1,32}$", "a.<tag>");
  }

  @Override
  public void close() {
    server.shutdownNow();
  }
}
