package io.objectmeta.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.conversions.Bson;
import org.junit.jupiter.api.Test;

/**
 * The MongoDB target in a tiny configuration on the in-process server: a row per workload, a
 * baseline where the backend has one, and — from the server's command log — the baseline sending
 * the same commands per operation as the backend (same collections, filter and update shapes,
 * sorts, limits, statements per bulk write) and leaving the same documents behind. Speed is
 * never asserted.
 */
class MongoBenchTest {
  private static final EnumSet<Workload> WITH_BASELINE = EnumSet.of(Workload.PUT_UNVERSIONED,
      Workload.PUT_VERSIONED, Workload.GET_LATEST, Workload.GET_VERSION, Workload.DELETE_MARKER,
      Workload.DELETE_VERSION, Workload.GC_DRAIN);

  @Test
  void mongoBaselineSendsTheBackendsCommands() throws Exception {
    check("mongo");
  }

  @Test
  void mongoSharedV0BaselineSendsTheBackendsCommands() throws Exception {
    check("mongo-shared-v0");
  }

  private static void check(String target) throws Exception {
    BenchConfig c = BenchConfig.tiny(List.of(target));
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    List<Result> rows;
    Map<String, String> statements;
    try (BenchTarget t = Main.target(target, c);
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8)) {
      Bench bench = new Bench(c, out);
      rows = bench.run(t);
      statements = bench.statements();
    }
    assertThat(rows).extracting(Result::workload).containsExactlyInAnyOrderElementsOf(
        EnumSet.allOf(Workload.class));
    for (Workload w : WITH_BASELINE) {
      Result r = rows.stream().filter(x -> x.workload() == w).findFirst().orElseThrow();
      assertThat(r.baselineMedian()).as("baseline of %s", w).isPositive();
      assertThat(r.median()).as("backend of %s", w).isPositive();
      String backend = statements.get(target + " " + w);
      String raw = statements.get(target + " " + w + " baseline");
      assertThat(backend).as("commands of %s", w).isNotBlank();
      assertThat(withoutTimes(raw)).as("the baseline's commands of %s", w)
          .isEqualTo(withoutTimes(backend));
    }
    Result list = rows.stream().filter(x -> x.workload() == Workload.LIST_AFTER_MARKERS)
        .findFirst().orElseThrow();
    assertThat(list.note()).contains("documents in the _id range");
  }

  @Test
  void mongoBaselineLeavesTheBackendsDocuments() throws Exception {
    documents("mongo");
  }

  @Test
  void mongoSharedV0BaselineLeavesTheBackendsDocuments() throws Exception {
    documents("mongo-shared-v0");
  }

  /**
   * After the point workloads, each baseline bucket ("-r") holds what its backend twin ("-b")
   * holds: masters, versions (metadata included), locks (their sequence numbers start at random), usage
   * counters (values); and the GC queue the same records for
   * both. Revisions, tags, times and bucket ids are the only differences allowed.
   */
  private static void documents(String target) throws Exception {
    BenchConfig c = BenchConfig.tiny(List.of(target)).withWorkloads(List.of("point"));
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    try (MongoTarget t = (MongoTarget) Main.target(target, c);
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8)) {
      new Bench(c, out).run(t);
      MongoDatabase db = t.admin().getDatabase(t.databases().get(0));
      Map<String, String> ids = new HashMap<>();
      for (BsonDocument b : db.getCollection(MongoShapes.METASTORE, BsonDocument.class).find()) {
        ids.put(b.getString("_id").getValue(), b.getString("id").getValue());
      }
      boolean shared = target.contains("shared");
      for (String p : List.of("pu", "pv", "dm", "dv")) {
        List<String> backend = docs(db, shared, ids.get(p + "-b"));
        assertThat(backend).as("documents of %s-b", p).isNotEmpty();
        assertThat(docs(db, shared, ids.get(p + "-r"))).as("documents of %s-r", p)
            .isEqualTo(backend);
      }
      List<BsonDocument> queue = db.getCollection(MongoShapes.GC, BsonDocument.class).find()
          .into(new ArrayList<>());
      for (String p : List.of("pu", "dv")) {
        List<String> backend = garbage(queue, p + "-b");
        assertThat(backend).as("GC records of %s-b", p).isNotEmpty();
        assertThat(garbage(queue, p + "-r")).as("GC records of %s-r", p).isEqualTo(backend);
      }
    }
  }

  private static List<String> docs(MongoDatabase db, boolean shared, String bucketId) {
    MongoCollection<BsonDocument> coll = db.getCollection(shared ? MongoShapes.SHARED
        : "objects." + bucketId, BsonDocument.class);
    Bson range = shared ? Filters.and(Filters.gte("_id", bucketId),
        Filters.lt("_id", bucketId + "\uFFFF")) : new BsonDocument();
    List<String> out = new ArrayList<>();
    for (BsonDocument d : coll.find(range)) {
      out.add(normal(d, bucketId).toJson());
    }
    Collections.sort(out);
    return out;
  }

  private static List<String> garbage(List<BsonDocument> queue, String bucket) {
    List<String> out = new ArrayList<>();
    for (BsonDocument d : queue) {
      if (d.getString("b").getValue().equals(bucket)) {
        out.add(normal(d, d.getString("bi").getValue()).toJson());
      }
    }
    Collections.sort(out);
    return out;
  }

  private static BsonDocument normal(BsonDocument d, String bucketId) {
    BsonDocument n = new BsonDocument();
    BsonString any = new BsonString("?");
    for (Map.Entry<String, BsonValue> e : d.entrySet()) {
      String k = e.getKey();
      BsonValue v = e.getValue();
      switch (k) {
        case "_id" -> {
          String id = v.asString().getValue();
          if (!bucketId.isEmpty() && id.startsWith(bucketId)) {
            id = "<bucket>" + id.substring(bucketId.length());
          }
          int sep = id.indexOf("\0\0");
          if (sep >= 0 && sep + 2 < id.length()) {
            id = id.substring(0, sep + 2) + "<revision>";
          }
          n.put(k, new BsonString(id.replaceAll("^[0-9a-f]{1,32}\\.", "<tag>.")));
        }
        case "v", "p", "s", "phd", "at", "da", "bi", "hc", "hi", "h" -> n.put(k, any);
        case "a" -> n.put(k, any); // applied markers: each side removes its own as it goes
        case "b" -> n.put(k, new BsonString(v.asString().getValue().replaceAll("-[br]$", "")));
        case "vid" -> n.put(k, v.asString().getValue().equals("null") ? v : any);
        default -> n.put(k, v);
      }
    }
    return n;
  }

  /**
   * Calls per operation by command shape, without the server times, and without how many applied
   * markers an update removes in passing (each side removes the markers of its own earlier
   * writes, one or a few per update depending on what came before): the rest must match.
   */
  private static Map<String, Double> withoutTimes(String s) {
    if (s == null) {
      return null;
    }
    Map<String, Double> out = new java.util.TreeMap<>();
    for (String line : s.split("\n")) {
      java.util.regex.Matcher m = java.util.regex.Pattern
          .compile("^\\s*([0-9.]+) calls/op\\s+[0-9]+ calls\\s+(.*?)(\\s+[0-9.]+ ms/call)?$")
          .matcher(line);
      if (m.matches()) {
        String shape = m.group(2).replaceAll("[0-9.]+ ms/call\\s+", "").replaceAll("\\$unset\\{a\\.<tag>(,a\\.<tag>)*\\}", "");
        out.merge(shape, Double.parseDouble(m.group(1)), Double::sum);
      }
    }
    out.replaceAll((k, v) -> Math.round(v * 1000) / 1000.0);
    return out;
  }
}
