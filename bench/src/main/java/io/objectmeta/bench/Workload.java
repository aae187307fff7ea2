package io.objectmeta.bench;

/** The workloads, in report order. */
public enum Workload {
  PUT_UNVERSIONED("put, unversioned overwrite", "ops/s"),
  PUT_VERSIONED("put, versioned (new version of an existing key)", "ops/s"),
  GET_LATEST("get latest", "ops/s"),
  GET_VERSION("get by version id", "ops/s"),
  DELETE_MARKER("delete, adds a delete marker", "ops/s"),
  DELETE_VERSION("delete by version id (the key's only version)", "ops/s"),
  LIST_FLAT("list a page of 1000, flat", "pages/s"),
  LIST_DELIMITER("list with delimiter, 100 common prefixes", "pages/s"),
  LIST_CLEAN("list first page of 1000, clean bucket", "pages/s"),
  LIST_AFTER_MARKERS("list first page of 1000, bucket with delete-marked keys", "pages/s"),
  LIST_MARKERS_SAME_SIZE("list first page of 1000, bucket with delete-marked keys"
      + " (baseline: a bucket as big, all live)", "pages/s"),
  GC_DRAIN("GC drain (claim + acknowledge)", "records/s"),
  WALK_SMALL("walk every page, small bucket: retained heap", "KiB"),
  WALK_BIG("walk every page, big bucket: retained heap", "KiB"),
  PUT_CONTENDED("conditional put, 16 threads on one key (baseline: on 16 keys)", "puts/s");

  public final String label;
  public final String unit;

  Workload(String label, String unit) {
    this.label = label;
    this.unit = unit;
  }
}
