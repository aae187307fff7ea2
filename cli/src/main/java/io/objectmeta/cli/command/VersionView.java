package io.objectmeta.cli.command;

import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.cli.Output;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Map;

/**
 * An object version as the commands print it in JSON: the fields a listing shows, and with
 * {@link #full} the whole metadata too.
 *
 * @param key the key
 * @param versionId the version id ("null" for the null version)
 * @param latest whether it is its key's newest version
 * @param deleteMarker whether it is a delete marker
 * @param lastModified when it was written
 * @param size bytes (0 for a delete marker)
 * @param etag the entity tag (none for a delete marker)
 * @param storageClass the storage class (none for a delete marker)
 * @param metadata all of the metadata ({@link #full} only)
 */
public record VersionView(String key, String versionId, boolean latest, boolean deleteMarker,
    Instant lastModified, long size, String etag, String storageClass, ObjectMetadata metadata) {

  /** What a listing or head shows. */
  public static VersionView summary(ObjectVersion v) {
    ObjectMetadata m = v.metadata();
    return new VersionView(v.key(), v.versionId(), v.latest(), v.deleteMarker(), v.lastModified(),
        v.size(), m == null ? null : m.etag(), m == null ? null : m.storageClass(), null);
  }

  /** The summary and the whole metadata. */
  public static VersionView full(ObjectVersion v) {
    VersionView s = summary(v);
    return new VersionView(s.key, s.versionId, s.latest, s.deleteMarker, s.lastModified, s.size,
        s.etag, s.storageClass, v.metadata());
  }

  /** Prints one version: JSON, or name-value lines; {@code full} adds the whole metadata. */
  static void print(PrintWriter out, ObjectVersion v, boolean full, boolean json) {
    if (json) {
      Output.json(out, full ? full(v) : summary(v));
      return;
    }
    Output.Fields f = new Output.Fields().add("key", v.key()).add("versionId", v.versionId())
        .add("latest", v.latest()).add("lastModified", Output.time(v.lastModified()));
    ObjectMetadata m = v.metadata();
    if (m == null) {
      f.add("deleteMarker", true).print(out);
      return;
    }
    f.add("size", v.size()).add("etag", m.etag()).add("contentType", m.contentType())
        .add("storageClass", m.storageClass());
    if (full) {
      f.add("owner", m.owner());
      for (Map.Entry<String, String> e : m.userMetadata().entrySet()) {
        f.add("metadata." + e.getKey(), e.getValue());
      }
      for (Map.Entry<String, String> e : m.tags().entrySet()) {
        f.add("tag." + e.getKey(), e.getValue());
      }
      for (DataLocation d : m.dataLocations()) {
        f.add("data", d.store() + " " + d.key() + " offset " + d.offset() + " size " + d.size());
      }
      if (m.acl() != null) {
        f.add("acl", Output.jsonLine(m.acl()));
      }
      if (m.replicationStatus() != null) {
        f.add("replicationStatus", m.replicationStatus());
      }
      if (!m.attributes().isEmpty()) {
        f.add("attributes", Output.jsonLine(m.attributes()));
      }
    }
    f.print(out);
  }
}
