package io.objectmeta.bigtable;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.bigtable.admin.v2.models.CreateTableRequest;
import com.google.cloud.bigtable.data.v2.models.RowMutation;
import com.google.cloud.bigtable.data.v2.models.TableId;
import io.objectmeta.api.MetadataStores;
import io.objectmeta.api.spi.SweepingScratchSpace;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Scratch table sets: a run that died is removed by the next one, a live one is not. */
class BigtableScratchSpaceTest {

  @Test
  void aScratchRunWhoseLeaseIsGoneOrPastIsRemovedByTheNextAndALiveOneIsNot() {
    String prefix = "sweep" + ProcessHandle.current().pid() + "_";
    BigtableConfig config = BigtableTestEmulator.config(prefix, Map.of());
    try (BigtableStoreProvider.Clients c = BigtableStoreProvider.clients(config, true)) {
      java.util.function.Consumer<String> table = t ->
          c.admin().createTable(CreateTableRequest.of(prefix + t).addFamily(Bt.META));
      java.util.function.BiConsumer<String, Instant> lease = (run, until) -> {
        table.accept("s" + run + "_lease");
        c.data().mutateRow(RowMutation.create(TableId.of(prefix + "s" + run + "_lease"), "lease")
            .setCell(Bt.META, "until", String.valueOf(until.toEpochMilli())));
      };
      table.accept("sdeadbeef_1_objects");                      // killed before leases existed
      table.accept("scafebabe_1_objects");                      // killed: its lease ran out
      lease.accept("cafebabe", Instant.now().minusSeconds(60));
      table.accept("s0badf00d_1_objects");                      // alive elsewhere
      lease.accept("0badf00d", Instant.now().plusSeconds(60));
      java.util.function.Supplier<List<String>> left = () -> c.admin().listTables().stream()
          .filter(t -> t.startsWith(prefix)).map(t -> t.substring(prefix.length())).toList();

      String uri = BigtableTestEmulator.uri() + "&tablePrefix=" + prefix;
      try (var space = (SweepingScratchSpace) MetadataStores.scratch(uri, Map.of())) {
        space.open().close();
        assertThat(space.removedRuns()).isEqualTo(2);
        assertThat(left.get()).noneMatch(n -> n.contains("deadbeef") || n.contains("cafebabe"))
            .contains("s0badf00d_1_objects", "s0badf00d_lease")
            .anyMatch(n -> n.endsWith("_lease") && !n.contains("0badf00d"));
      }
      assertThat(left.get()).containsExactlyInAnyOrder("s0badf00d_1_objects", "s0badf00d_lease");
      c.admin().deleteTable(prefix + "s0badf00d_1_objects");
      c.admin().deleteTable(prefix + "s0badf00d_lease");
    }
  }
}
