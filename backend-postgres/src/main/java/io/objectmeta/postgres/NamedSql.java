package io.objectmeta.postgres;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Named SQL ({@code :name}) in JDBC's positional form, parsed once per statement text and cached:
 * each {@code :name} becomes a {@code ?} in order (Jdbi's rewriting, without Jdbi's per-statement
 * cost), so every statement of {@link PostgresSql} runs on plain JDBC by name, and the
 * benchmark's raw baseline can send it too.
 */
public record NamedSql(String sql, List<String> names, Map<String, int[]> positions) {
  private static final Map<String, NamedSql> CACHE = new ConcurrentHashMap<>();

  /** The parsed form of {@code named}, cached. */
  public static NamedSql of(String named) {
    // get first: computeIfAbsent locks the key's bin when the key is not its first entry
    NamedSql cached = CACHE.get(named);
    return cached != null ? cached : CACHE.computeIfAbsent(named, NamedSql::parse);
  }

  public static NamedSql parse(String named) {
    StringBuilder out = new StringBuilder(named.length());
    List<String> names = new ArrayList<>();
    int i = 0;
    while (i < named.length()) {
      char ch = named.charAt(i);
      if (ch == '\'') { // string literal: copied as is
        int end = named.indexOf('\'', i + 1);
        end = end < 0 ? named.length() - 1 : end;
        out.append(named, i, end + 1);
        i = end + 1;
      } else if (ch == ':' && i + 1 < named.length() && named.charAt(i + 1) == ':') {
        out.append("::");
        i += 2;
      } else if (ch == ':' && i + 1 < named.length()
          && Character.isJavaIdentifierStart(named.charAt(i + 1))) {
        int j = i + 1;
        while (j < named.length() && Character.isJavaIdentifierPart(named.charAt(j))) {
          j++;
        }
        names.add(named.substring(i + 1, j));
        out.append('?');
        i = j;
      } else {
        out.append(ch);
        i++;
      }
    }
    Map<String, List<Integer>> pos = new HashMap<>();
    for (int n = 0; n < names.size(); n++) {
      pos.computeIfAbsent(names.get(n), x -> new ArrayList<>()).add(n + 1);
    }
    Map<String, int[]> positions = new HashMap<>();
    pos.forEach((k, v) -> positions.put(k, v.stream().mapToInt(Integer::intValue).toArray()));
    return new NamedSql(out.toString(), List.copyOf(names), Map.copyOf(positions));
  }

  /** The positional arguments for one execution, from values by name. */
  public Object[] args(Map<String, Object> values) {
    Object[] a = new Object[names.size()];
    for (int i = 0; i < a.length; i++) {
      if (!values.containsKey(names.get(i))) {
        throw new IllegalArgumentException("no value for :" + names.get(i) + " in " + sql);
      }
      a[i] = values.get(names.get(i));
    }
    return a;
  }

  /** A prepared statement of this SQL on {@code c}, to bind by name. */
  public Bound prepare(Connection c) throws SQLException {
    return new Bound(c, c.prepareStatement(sql));
  }

  /** Maps the current row of a result. */
  @FunctionalInterface
  public interface RowMapper<T> {
    T map(java.sql.ResultSet rs) throws SQLException;
  }

  /** A prepared statement bound by name; arrays of String, Boolean, Long (boxed or not) and UUID become SQL arrays. */
  public final class Bound implements AutoCloseable {
    private final Connection connection;
    private final PreparedStatement ps;

    private Bound(Connection connection, PreparedStatement ps) {
      this.connection = connection;
      this.ps = ps;
    }

    public Bound set(String name, Object value) throws SQLException {
      int[] at = positions.get(name);
      if (at == null) {
        throw new IllegalArgumentException("no :" + name + " in " + sql);
      }
      Object v = value;
      if (value instanceof String[] s) {
        v = connection.createArrayOf("text", s);
      } else if (value instanceof Boolean[] b) {
        v = connection.createArrayOf("boolean", b);
      } else if (value instanceof Long[] l) {
        v = connection.createArrayOf("bigint", l);
      } else if (value instanceof long[] l) {
        // pgjdbc's own createArrayOf takes primitive arrays (no boxing)
        v = connection.unwrap(org.postgresql.PGConnection.class).createArrayOf("bigint", l);
      } else if (value instanceof java.util.UUID[] u) {
        v = connection.createArrayOf("uuid", u);
      }
      for (int i : at) {
        if (v == null) {
          ps.setNull(i, Types.VARCHAR);
        } else if (v instanceof Array arr) {
          ps.setArray(i, arr);
        } else {
          ps.setObject(i, v);
        }
      }
      return this;
    }

    public PreparedStatement statement() {
      return ps;
    }

    /** Adds the values bound so far as one row of a batch (bind the next row after). */
    public Bound add() throws SQLException {
      ps.addBatch();
      return this;
    }

    /** Sends the batch in one round trip (the pool rewrites batched inserts into one). */
    public void runBatch() throws SQLException {
      ps.executeBatch();
    }

    /** Runs a statement that changes rows; returns how many. */
    public int update() throws SQLException {
      return ps.executeUpdate();
    }

    /**
     * Runs the statement; the rows of its last statement (a statement of several, such as a lock
     * and then a read, is sent in one round trip: each part runs in a snapshot of its own).
     */
    public java.sql.ResultSet query() throws SQLException {
      if (!ps.execute()) {
        throw new SQLException("no rows from " + sql);
      }
      java.sql.ResultSet last = ps.getResultSet();
      while (ps.getMoreResults(java.sql.Statement.KEEP_CURRENT_RESULT) || ps.getUpdateCount() != -1) {
        if (ps.getResultSet() != null) {
          last = ps.getResultSet();
        }
      }
      return last;
    }

    /** Runs a query, each row mapped. */
    public <T> java.util.List<T> list(RowMapper<T> mapper) throws SQLException {
      java.util.List<T> out = new java.util.ArrayList<>();
      try (java.sql.ResultSet rs = query()) {
        while (rs.next()) {
          out.add(mapper.map(rs));
        }
      }
      return out;
    }

    /** Runs a query; its first row mapped, if any. */
    public <T> java.util.Optional<T> first(RowMapper<T> mapper) throws SQLException {
      try (java.sql.ResultSet rs = query()) {
        return rs.next() ? java.util.Optional.of(mapper.map(rs)) : java.util.Optional.empty();
      }
    }

    @Override
    public void close() throws SQLException {
      ps.close();
    }
  }
}
