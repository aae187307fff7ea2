package io.objectmeta.api.gc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectmeta.api.error.InvalidArgumentException;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The GC runner's settings are checked when set, each naming what is wrong. */
class GcRunnerBuilderTest {
  private final GcRunner.Builder b = GcRunner.builder(null, batch -> Set.of());

  @Test
  void batchSizeIsOneToTenThousand() {
    assertThat(b.batchSize(1)).isSameAs(b);
    assertThat(b.batchSize(10_000)).isSameAs(b);
    assertThatThrownBy(() -> b.batchSize(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("batchSize must be 1 to 10000: 0");
    assertThatThrownBy(() -> b.batchSize(10_001)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void concurrencyIsAtLeastOne() {
    assertThat(b.concurrency(1)).isSameAs(b);
    assertThatThrownBy(() -> b.concurrency(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("concurrency must be at least 1: 0");
  }

  @Test
  void durationsFollowTheQueuesRules() {
    assertThat(b.gracePeriod(Duration.ZERO)).isSameAs(b);
    assertThatThrownBy(() -> b.gracePeriod(Duration.ofSeconds(-1)))
        .isInstanceOfSatisfying(InvalidArgumentException.class,
            e -> assertThat(e.field()).isEqualTo("gracePeriod"));
    assertThat(b.lease(Duration.ofMillis(1))).isSameAs(b);
    assertThatThrownBy(() -> b.lease(Duration.ZERO))
        .isInstanceOfSatisfying(InvalidArgumentException.class,
            e -> assertThat(e.field()).isEqualTo("lease"));
    assertThat(b.maxTime(null)).isSameAs(b);
    assertThat(b.maxTime(Duration.ofMinutes(1))).isSameAs(b);
    assertThatThrownBy(() -> b.maxTime(Duration.ofSeconds(-1)))
        .isInstanceOfSatisfying(InvalidArgumentException.class,
            e -> assertThat(e.field()).isEqualTo("maxTime"));
    assertThat(b.progress(p -> {})).isSameAs(b);
    assertThatThrownBy(() -> b.progress(null)).isInstanceOf(NullPointerException.class);
  }
}
