package io.objectmeta.conformance;

import io.objectmeta.api.Capability;
import io.objectmeta.api.MetadataStore;
import java.util.Map;

/**
 * How the conformance suite gets a backend: a fresh (or reset-to-empty) store per test, a name for
 * reports, and the capabilities the backend lacks, each with the reason. A capability missing from
 * {@link MetadataStore#capabilities()} must be declared here, or the suite fails: nothing is
 * skipped silently.
 */
public interface ConformanceFixture {

  /** The backend's name in test reports, e.g. {@code postgres (embedded 17)}. */
  String name();

  /**
   * A store with no buckets, no GC records and no uploads: a new one, or an existing one reset to
   * empty. Its UUID may be kept across resets.
   */
  MetadataStore open();

  /**
   * A second store on the database and namespace of {@code store} (which {@link #open()}
   * returned), opened separately as another process would open it; the test closes it. Empty when
   * the fixture cannot open one (an in-memory store is one process: it returns the store itself,
   * which the test then does not close).
   */
  default java.util.Optional<MetadataStore> openPeer(MetadataStore store) {
    return java.util.Optional.empty();
  }

  /** Called after each test with the store {@link #open()} returned; closes it by default. */
  default void close(MetadataStore store) {
    store.close();
  }

  /**
   * The capabilities this backend lacks, each with the reason a report shows (e.g. "no history
   * kept in the point-in-time format"). Empty: the backend supports everything.
   */
  default Map<Capability, String> unsupported() {
    return Map.of();
  }
}
