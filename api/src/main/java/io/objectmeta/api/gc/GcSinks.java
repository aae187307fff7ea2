package io.objectmeta.api.gc;

import io.objectmeta.api.error.InvalidArgumentException;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/** Opens a {@link GcSink} by spec, choosing the {@link GcSinkProvider} by name through ServiceLoader. */
public final class GcSinks {
  private GcSinks() {}

  /**
   * Opens {@code NAME:OPTIONS} (or {@code NAME} alone) with the provider of that name.
   *
   * @throws InvalidArgumentException no provider of that name is on the class path (the message
   *     lists those that are), or it refused the options
   */
  public static GcSink open(String spec) {
    GcSinkProvider provider = provider(spec);
    int colon = spec.indexOf(':');
    return provider.create(colon < 0 ? "" : spec.substring(colon + 1));
  }

  /**
   * The provider a spec names, without creating a sink (to check a spec before using it).
   *
   * @throws InvalidArgumentException no provider of that name is on the class path
   */
  public static GcSinkProvider provider(String spec) {
    if (spec == null || spec.isEmpty()) {
      throw new InvalidArgumentException("sink", "must be NAME or NAME:OPTIONS, got none");
    }
    int colon = spec.indexOf(':');
    String name = colon < 0 ? spec : spec.substring(0, colon);
    for (GcSinkProvider p : providers()) {
      if (p.name().equals(name)) {
        return p;
      }
    }
    throw new InvalidArgumentException("sink", "no sink named \"" + name + "\" on the class path;"
        + " sinks available: " + names());
  }

  /** The providers on the class path, in name order. */
  public static List<GcSinkProvider> providers() {
    return ServiceLoader.load(GcSinkProvider.class).stream().map(ServiceLoader.Provider::get)
        .sorted((a, b) -> a.name().compareTo(b.name())).collect(Collectors.toList());
  }

  private static String names() {
    List<GcSinkProvider> all = providers();
    return all.isEmpty() ? "none"
        : all.stream().map(GcSinkProvider::name).collect(Collectors.joining(", "));
  }
}
