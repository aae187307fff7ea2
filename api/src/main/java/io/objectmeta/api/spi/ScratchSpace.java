package io.objectmeta.api.spi;

import io.objectmeta.api.MetadataStore;

/**
 * Fresh, empty stores in throw-away namespaces of a live deployment (a PostgreSQL schema per
 * store, say), removed when the space is closed: where {@code objectmeta verify} runs the
 * conformance suite, so an operator can prove a deployment keeps the contract without touching
 * its data. Obtained from {@link io.objectmeta.api.MetadataStores#scratch}. A space that was never
 * closed (its process killed) leaves its namespaces; the backends' spaces extend
 * {@link SweepingScratchSpace}, so the next space on the deployment removes them.
 */
public interface ScratchSpace extends AutoCloseable {

  /** Where the namespaces live, for reports (no credentials). */
  String describe();

  /** A new store in a namespace of its own, empty. The caller closes it. */
  MetadataStore open();

  /**
   * A second store on the namespace of {@code store} (one {@link #open()} returned), opened
   * separately as another process would; the caller closes it. Empty where the space cannot.
   */
  default java.util.Optional<MetadataStore> openPeer(MetadataStore store) {
    return java.util.Optional.empty();
  }

  /** Removes every namespace this space created; stores it opened should be closed first. */
  @Override
  void close();
}
