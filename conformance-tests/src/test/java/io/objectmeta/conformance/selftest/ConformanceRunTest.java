package io.objectmeta.conformance.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.MetadataStores;
import io.objectmeta.api.listing.ListObjectsV2Request;
import io.objectmeta.api.listing.ListObjectsV2Result;
import io.objectmeta.api.spi.ScratchSpace;
import io.objectmeta.conformance.ConformanceRun;
import io.objectmeta.conformance.ConformanceRun.Outcome;
import io.objectmeta.conformance.ConformanceRun.Report;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The suite run outside a build (what {@code objectmeta verify} does), over scratch spaces. */
class ConformanceRunTest {

  @Test
  void aConformingStorePassesEveryGroupAndProgressHearsEveryTest() {
    List<Outcome> heard = Collections.synchronizedList(new ArrayList<>());
    Report r;
    try (ScratchSpace space = MetadataStores.scratch("memory:", Map.of())) {
      r = ConformanceRun.run(ConformanceRun.fixture("memory", space), heard::add);
    }
    assertThat(r.failures()).isEmpty();
    assertThat(r.ok()).isTrue();
    assertThat(r.passed()).isGreaterThan(380);
    assertThat(r.skipped()).as("memory lacks nothing").isEmpty();
    assertThat(r.groups()).extracting(ConformanceRun.Group::name)
        .contains("buckets", "GC queue", "listing versions", "keys and UTF-8 order");
    assertThat(heard).hasSize(r.passed());
  }

  @Test
  void aBrokenStoreFailsInTheGroupThatCatchesIt() {
    ScratchSpace broken = new ScratchSpace() {
      @Override
      public String describe() {
        return "memory, V2 listings never truncated";
      }

      @Override
      public MetadataStore open() {
        return Decorated.store(MetadataStores.open("memory:"), Map.of("listObjectsV2", (real, a) -> {
          ListObjectsV2Result x = real.listObjectsV2((ListObjectsV2Request) a[0]);
          return new ListObjectsV2Result(x.contents(), x.commonPrefixes(), false, null,
              x.keyCount());
        }));
      }

      @Override
      public void close() {}
    };
    Report r = ConformanceRun.run(ConformanceRun.fixture("broken", broken), o -> { });
    assertThat(r.ok()).isFalse();
    assertThat(r.failures()).isNotEmpty()
        .allSatisfy(f -> assertThat(f.message()).isNotBlank())
        .extracting(Outcome::group).contains("listing current objects (V1, V2)");
    assertThat(r.groups()).filteredOn(g -> g.name().equals("buckets"))
        .singleElement().satisfies(g -> assertThat(g.failed()).isZero());
  }
}
