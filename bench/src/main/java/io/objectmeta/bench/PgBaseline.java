package io.objectmeta.bench;

import io.objectmeta.api.model.Json;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.version.VersionIdGenerator;
import io.objectmeta.postgres.NamedSql;
import io.objectmeta.postgres.PostgresSql;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntFunction;

/**
 * The PostgreSQL backend's raw-JDBC baseline: the very statements of {@link PostgresSql}, on one
 * plain pgjdbc connection, with every bind computed before the timed loop. A write is the
 * backend's two round trips (lock bucket and key, then read the bucket and the key's history;
 * the one-statement CTE write, then COMMIT), autocommit off; a get is one statement in autocommit. The flags of the
 * CTE write are the ones the backend picks for that change (see each case). The loop holds no
 * objectmeta code: set the arguments, execute, step through the rows, commit.
 */
final class PgBaseline implements Baseline {
  private static final int USAGE_SHARDS = 16;

  private final Connection conn;
  private final PostgresSql sql;
  private final String schema;
  private final int gcBatch;
  private final VersionIdGenerator ids = new VersionIdGenerator();
  private final Map<String, PreparedStatement> prepared = new HashMap<>();

  PgBaseline(Connection conn, String schema, int gcBatch) {
    this.conn = conn;
    this.schema = schema;
    this.sql = new PostgresSql(schema);
    this.gcBatch = gcBatch;
  }

  /** One statement execution: the prepared statement and its positional arguments. */
  private record Exec(PreparedStatement ps, Object[] args) {}

  @Override
  public String note(Workload w) {
    return w == Workload.GC_DRAIN ? "DELETE … RETURNING loop" : null;
  }

  // ----------------------------------------------------------------------------------- writes

  @Override
  public Phase writes(Workload w, String bucket, IntFunction<List<Op>> plan) {
    return new Phase() {
      List<Exec[]> txs;

      @Override
      public void prepare(int it) throws SQLException {
        UUID b = bucketId(bucket);
        txs = new ArrayList<>();
        for (Op o : plan.apply(it)) {
          txs.add(write(w, bucket, b, o));
        }
      }

      @Override
      public long run(int it) throws SQLException {
        conn.setAutoCommit(false);
        for (Exec[] tx : txs) {
          for (Exec e : tx) {
            execute(e);
          }
          conn.commit(); // nothing to send: the write carried the COMMIT
        }
        return txs.size();
      }
    };
  }

  /** The three statements of one write, bound. */
  private Exec[] write(Workload w, String bucket, UUID b, Op o) throws SQLException {
    byte[] k = o.key().getBytes(StandardCharsets.UTF_8);
    Map<String, Object> v = new HashMap<>();
    v.put("name", bucket);
    v.put("blk", PostgresSql.bucketLock(bucket, Math.floorMod(o.key().hashCode(), USAGE_SHARDS)));
    v.put("lock", PostgresSql.keyHash(bucket, o.key()));
    v.put("b", b);
    v.put("k", k);
    v.put("v", null); // lockAndReadHistory: the version the call names (none for these workloads)
    v.put("bn", bucket);
    v.put("shard", (short) Math.floorMod(o.key().hashCode(), USAGE_SHARDS));
    for (int i = 1; i <= 7; i++) {
      v.put("u" + i, 0L);
    }
    ObjectMetadata prev = o.previous();
    String writeSql;
    switch (w) {
      case PUT_UNVERSIONED -> {
        // unversioned overwrite: upsert the live row, queue the replaced null version,
        // usage delta (bytes changed)
        writeSql = sql.writeKey(false, false, false, Boolean.TRUE, true, true, true);
        live(v, ids.next().encode(), true, o.metadata());
        v.put("gv", text("null"));
        v.put("gsz", conn.createArrayOf("bigint", new Long[] {prev.size()}));
        v.put("gloc", text(Json.MAPPER.valueToTree(prev.dataLocations()).toString()));
        v.put("u2", o.metadata().size() - prev.size());
      }
      case PUT_VERSIONED -> {
        // a new version on top: insert it, upsert the live row, usage (old one goes non-current)
        writeSql = sql.writeKey(false, true, false, Boolean.TRUE, false, true, true);
        String vid = ids.next().encode();
        insert(v, vid, false, o.metadata());
        live(v, vid, false, o.metadata());
        v.put("u2", o.metadata().size() - prev.size());
        v.put("u3", 1L);
        v.put("u4", prev.size());
      }
      case DELETE_MARKER -> {
        // a marker on top of an object: insert it, delete the live row, usage
        writeSql = sql.writeKey(false, true, false, Boolean.FALSE, false, true, true);
        insert(v, ids.next().encode(), true, null);
        v.put("u1", -1L);
        v.put("u2", -prev.size());
        v.put("u3", 1L);
        v.put("u4", prev.size());
        v.put("u5", 1L);
      }
      case DELETE_VERSION -> {
        // the only version goes: delete it, delete the live row, queue it, usage
        writeSql = sql.writeKey(true, false, false, Boolean.FALSE, true, true, true);
        v.put("del", text(o.versionId()));
        v.put("gv", text(o.versionId()));
        v.put("gsz", conn.createArrayOf("bigint", new Long[] {prev.size()}));
        v.put("gloc", text(Json.MAPPER.valueToTree(prev.dataLocations()).toString()));
        v.put("u1", -1L);
        v.put("u2", -prev.size());
      }
      default -> throw new IllegalArgumentException(w.toString());
    }
    return new Exec[] {exec(sql.lockAndReadHistory(true), v), exec(writeSql, v)};
  }

  private void insert(Map<String, Object> v, String vid, boolean marker, ObjectMetadata m)
      throws SQLException {
    v.put("iv", text(vid));
    v.put("in", conn.createArrayOf("boolean", new Boolean[] {false}));
    v.put("idm", conn.createArrayOf("boolean", new Boolean[] {marker}));
    v.put("isz", conn.createArrayOf("bigint", new Long[] {m == null ? 0L : m.size()}));
    v.put("im", text(m == null ? null : json(m)));
  }

  private static void live(Map<String, Object> v, String vid, boolean isNull, ObjectMetadata m) {
    v.put("lv", vid);
    v.put("ln", isNull);
    v.put("lsz", m.size());
    v.put("lm", json(m));
  }

  // ------------------------------------------------------------------------------------- gets

  @Override
  public Phase gets(Workload w, String bucket, IntFunction<List<Op>> plan) {
    return new Phase() {
      List<Exec> gets;

      @Override
      public void prepare(int it) throws SQLException {
        gets = new ArrayList<>();
        for (Op o : plan.apply(it)) {
          Map<String, Object> v = new HashMap<>();
          v.put("name", bucket);
          v.put("k", o.key().getBytes(StandardCharsets.UTF_8));
          boolean isNull = "null".equals(o.versionId());
          if (w == Workload.GET_VERSION && !isNull) {
            v.put("v", o.versionId());
          }
          gets.add(exec(w == Workload.GET_LATEST ? sql.getLatest() : sql.getVersion(isNull), v));
        }
      }

      @Override
      public long run(int it) throws SQLException {
        conn.setAutoCommit(true);
        for (Exec e : gets) {
          execute(e);
        }
        return gets.size();
      }
    };
  }

  // --------------------------------------------------------------------------------- GC drain

  /**
   * DELETE … RETURNING batches of the oldest records, autocommit, until the queue is empty. Each
   * returned row's columns are read as plain JDBC values (a loop that frees data must read what
   * it deleted); no model objects are built and no JSON is parsed.
   */
  @Override
  public Phase gcDrain() {
    String q = "DELETE FROM " + schema + ".deleted_object WHERE (bucket_id, id) IN (SELECT"
        + " bucket_id, id FROM " + schema + ".deleted_object WHERE deleted_at <= now()"
        + " ORDER BY deleted_at, id LIMIT ? FOR UPDATE SKIP LOCKED) RETURNING *";
    return it -> {
      conn.setAutoCommit(true);
      PreparedStatement ps = statement(q);
      ps.setInt(1, gcBatch);
      long total = 0;
      while (true) {
        int n = 0;
        try (ResultSet rs = ps.executeQuery()) {
          int columns = rs.getMetaData().getColumnCount();
          while (rs.next()) {
            for (int i = 1; i <= columns; i++) {
              rs.getObject(i);
            }
            n++;
          }
        }
        total += n;
        if (n == 0) {
          return total;
        }
      }
    };
  }

  // ---------------------------------------------------------------------------------- helpers

  private Exec exec(String named, Map<String, Object> values) throws SQLException {
    NamedSql n = NamedSql.parse(named);
    return new Exec(statement(n.sql()), n.args(values));
  }

  private PreparedStatement statement(String positional) throws SQLException {
    PreparedStatement ps = prepared.get(positional);
    if (ps == null) {
      ps = conn.prepareStatement(positional);
      prepared.put(positional, ps);
    }
    return ps;
  }

  private static void execute(Exec e) throws SQLException {
    PreparedStatement ps = e.ps();
    Object[] a = e.args();
    for (int i = 0; i < a.length; i++) {
      if (a[i] == null) {
        ps.setNull(i + 1, Types.VARCHAR);
      } else {
        ps.setObject(i + 1, a[i]);
      }
    }
    // a statement of several parts (locks, then a read; a write, then COMMIT): every result
    ps.execute();
    do {
      try (ResultSet rs = ps.getResultSet()) {
        while (rs != null && rs.next()) {
          // rows are read off the wire; nothing is decoded
        }
      }
    } while (ps.getMoreResults() || ps.getUpdateCount() != -1);
  }

  private Array text(String s) throws SQLException {
    return conn.createArrayOf("varchar", new String[] {s});
  }

  private UUID bucketId(String bucket) throws SQLException {
    conn.setAutoCommit(true);
    try (PreparedStatement ps = conn.prepareStatement("SELECT id FROM " + schema
        + ".bucket WHERE name = ?")) {
      ps.setString(1, bucket);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return (UUID) rs.getObject(1);
      }
    }
  }

  private static String json(ObjectMetadata m) {
    try {
      return Json.MAPPER.writeValueAsString(m);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    try {
      conn.close();
    } catch (SQLException ignored) {
      // closing
    }
  }
}
