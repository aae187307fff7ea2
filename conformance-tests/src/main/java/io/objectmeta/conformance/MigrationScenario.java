package io.objectmeta.conformance;

import io.objectmeta.api.Capability;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.Json;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectMetadataUpdate;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A store worth migrating, written through the ordinary calls: versioned, suspended and
 * unversioned buckets; keys with many versions (across listing pages), delete markers on top and
 * alone, versions removed from the middle, null versions on top of and among other versions;
 * keys with NUL and non-ASCII characters; rich metadata; uploads with parts; and GC records of
 * every kind (overwritten and removed versions, replaced and aborted parts, a deleted bucket).
 */
public final class MigrationScenario {
  private MigrationScenario() {}

  public static final String VERSIONED = "mig-versioned";
  public static final String SUSPENDED = "mig-suspended";
  public static final String PLAIN = "mig-plain";
  /** A key of the versioned bucket with {@link #MANY} versions. */
  public static final String MANY_KEY = "many/\u00e9t\u00e9";
  public static final int MANY = 23;

  /** Metadata with every field set, its maps in an order a database may not keep. */
  public static ObjectMetadata rich(String name, long size) {
    Map<String, String> user = new LinkedHashMap<>();
    user.put("zeta", "last");
    user.put("alpha", "first \u00fc");
    user.put("m", name);
    return ObjectMetadata.builder().size(size).etag(Sample.md5Hex(name))
        .contentType("text/plain; charset=utf-8").owner("owner-9").storageClass("STANDARD_IA")
        .userMetadata(user)
        .dataLocations(List.of(new DataLocation("data-1", "d/" + name + "/0", 0, size / 2),
            new DataLocation("data-1", "d/" + name + "/1", size / 2, size - size / 2)))
        .tags(Map.of("team", "storage", "tier", "cold"))
        .acl(Json.object("{\"grants\":[{\"to\":\"alice\",\"perm\":\"READ\"}],\"owner\":\"o\"}"))
        .replicationStatus("COMPLETED")
        .attributes(Json.object("{\"z\":1,\"a\":{\"y\":[1,2,{\"k\":\"v\"}],\"b\":null}}"))
        .build();
  }

  /** Writes the scenario into an empty store. */
  public static void populate(MetadataStore s) {
    boolean multipart = s.capabilities().contains(Capability.MULTIPART_UPLOADS);

    s.createBucket(VERSIONED, "owner-1", Json.object("{\"purpose\":\"photos\",\"n\":[3,1]}"));
    s.updateBucket(VERSIONED, BucketUpdate.versioning(VersioningState.ENABLED));
    for (int i = 0; i < MANY; i++) {
      s.putObject(VERSIONED, MANY_KEY, rich("many" + i, 100 + i));
    }
    s.putObject(VERSIONED, "a\u0000b", Sample.object("nul", 3));
    s.putObject(VERSIONED, "a\u0000b", Sample.object("nul2", 4));
    s.putObject(VERSIONED, "\u65e5\u672c/\uD83D\uDE00", rich("emoji", 9));
    s.putObject(VERSIONED, "deleted", Sample.object("d1", 5));
    s.deleteObject(VERSIONED, "deleted");
    s.deleteObject(VERSIONED, "deleted");
    s.deleteObject(VERSIONED, "marker-only");
    ObjectVersion first = s.putObject(VERSIONED, "holey", Sample.object("h1", 6));
    s.putObject(VERSIONED, "holey", Sample.object("h2", 7));
    s.putObject(VERSIONED, "holey", Sample.object("h3", 8));
    s.deleteObjectVersion(VERSIONED, "holey", first.versionId());
    s.updateObjectMetadata(VERSIONED, "holey", null, ObjectMetadataUpdate.tags(Map.of("t", "1")));
    for (int i = 0; i < 12; i++) {
      s.putObject(VERSIONED, String.format("dir/%02d", i), Sample.object("dir" + i, i));
    }

    s.createBucket(SUSPENDED, "owner-2", null);
    s.putObject(SUSPENDED, "mid", Sample.object("m0", 10));
    s.putObject(SUSPENDED, "top", Sample.object("t0", 11));
    s.updateBucket(SUSPENDED, BucketUpdate.versioning(VersioningState.ENABLED));
    s.putObject(SUSPENDED, "mid", Sample.object("m1", 12));
    s.putObject(SUSPENDED, "mid", rich("m2", 13));
    s.putObject(SUSPENDED, "sdm", Sample.object("s1", 14));
    s.updateBucket(SUSPENDED, BucketUpdate.versioning(VersioningState.SUSPENDED));
    s.putObject(SUSPENDED, "top", Sample.object("t1", 15));
    s.putObject(SUSPENDED, "top", Sample.object("t2", 16));
    s.deleteObject(SUSPENDED, "sdm");
    s.putObject(SUSPENDED, "\u0000", Sample.object("zero", 1));

    s.createBucket(PLAIN, "owner-1", Json.object("{\"k\":\"v\"}"));
    for (int i = 0; i < 9; i++) {
      s.putObject(PLAIN, "p" + i, rich("p" + i, 20 + i));
    }
    s.putObject(PLAIN, "p1", rich("p1-again", 30));
    s.deleteObject(PLAIN, "p2");
    s.putObject(PLAIN, "\u00ff\u0000\u007f", Sample.object("odd", 2));

    if (multipart) {
      MultipartUpload u = s.initiateMultipartUpload(VERSIONED, "big/\u00fc", rich("big", 0));
      s.putPart(VERSIONED, u.key(), u.uploadId(), Sample.part(1, "b1", 50));
      s.putPart(VERSIONED, u.key(), u.uploadId(), Sample.part(2, "b2", 51));
      s.putPart(VERSIONED, u.key(), u.uploadId(), Sample.part(2, "b2-again", 52));
      s.putPart(VERSIONED, u.key(), u.uploadId(), Sample.part(7, "b7", 53));
      s.initiateMultipartUpload(VERSIONED, "big/\u00fc", Sample.object("second", 0));
      s.initiateMultipartUpload(PLAIN, "empty-upload", Sample.object("e", 0));
      MultipartUpload aborted = s.initiateMultipartUpload(PLAIN, "aborted", Sample.object("a", 0));
      s.putPart(PLAIN, "aborted", aborted.uploadId(), Sample.part(1, "a1", 40));
      s.abortMultipartUpload(PLAIN, "aborted", aborted.uploadId());
    }

    s.createBucket("mig-gone", "owner-3", null);
    if (multipart) {
      MultipartUpload g = s.initiateMultipartUpload("mig-gone", "g", Sample.object("g", 0));
      s.putPart("mig-gone", "g", g.uploadId(), Sample.part(1, "g1", 60));
    }
    s.deleteBucket("mig-gone");
  }
}
