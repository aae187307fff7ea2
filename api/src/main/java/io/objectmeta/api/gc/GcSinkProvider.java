package io.objectmeta.api.gc;

/**
 * A kind of {@link GcSink}, found through {@link java.util.ServiceLoader}: list the implementation
 * class in {@code META-INF/services/io.objectmeta.api.gc.GcSinkProvider}. A sink is named by a
 * spec {@code NAME:OPTIONS} (e.g. {@code log:/var/log/objectmeta-gc.jsonl}); {@link GcSinks#open}
 * picks the provider by name and hands it the options.
 */
public interface GcSinkProvider {

  /** The name a spec starts with, e.g. {@code log}: lowercase letters, digits and '-'. */
  String name();

  /** One line saying what the sink does and what its options are, for help texts. */
  default String description() {
    return "";
  }

  /**
   * Creates a sink. A sink that holds resources (a file, a connection) also implements
   * {@link AutoCloseable}; whoever created it closes it after the run.
   *
   * @param options what follows {@code NAME:} in the spec ("" when nothing does)
   * @throws io.objectmeta.api.error.InvalidArgumentException the options are not ones it takes
   */
  GcSink create(String options);
}
