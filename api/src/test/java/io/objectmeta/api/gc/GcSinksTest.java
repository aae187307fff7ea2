package io.objectmeta.api.gc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectmeta.api.error.InvalidArgumentException;
import org.junit.jupiter.api.Test;

class GcSinksTest {

  @Test
  void aSpecNamesTheProviderAndWhatFollowsTheFirstColonAreItsOptions() {
    assertThat(GcSinks.open("echo:sh -c 'a:b'")).isEqualTo(new EchoSinkProvider.EchoSink("sh -c 'a:b'"));
    assertThat(GcSinks.open("echo")).isEqualTo(new EchoSinkProvider.EchoSink(""));
    assertThat(GcSinks.open("echo:")).isEqualTo(new EchoSinkProvider.EchoSink(""));
  }

  @Test
  void anUnknownNameListsTheSinksThatAreThere() {
    assertThatThrownBy(() -> GcSinks.open("nope:x"))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessage("sink: no sink named \"nope\" on the class path; sinks available: echo");
    assertThatThrownBy(() -> GcSinks.provider("")).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> GcSinks.provider(null)).isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void providersAreFoundThroughServiceLoader() {
    assertThat(GcSinks.providers()).extracting(GcSinkProvider::name).containsExactly("echo");
    assertThat(GcSinks.provider("echo:x")).isInstanceOf(EchoSinkProvider.class);
  }
}
