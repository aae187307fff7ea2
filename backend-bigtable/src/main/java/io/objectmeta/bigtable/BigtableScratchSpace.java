package io.objectmeta.bigtable;

import com.google.cloud.bigtable.admin.v2.models.CreateTableRequest;
import com.google.cloud.bigtable.admin.v2.models.GCRules;
import com.google.cloud.bigtable.data.v2.models.Row;
import com.google.cloud.bigtable.data.v2.models.RowCell;
import com.google.cloud.bigtable.data.v2.models.RowMutation;
import com.google.cloud.bigtable.data.v2.models.TableId;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.spi.SweepingScratchSpace;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Throw-away table sets next to a store's: {@code <tablePrefix>s<run>_<n>_*}, one per
 * {@link #open()}, and the run's lease in the table {@code <tablePrefix>s<run>_lease}; all deleted
 * on {@link #close()}, or by the next run if this one was killed ({@link SweepingScratchSpace}). The
 * stores share this space's clients.
 */
final class BigtableScratchSpace extends SweepingScratchSpace.Leased {
  private static final String LEASE_ROW = "lease";
  private static final String UNTIL = "until";
  private final BigtableStoreProvider.Clients clients;
  private final BigtableConfig config;
  private final String stem;
  private final Pattern names;

  BigtableScratchSpace(BigtableStoreProvider.Clients clients, BigtableConfig config) {
    this.clients = clients;
    this.config = config;
    this.stem = config.tablePrefix() + "s";
    this.names = Pattern.compile(Pattern.quote(stem) + "(" + RUN_ID.pattern() + ")_(\\d+_.+|lease)");
  }

  @Override
  public String describe() {
    return "scratch tables " + stem + run() + "_*_ on bigtable://" + config.project() + "/"
        + config.instance();
  }

  @Override
  protected MetadataStore openNamespace(int n) {
    return new BigtableMetadataStore(clients.data(), clients.admin(), false,
        config.withTablePrefix(stem + run() + "_" + n + "_"));
  }

  private String leaseTable(String run) {
    return stem + run + "_lease";
  }

  @Override
  protected Set<String> runs() {
    Set<String> runs = new TreeSet<>();
    for (String t : Bt.call(() -> clients.admin().listTables())) {
      Matcher m = names.matcher(t);
      if (m.matches()) {
        runs.add(m.group(1));
      }
    }
    return runs;
  }

  @Override
  protected Optional<Instant> lease(String run) {
    String table = leaseTable(run);
    if (!Bt.call(() -> clients.admin().exists(table))) {
      return Optional.empty();
    }
    Row row = Bt.call(() -> clients.data().readRow(TableId.of(table), LEASE_ROW));
    if (row == null) {
      return Optional.empty();
    }
    List<RowCell> cells = row.getCells(Bt.META, UNTIL);
    return cells.isEmpty() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(
        Long.parseLong(cells.get(0).getValue().toString(StandardCharsets.US_ASCII))));
  }

  @Override
  protected void writeLease(Instant until) {
    String table = leaseTable(run());
    Bt.call(() -> {
      if (!clients.admin().exists(table)) {
        clients.admin().createTable(CreateTableRequest.of(table)
            .addFamily(Bt.META, GCRules.GCRULES.maxVersions(1)));
      }
      clients.data().mutateRow(RowMutation.create(TableId.of(table), LEASE_ROW)
          .setCell(Bt.META, UNTIL, String.valueOf(until.toEpochMilli())));
      return null;
    });
  }

  @Override
  protected void remove(String run) {
    List<String> tables = new ArrayList<>();
    boolean lease = false;
    for (String t : Bt.call(() -> clients.admin().listTables())) {
      Matcher m = names.matcher(t);
      if (m.matches() && m.group(1).equals(run)) {
        if (m.group(2).equals("lease")) {
          lease = true;
        } else {
          tables.add(t);
        }
      }
    }
    if (lease) {
      tables.add(leaseTable(run)); // last: a run cleaning up is never taken for a dead one
    }
    for (String t : tables) {
      Bt.call(() -> {
        try {
          clients.admin().deleteTable(t);
        } catch (com.google.api.gax.rpc.NotFoundException gone) {
          // removed meanwhile by another run's sweep
        }
        return null;
      });
    }
  }

  @Override
  protected void release() {
    clients.close();
  }
}
