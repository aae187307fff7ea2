package io.objectmeta.bench;

import io.objectmeta.bigtable.Cells;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.bigtable.data.v2.BigtableDataClient;
import com.google.cloud.bigtable.data.v2.models.Query;
import com.google.cloud.bigtable.data.v2.models.Row;
import com.google.cloud.bigtable.data.v2.models.RowCell;
import com.google.cloud.bigtable.data.v2.models.TableId;
import com.google.protobuf.ByteString;
import io.objectmeta.bigtable.Bt;
import io.objectmeta.bigtable.Codec;
import io.objectmeta.bigtable.Rows;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Bigtable target in a tiny configuration on the emulator: a row per workload, a baseline
 * where the backend has one, and the baseline leaving in its twin buckets exactly the rows and
 * cells the backend leaves in its own (key rows with every version column, masters, usage
 * counters, GC records with their holds released), which is what the same RPCs in the same order
 * produce. Speed is never asserted.
 */
class BigtableBenchTest {
  private static final EnumSet<Workload> WITH_BASELINE = EnumSet.of(Workload.PUT_UNVERSIONED,
      Workload.PUT_VERSIONED, Workload.GET_LATEST, Workload.GET_VERSION, Workload.DELETE_MARKER,
      Workload.DELETE_VERSION, Workload.GC_DRAIN, Workload.PUT_CONTENDED,
      Workload.LIST_AFTER_MARKERS, Workload.LIST_MARKERS_SAME_SIZE);

  @Test
  void bigtableProducesARowPerWorkloadWithBaselines() throws Exception {
    BenchConfig c = BenchConfig.tiny(List.of("bigtable"));
    List<Result> rows;
    try (BenchTarget t = Main.target("bigtable", c);
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8)) {
      rows = new Bench(c, out).run(t);
    }
    assertThat(rows).extracting(Result::workload).containsExactlyInAnyOrderElementsOf(
        EnumSet.allOf(Workload.class));
    for (Workload w : WITH_BASELINE) {
      Result r = rows.stream().filter(x -> x.workload() == w).findFirst().orElseThrow();
      assertThat(r.baselineMedian()).as("baseline of %s", w).isPositive();
      assertThat(r.median()).as("backend of %s", w).isPositive();
    }
    Result list = rows.stream().filter(x -> x.workload() == Workload.LIST_AFTER_MARKERS)
        .findFirst().orElseThrow();
    // a delete-marked key has no master row: the scan reads the page, not the markers
    assertThat(list.note()).contains(c.visible() + " rows in the row range of the page's scan");
    Result same = rows.stream().filter(x -> x.workload() == Workload.LIST_MARKERS_SAME_SIZE)
        .findFirst().orElseThrow();
    assertThat(same.note()).contains((c.markers() + c.visible()) + " live keys, "
        + Math.min(1000, c.markers() + c.visible()) + " per page");
    Result gc = rows.stream().filter(x -> x.workload() == Workload.GC_DRAIN).findFirst()
        .orElseThrow();
    assertThat(gc.note()).contains("last run freed " + c.gcRecords());
  }

  /**
   * Through the RPC log proxy: per operation, the baseline sends the backend's RPCs (method,
   * table, kind of row, filter or condition, mutations) as often as the backend does, for every
   * point workload and the GC drain. Reads of the bucket row are left out: the backend serves it
   * from its cache and refreshes it about once a second, which the baseline does not do.
   */
  @Test
  void bigtableConcurrencyMeasuresItsMinimalDesignCellByCell() throws Exception {
    BenchConfig c = BenchConfig.tiny(List.of("bigtable")).withWorkloads(List.of("concurrency"));
    try (BenchTarget t = Main.target("bigtable", c);
        java.io.PrintStream out = new java.io.PrintStream(new java.io.ByteArrayOutputStream())) {
      Bench bench = new Bench(c, out);
      bench.run(t);
      List<Concurrency.Cell> cells = bench.cells();
      assertThat(cells).hasSize(Concurrency.Kind.values().length * 2);
      assertThat(cells).allSatisfy(x -> {
        assertThat(x.errors()).as("%s at %d threads", x.kind(), x.threads()).isZero();
        assertThat(x.opsPerSec()).isPositive();
        assertThat(x.minimal()).as("minimal design of %s", x.kind()).isPositive();
      });
    }
  }

  @Test
  void bigtableBaselineSendsTheBackendsRpcs() throws Exception {
    BenchConfig c = BenchConfig.tiny(List.of("bigtable")).withWorkloads(List.of("point", "gc"))
        .withBigtableRpcLog(true);
    Map<String, String> statements;
    try (BenchTarget t = Main.target("bigtable", c);
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8)) {
      Bench bench = new Bench(c, out);
      bench.run(t);
      statements = bench.statements();
    }
    for (Workload w : EnumSet.of(Workload.PUT_UNVERSIONED, Workload.PUT_VERSIONED,
        Workload.GET_LATEST, Workload.GET_VERSION, Workload.DELETE_MARKER,
        Workload.DELETE_VERSION, Workload.GC_DRAIN)) {
      Map<String, Double> backend = perOp(statements.get("bigtable " + w));
      assertThat(backend).as("RPCs of %s", w).isNotEmpty();
      assertThat(perOp(statements.get("bigtable " + w + " baseline")))
          .as("the baseline's RPCs of %s", w).isEqualTo(backend);
    }
    assertThat(perOp(statements.get("bigtable " + Workload.PUT_UNVERSIONED))).containsOnlyKeys(
        "ReadRows objects 1 keys (k-row) limit 1 filter cells/column 1",
        "CheckAndMutateRow objects k-row if chain(family m, column v, cells/column 1, value = ?)"
            + " then [set d:<id>@0, delete d:<id>, set m:n@0, set m:v@0, set m:i@0]",
        "ReadModifyWriteRow objects c-row [increment c:~del, increment c:cb, append a:<id>]",
        "MutateRows gc 1 rows (record-row [set m:v@0, set d:r@0, set m:h@0, set m:hk@0])",
        "CheckAndMutateRow objects m-row if chain(family m, column v, cells/column 1,"
            + " value in range ?) else [set m:v@0, set d:o@0]",
        "CheckAndMutateRow objects k-row if chain(family m, column v, cells/column 1, value = ?)"
            + " then [set m:i@0, set m:v@0]",
        "MutateRows gc 1 rows (record-row [set m:h@0, set m:hk@0])",
        "MutateRow objects c-row [delete a:<id>]");
  }

  /** Calls per operation by RPC shape, without the bucket row's reads. */
  private static Map<String, Double> perOp(String counts) {
    Map<String, Double> out = new java.util.TreeMap<>();
    if (counts == null) {
      return out;
    }
    for (String line : counts.split("\n")) {
      java.util.regex.Matcher m = java.util.regex.Pattern
          .compile("^\\s*([0-9.]+) calls/op\\s+[0-9]+ calls\\s+(.*)$").matcher(line);
      if (m.matches() && !m.group(2).contains(" buckets ")) {
        out.merge(m.group(2), Double.parseDouble(m.group(1)), Double::sum);
      }
    }
    return out;
  }

  /**
   * After the point workloads, each baseline bucket ("-r") holds what its backend twin ("-b")
   * holds, cell by cell (family, column, timestamp, value): key rows, masters, usage counter
   * shards; and the GC queue the same records for both, released. Revisions, tags, row
   * versions, times and bucket ids are the only differences allowed.
   */
  @Test
  void bigtableBaselineLeavesTheBackendsRows() throws Exception {
    BenchConfig c = BenchConfig.tiny(List.of("bigtable")).withWorkloads(List.of("point"));
    try (BigtableTarget t = (BigtableTarget) Main.target("bigtable", c);
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8)) {
      new Bench(c, out).run(t);
      String prefix = t.prefixes().get(0);
      BigtableDataClient data = t.data();
      Map<String, String> ids = new HashMap<>();
      for (Row b : data.readRows(Query.create(TableId.of(prefix + "buckets")).filter(Bt.LATEST))) {
        ByteString json = Bt.cell(b, Bt.META, Cells.BUCKET);
        if (json != null) {
          ids.put(b.getKey().toStringUtf8().substring(Cells.BUCKET_ROWS.length()),
              Codec.json(json).get("id").asText());
        }
      }
      List<Row> gcRows = new ArrayList<>();
      data.readRows(Query.create(TableId.of(prefix + "gc")).filter(Bt.LATEST))
          .forEach(gcRows::add);
      for (String p : List.of("pu", "pv", "dm", "dv")) {
        List<String> backend = rows(data, prefix, ids.get(p + "-b"));
        assertThat(backend).as("rows of %s-b", p).isNotEmpty();
        assertThat(backend).as("rows of %s-b", p).anyMatch(r -> r.startsWith("<bucket>c"));
        assertThat(String.join("\n", rows(data, prefix, ids.get(p + "-r"))))
            .as("rows of %s-r", p).isEqualTo(String.join("\n", backend));
      }
      for (String p : List.of("pu", "dv")) {
        List<String> backend = garbage(gcRows, p + "-b");
        assertThat(backend).as("GC records of %s-b", p).isNotEmpty();
        assertThat(String.join("\n", garbage(gcRows, p + "-r"))).as("GC records of %s-r", p)
            .isEqualTo(String.join("\n", backend));
      }
    }
  }

  /** The bucket's rows in the objects table, normalized, sorted. */
  private static List<String> rows(BigtableDataClient data, String prefix, String bucketId) {
    Rows rows = new Rows(bucketId);
    int strip = rows.start().size();
    List<String> out = new ArrayList<>();
    for (Row r : data.readRows(Query.create(TableId.of(prefix + "objects"))
        .range(rows.start(), rows.end()).filter(Bt.LATEST))) {
      String key = "<bucket>" + r.getKey().substring(strip).toStringUtf8();
      boolean keyRow = key.startsWith("<bucket>k");
      StringBuilder b = new StringBuilder(key);
      for (RowCell cell : r.getCells()) {
        String family = cell.getFamily();
        String column = cell.getQualifier().toStringUtf8();
        String value;
        if (family.equals(Bt.APPLIED) && !column.equals("~del")) {
          continue; // applied markers: each side drops its own, in the background
        } else if (family.equals(Bt.COUNT)
            || (family.equals(Bt.APPLIED) && column.equals("~del"))) {
          value = Long.toString(Codec.version(cell.getValue()));
        } else if (family.equals(Bt.META) && column.equals("n")) {
          value = Long.toString(Codec.version(cell.getValue())); // the count of version columns
        } else if (family.equals(Bt.META)) {
          value = "?"; // the row version starts at random; an intent left behind still shows
        } else if (keyRow) {
          column = "<revision>";
          value = cell.getValue().toStringUtf8();
        } else {
          ObjectNode master = Codec.json(cell.getValue());
          master.put("r", "<revision>");
          value = master.toString();
        }
        // cells the backend writes are at timestamp 0; a read-modify-write stamps the server's
        b.append("\n  ").append(family).append(':').append(column).append('@')
            .append(cell.getTimestamp() == 0 ? "0" : "server").append(' ').append(value);
      }
      out.add(b.toString());
    }
    Collections.sort(out);
    return out;
  }

  /** The GC records of a bucket, normalized, sorted (ids, times and bucket ids aside). */
  private static List<String> garbage(List<Row> gcRows, String bucket) {
    List<String> out = new ArrayList<>();
    for (Row r : gcRows) {
      ObjectNode record = Codec.json(Bt.cell(r, Bt.DATA, Cells.RECORD));
      if (!record.get("b").asText().equals(bucket)) {
        continue;
      }
      record.put("id", "?");
      record.put("at", "?");
      record.put("bi", "?");
      record.put("b", bucket.replaceAll("-[br]$", ""));
      if (!record.get("v").asText().equals("null")) {
        record.put("v", "?");
      }
      StringBuilder b = new StringBuilder(record.toString());
      for (RowCell cell : r.getCells(Bt.META)) {
        String column = cell.getQualifier().toStringUtf8();
        b.append(' ').append(column).append('@')
            .append(cell.getTimestamp() == 0 ? "0" : "server").append('=')
            .append(column.equals("v") ? Long.toString(Codec.version(cell.getValue())) : "?");
      }
      out.add(b.toString());
    }
    Collections.sort(out);
    return out;
  }
}
