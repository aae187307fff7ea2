package io.objectmeta.bench;

import com.google.bigtable.v2.CheckAndMutateRowRequest;
import com.google.bigtable.v2.MutateRowRequest;
import com.google.bigtable.v2.MutateRowsRequest;
import com.google.bigtable.v2.Mutation;
import com.google.bigtable.v2.ReadModifyWriteRowRequest;
import com.google.bigtable.v2.ReadModifyWriteRule;
import com.google.bigtable.v2.ReadRowsRequest;
import com.google.bigtable.v2.RowFilter;
import com.google.protobuf.ByteString;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Grpc;
import io.grpc.HandlerRegistry;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerMethodDefinition;
import io.grpc.Status;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

/**
 * A gRPC proxy in front of the Bigtable emulator that logs every data RPC by shape (method,
 * table, kind of row, filter, mutations; values, keys, revisions and tags left out): the
 * counterpart of {@code pg_stat_statements} and of the in-process MongoDB server's command log,
 * so the report can say which RPCs each workload sent per operation on each side. Off by
 * default ({@code --bigtableRpcLog=true}): the extra hop costs both sides alike, which pulls
 * their ratio towards 1.
 */
final class BigtableRpcLog implements AutoCloseable {
  private static final MethodDescriptor.Marshaller<byte[]> BYTES =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
          return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
          try {
            return stream.readAllBytes();
          } catch (IOException e) {
            throw Status.INTERNAL.withCause(e).asRuntimeException();
          }
        }
      };

  private final ManagedChannel upstream;
  private final Server server;
  private final Map<String, LongAdder> calls = new ConcurrentHashMap<>();
  private final AtomicLong total = new AtomicLong();

  BigtableRpcLog(String host, int port) throws IOException {
    upstream = Grpc.newChannelBuilderForAddress(host, port, InsecureChannelCredentials.create())
        .maxInboundMessageSize(256 << 20).build();
    server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
        .maxInboundMessageSize(256 << 20)
        .fallbackHandlerRegistry(new HandlerRegistry() {
          @Override
          public ServerMethodDefinition<?, ?> lookupMethod(String method, String authority) {
            MethodDescriptor<byte[], byte[]> md = MethodDescriptor.<byte[], byte[]>newBuilder()
                .setType(MethodDescriptor.MethodType.UNKNOWN).setFullMethodName(method)
                .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();
            return ServerMethodDefinition.create(md, (call, headers) -> forward(md, call));
          }
        }).build().start();
  }

  /** The port clients connect to instead of the emulator's. */
  int port() {
    return server.getPort();
  }

  private ServerCall.Listener<byte[]> forward(MethodDescriptor<byte[], byte[]> md,
      ServerCall<byte[], byte[]> call) {
    ClientCall<byte[], byte[]> up = upstream.newCall(md, CallOptions.DEFAULT);
    // calls are not thread-safe and each side's events come on its own thread: every use of
    // a call holds its lock
    synchronized (up) {
      up.start(new ClientCall.Listener<>() {
        boolean headers;

        @Override
        public void onMessage(byte[] message) {
          synchronized (call) {
            if (!headers) {
              call.sendHeaders(new Metadata());
              headers = true;
            }
            call.sendMessage(message);
          }
          synchronized (up) {
            up.request(1);
          }
        }

        @Override
        public void onClose(Status status, Metadata trailers) {
          synchronized (call) {
            call.close(status, new Metadata());
          }
        }
      }, new Metadata());
    }
    synchronized (call) {
      call.request(1);
    }
    return new ServerCall.Listener<>() {
      @Override
      public void onMessage(byte[] message) {
        log(md.getBareMethodName(), message);
        synchronized (up) {
          up.sendMessage(message);
        }
      }

      @Override
      public void onHalfClose() {
        synchronized (up) {
          up.halfClose();
          up.request(1);
        }
      }

      @Override
      public void onCancel() {
        synchronized (up) {
          up.cancel("the client cancelled", null);
        }
      }
    };
  }

  private void log(String method, byte[] message) {
    String shape;
    try {
      shape = shape(method, message);
    } catch (IOException | RuntimeException e) {
      shape = method + " (unparsed)";
    }
    if (shape != null) {
      calls.computeIfAbsent(shape, k -> new LongAdder()).increment();
      total.incrementAndGet();
    }
  }

  /**
   * Forgets what was logged, once the RPCs still arriving have arrived (the asynchronous last
   * RPC of the writes before, which would otherwise count in the next run).
   */
  void reset() {
    quiet();
    calls.clear();
  }

  /**
   * The RPCs since the reset with calls per operation, most called first, one per line, once the
   * RPCs still arriving have arrived (a write's last RPC is asynchronous).
   */
  String counts(long ops) {
    quiet();
    Map<String, Long> snapshot = new TreeMap<>();
    calls.forEach((k, v) -> snapshot.put(k, v.sum()));
    return snapshot.entrySet().stream()
        .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
        .map(e -> String.format(Locale.ROOT, "%8.3f calls/op %8d calls  %s%n",
            e.getValue() / (double) Math.max(1, ops), e.getValue(), e.getKey()))
        .collect(Collectors.joining());
  }

  /** Waits until no RPC has arrived for 100 ms (at most 2 s). */
  private void quiet() {
    long seen = -1;
    for (int i = 0; i < 20 && seen != total.get(); i++) {
      seen = total.get();
      try {
        TimeUnit.MILLISECONDS.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  // ------------------------------------------------------------------------------------ shapes

  /** A data RPC's shape, or null for the others (admin, channel priming). */
  static String shape(String method, byte[] m) throws IOException {
    return switch (method) {
      case "ReadRows" -> {
        ReadRowsRequest r = ReadRowsRequest.parseFrom(m);
        yield "ReadRows " + table(r.getTableName()) + " "
            + (r.getRows().getRowKeysCount() > 0
                ? r.getRows().getRowKeysCount() + " keys (" + kind(r.getTableName(),
                    r.getRows().getRowKeys(0)) + ")" : "")
            + (r.getRows().getRowRangesCount() > 0 ? r.getRows().getRowRangesCount() + " ranges ("
                + kind(r.getTableName(), r.getRows().getRowRanges(0).getStartKeyClosed().isEmpty()
                    ? r.getRows().getRowRanges(0).getStartKeyOpen()
                    : r.getRows().getRowRanges(0).getStartKeyClosed()) + ")" : "")
            + (r.getRowsLimit() > 0 ? " limit " + r.getRowsLimit() : "")
            + (r.hasFilter() ? " filter " + filter(r.getFilter()) : "");
      }
      case "MutateRow" -> {
        MutateRowRequest r = MutateRowRequest.parseFrom(m);
        yield "MutateRow " + table(r.getTableName()) + " " + kind(r.getTableName(), r.getRowKey())
            + " " + mutations(r.getMutationsList());
      }
      case "MutateRows" -> {
        MutateRowsRequest r = MutateRowsRequest.parseFrom(m);
        yield "MutateRows " + table(r.getTableName()) + " " + r.getEntriesCount() + " rows ("
            + (r.getEntriesCount() == 0 ? "" : kind(r.getTableName(), r.getEntries(0).getRowKey())
                + " " + mutations(r.getEntries(0).getMutationsList())) + ")";
      }
      case "CheckAndMutateRow" -> {
        CheckAndMutateRowRequest r = CheckAndMutateRowRequest.parseFrom(m);
        yield "CheckAndMutateRow " + table(r.getTableName()) + " "
            + kind(r.getTableName(), r.getRowKey()) + " if " + filter(r.getPredicateFilter())
            + (r.getTrueMutationsCount() > 0 ? " then " + mutations(r.getTrueMutationsList()) : "")
            + (r.getFalseMutationsCount() > 0 ? " else " + mutations(r.getFalseMutationsList())
                : "");
      }
      case "ReadModifyWriteRow" -> {
        ReadModifyWriteRowRequest r = ReadModifyWriteRowRequest.parseFrom(m);
        List<String> rules = new ArrayList<>();
        for (ReadModifyWriteRule x : r.getRulesList()) {
          rules.add((x.hasAppendValue() ? "append " : "increment ") + x.getFamilyName() + ":"
              + column(x.getColumnQualifier()));
        }
        yield "ReadModifyWriteRow " + table(r.getTableName()) + " "
            + kind(r.getTableName(), r.getRowKey()) + " " + rules;
      }
      default -> null;
    };
  }

  /** The table without the store's prefix. */
  private static String table(String name) {
    String t = name.substring(name.lastIndexOf('/') + 1);
    return t.replaceFirst("^bench\\d+_\\d+_", "");
  }

  /**
   * The kind of row: in the objects table the letter after the bucket's prefix (4 hex digits and
   * a 36-character id: k key row, m master, c counter shard, u upload), else the table's own.
   */
  private static String kind(String tableName, ByteString row) {
    String t = table(tableName);
    String s = row.toStringUtf8();
    if (t.equals("objects")) {
      return s.length() > 40 ? s.substring(40, 41) + "-row" : "?-row";
    }
    if (t.equals("gc")) {
      return "record-row";
    }
    return s.startsWith("b/") ? "bucket-row" : "row";
  }

  /** A column: revisions, tags and other ids as {@code <id>}. */
  private static String column(ByteString q) {
    String s = q.toStringUtf8();
    return s.length() > 8 ? "<id>" : s;
  }

  private static String mutations(List<Mutation> ms) {
    List<String> out = new ArrayList<>();
    for (Mutation x : ms) {
      out.add(switch (x.getMutationCase()) {
        case SET_CELL -> "set " + x.getSetCell().getFamilyName() + ":"
            + column(x.getSetCell().getColumnQualifier()) + "@" + x.getSetCell().getTimestampMicros();
        case DELETE_FROM_COLUMN -> "delete " + x.getDeleteFromColumn().getFamilyName() + ":"
            + column(x.getDeleteFromColumn().getColumnQualifier());
        case DELETE_FROM_ROW -> "delete row";
        case DELETE_FROM_FAMILY -> "delete " + x.getDeleteFromFamily().getFamilyName() + ":*";
        default -> x.getMutationCase().name();
      });
    }
    return out.toString();
  }

  private static String filter(RowFilter f) {
    return switch (f.getFilterCase()) {
      case CHAIN -> f.getChain().getFiltersList().stream().map(BigtableRpcLog::filter)
          .collect(Collectors.joining(", ", "chain(", ")"));
      case INTERLEAVE -> f.getInterleave().getFiltersList().stream().map(BigtableRpcLog::filter)
          .collect(Collectors.joining(", ", "interleave(", ")"));
      case FAMILY_NAME_REGEX_FILTER -> "family " + f.getFamilyNameRegexFilter();
      case COLUMN_QUALIFIER_REGEX_FILTER -> "column " + column(f.getColumnQualifierRegexFilter());
      case CELLS_PER_COLUMN_LIMIT_FILTER -> "cells/column " + f.getCellsPerColumnLimitFilter();
      case CELLS_PER_ROW_LIMIT_FILTER -> "cells/row " + f.getCellsPerRowLimitFilter();
      case VALUE_REGEX_FILTER -> "value = ?";
      case VALUE_RANGE_FILTER -> "value in range ?";
      case STRIP_VALUE_TRANSFORMER -> "strip values";
      default -> f.getFilterCase().name().toLowerCase(Locale.ROOT);
    };
  }

  @Override
  public void close() {
    server.shutdownNow();
    upstream.shutdownNow();
  }
}
