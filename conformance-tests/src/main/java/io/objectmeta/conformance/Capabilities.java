package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectmeta.api.Capability;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.error.NotImplementedException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Assumptions;

/**
 * Capability checks of the suite. A test that needs a capability the backend lacks first proves
 * that the store refuses cleanly (NotImplemented for exactly that call), then aborts with the
 * reason the fixture declared, so the report shows the test as skipped and why.
 */
public final class Capabilities {
  private Capabilities() {}

  /**
   * Returns if the store has {@code capability}; otherwise asserts that {@code probe} (a call
   * that needs it) throws {@link NotImplementedException} and aborts the test with the reason.
   */
  public static void require(MetadataStore store, ConformanceFixture fixture, Capability capability,
      ThrowingCallable probe) {
    if (store.capabilities().contains(capability)) {
      assertThat(fixture.unsupported())
          .as("fixture %s declares %s unsupported, but the store offers it", fixture.name(), capability)
          .doesNotContainKey(capability);
      return;
    }
    String reason = fixture.unsupported().get(capability);
    assertThat(reason)
        .as("store of %s lacks %s; its fixture must declare it with a reason", fixture.name(), capability)
        .isNotBlank();
    assertThatThrownBy(probe)
        .as("a call needing %s must fail with NotImplemented on a store without it", capability)
        .isInstanceOf(NotImplementedException.class);
    Assumptions.abort(capability + " not supported by " + fixture.name() + ": " + reason);
  }
}
