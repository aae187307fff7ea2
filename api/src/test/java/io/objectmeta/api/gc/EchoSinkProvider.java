package io.objectmeta.api.gc;

import java.util.Set;

/** A sink for the lookup tests: it frees nothing and remembers the options it was made with. */
public final class EchoSinkProvider implements GcSinkProvider {

  /** The sink this provider makes. */
  record EchoSink(String options) implements GcSink {
    @Override
    public Set<String> free(java.util.List<GarbageRecord> batch) {
      return Set.of();
    }
  }

  @Override
  public String name() {
    return "echo";
  }

  @Override
  public GcSink create(String options) {
    return new EchoSink(options);
  }
}
