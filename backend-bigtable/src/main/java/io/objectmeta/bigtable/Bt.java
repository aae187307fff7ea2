package io.objectmeta.bigtable;

import com.google.api.gax.rpc.ApiException;
import com.google.cloud.bigtable.data.v2.BigtableDataClient;
import com.google.cloud.bigtable.data.v2.models.BulkMutation;
import com.google.cloud.bigtable.data.v2.models.ConditionalRowMutation;
import com.google.cloud.bigtable.data.v2.models.Filters;
import com.google.cloud.bigtable.data.v2.models.Mutation;
import com.google.cloud.bigtable.data.v2.models.Query;
import com.google.cloud.bigtable.data.v2.models.ReadModifyWriteRow;
import com.google.cloud.bigtable.data.v2.models.Row;
import com.google.cloud.bigtable.data.v2.models.RowCell;
import com.google.cloud.bigtable.data.v2.models.RowMutation;
import com.google.cloud.bigtable.data.v2.models.TableId;
import com.google.protobuf.ByteString;
import io.objectmeta.api.error.InternalErrorException;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.error.ServiceUnavailableException;
import io.objectmeta.api.error.StoreConfigurationException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import static com.google.cloud.bigtable.data.v2.models.Filters.FILTERS;

/**
 * The few data operations the backend uses, over one client: every failure of the service is
 * the contract's retryable ServiceUnavailable. Cells are written at timestamp 0, so a column has
 * one cell whatever the writers' clocks say (a later write with an earlier client timestamp
 * would otherwise hide behind an older cell); reads and predicates still take the newest cell of
 * a column only ({@code cellsPerColumn(1)} before any value test), since old cells linger until
 * a compaction. Public for the bench's raw baseline, which sends the same requests.
 */
public final class Bt {
  public static final String META = "m";
  public static final String DATA = "d";
  public static final String COUNT = "c";
  public static final String APPLIED = "a";
  public static final ByteString VERSION = ByteString.copyFromUtf8("v");

  /** The newest cell of every column. */
  public static final Filters.Filter LATEST = FILTERS.limit().cellsPerColumn(1);

  /** Cells with a value (an emptied cell reads as none). */
  static final Filters.Filter NOT_EMPTY = FILTERS.value().regex("(?s).+");

  private final BigtableDataClient client;

  Bt(BigtableDataClient client) {
    this.client = client;
  }

  /**
   * Runs one RPC; its failure typed by status code: only what a later attempt may not meet
   * (unavailable, deadline, aborted, exhausted, internal, unknown) is ServiceUnavailable. A missing
   * table or instance, or credentials the server refuses, is StoreConfigurationException; a value
   * the server calls invalid (which the input rules in api should have stopped) is InvalidArgument.
   */
  static <T> T call(Supplier<T> op) {
    try {
      return op.get();
    } catch (ApiException e) {
      throw typed(e);
    }
  }

  static MetadataException typed(ApiException e) {
    String message = "bigtable: " + e.getStatusCode().getCode() + ": " + e.getMessage();
    return switch (e.getStatusCode().getCode()) {
      case NOT_FOUND -> new StoreConfigurationException("bigtable: not found (a missing table or"
          + " instance? open with createTables=true to create the tables): " + e.getMessage(), e);
      case PERMISSION_DENIED, UNAUTHENTICATED -> new StoreConfigurationException(message, e);
      case INVALID_ARGUMENT, OUT_OF_RANGE -> {
        InvalidArgumentException refused = new InvalidArgumentException("input",
            "Bigtable refused it (" + e.getStatusCode().getCode() + "): " + e.getMessage());
        refused.initCause(e);
        yield refused;
      }
      case UNIMPLEMENTED, FAILED_PRECONDITION, ALREADY_EXISTS ->
          new InternalErrorException(message, e);
      default -> new ServiceUnavailableException(message, e);
    };
  }

  Row read(TableId t, ByteString row) {
    return call(() -> client.readRow(t, row, LATEST));
  }

  Row read(TableId t, ByteString row, Filters.Filter f) {
    return call(() -> client.readRow(t, row, FILTERS.chain().filter(LATEST).filter(f)));
  }

  List<Row> scan(Query q) {
    return call(() -> {
      List<Row> out = new ArrayList<>();
      for (Row r : client.readRows(q.filter(LATEST))) {
        out.add(r);
      }
      return out;
    });
  }

  List<Row> scan(Query q, Filters.Filter f) {
    return call(() -> {
      List<Row> out = new ArrayList<>();
      for (Row r : client.readRows(q.filter(FILTERS.chain().filter(LATEST).filter(f)))) {
        out.add(r);
      }
      return out;
    });
  }

  /** Several scans at once; their results in the order of the queries. */
  List<List<Row>> scanAll(List<Query> queries) {
    return call(() -> {
      List<com.google.api.core.ApiFuture<List<Row>>> futures = new ArrayList<>();
      for (Query q : queries) {
        futures.add(client.readRowsCallable().all().futureCall(q.filter(LATEST)));
      }
      List<List<Row>> out = new ArrayList<>();
      for (com.google.api.core.ApiFuture<List<Row>> f : futures) {
        out.add(com.google.api.gax.rpc.ApiExceptions.callAndTranslateApiException(f));
      }
      return out;
    });
  }

  void mutateAsync(TableId t, ByteString row, Mutation m) {
    client.mutateRowAsync(RowMutation.create(t, row, m));
  }

  void bulk(BulkMutation b) {
    if (b.getEntryCount() == 0) {
      return;
    }
    call(() -> {
      client.bulkMutateRows(b);
      return null;
    });
  }

  Row rmw(ReadModifyWriteRow r) {
    return call(() -> client.readModifyWriteRow(r));
  }

  /** Every row from {@code start} on. */
  static com.google.cloud.bigtable.data.v2.models.Range.ByteStringRange from(ByteString start) {
    return com.google.cloud.bigtable.data.v2.models.Range.ByteStringRange.unbounded()
        .startClosed(start);
  }

  /** The row's version cell, or null. */
  public static Long version(Row r) {
    ByteString v = cell(r, META, VERSION);
    return v == null ? null : Codec.version(v);
  }

  public static ByteString cell(Row r, String family, ByteString qualifier) {
    if (r == null) {
      return null;
    }
    List<RowCell> cells = r.getCells(family, qualifier);
    return cells.isEmpty() || cells.get(0).getValue().isEmpty() ? null : cells.get(0).getValue();
  }

  /**
   * Empties a cell (an empty value reads as no cell): a deletion of a column can make a
   * concurrent read on the emulator miss the column's whole family, so columns that readers of
   * the row rely on are emptied, not deleted.
   */
  public static Mutation clear(Mutation m, String family, ByteString qualifier) {
    return m.setCell(family, qualifier, 0L, ByteString.EMPTY);
  }

  /** Sets a cell at timestamp 0 (see the class comment). */
  public static Mutation set(Mutation m, String family, ByteString qualifier, ByteString value) {
    return m.setCell(family, qualifier, 0L, value);
  }

  /**
   * Applies {@code m} if the row's version cell is {@code expected} (null: if the row has no
   * version cell, i.e. does not exist). False: another writer changed the row first.
   */
  boolean cas(TableId t, ByteString row, Long expected, Mutation m) {
    Filters.Filter hasVersion = FILTERS.chain().filter(FILTERS.family().exactMatch(META))
        .filter(FILTERS.qualifier().exactMatch(VERSION));
    if (expected == null) {
      return !call(() -> client.checkAndMutateRow(ConditionalRowMutation.create(t, row)
          .condition(hasVersion).otherwise(m)));
    }
    Filters.Filter is = FILTERS.chain().filter(FILTERS.family().exactMatch(META))
        .filter(FILTERS.qualifier().exactMatch(VERSION)).filter(FILTERS.limit().cellsPerColumn(1))
        .filter(FILTERS.value().exactMatch(Codec.version(expected)));
    return call(() -> client.checkAndMutateRow(ConditionalRowMutation.create(t, row)
        .condition(is).then(m)));
  }

  /**
   * Applies {@code m} unless the row's version cell is above {@code fence}: a derived row (a
   * master) never goes back to an older state of its source row.
   */
  void fenced(TableId t, ByteString row, long fence, Mutation m) {
    Filters.Filter newer = FILTERS.chain().filter(FILTERS.family().exactMatch(META))
        .filter(FILTERS.qualifier().exactMatch(VERSION)).filter(FILTERS.limit().cellsPerColumn(1))
        .filter(FILTERS.value().range().startOpen(Codec.version(fence)));
    call(() -> client.checkAndMutateRow(ConditionalRowMutation.create(t, row).condition(newer)
        .otherwise(m)));
  }

  /** A first version for a new row: random, so a row removed and made again never repeats one. */
  static long firstVersion() {
    return ThreadLocalRandom.current().nextLong(1, 1L << 60);
  }
}
