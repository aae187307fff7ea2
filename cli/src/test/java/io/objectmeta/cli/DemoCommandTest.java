package io.objectmeta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class DemoCommandTest {
  private final Cli cli = new Cli();

  @Test
  void theDemoWritesListsAndFreesWhatItQueued() {
    JsonNode demo = cli.ok("demo", "--objects", "60", "--json").json();
    // 60 objects, every 5th delete-marked (12); the first version of every 6th removed (10),
    // 499 scratch overwrites, the scratch object and the scratch bucket: 511 GC records.
    assertThat(demo.get("usage").get("currentObjects").asLong()).isEqualTo(48);
    assertThat(demo.get("usage").get("deleteMarkers").asLong()).isEqualTo(12);
    assertThat(demo.get("gc").get("freed").asLong()).isEqualTo(511);
    assertThat(demo.get("steps")).extracting(s -> s.get("step").asText())
        .anySatisfy(s -> assertThat(s).startsWith("list as of before the deletes"));
    assertThat(demo.get("steps")).filteredOn(s -> s.get("step").asText().startsWith("list current"))
        .singleElement().satisfies(s -> assertThat(s.get("count").asLong()).isEqualTo(48));
    assertThat(cli.ok("gc", "status", "--json").json().get("queued").asLong()).isZero();
  }

  @Test
  void theDemoLeavesGarbageItDidNotMakeAlone() {
    cli.ok("demo", "--objects", "12", "--skip-gc");
    long queued = cli.ok("gc", "status", "--json").json().get("queued").asLong();
    assertThat(queued).isPositive();

    Cli.Result second = cli.ok("demo", "--objects", "12");
    assertThat(second.out()).contains("GC skipped: the queue held " + queued + " records before the demo");
    assertThat(second.outLines()).anySatisfy(l -> assertThat(l).startsWith("  put 12 objects"));
    assertThat(second.outLines().get(second.outLines().size() - 1)).startsWith("done in ");
  }

  @Test
  void tooFewObjectsIsAUsageError() {
    Cli.Result r = cli.run("demo", "--objects", "3");
    assertThat(r.exit()).isEqualTo(ExitCode.USAGE);
    assertThat(r.errLines()).singleElement().asString().contains("--objects must be 12 to 1000000");
  }
}
