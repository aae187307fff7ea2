package io.objectmeta.bigtable;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.Json;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.version.VersionId;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The cell values of the backend: JSON for records, 8 big-endian bytes for row versions. Public
 * for the bench's raw baseline, which writes the same cells.
 */
public final class Codec {
  private Codec() {}

  public static ByteString bytes(JsonNode n) {
    try {
      return ByteString.copyFrom(Json.MAPPER.writeValueAsBytes(n));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  public static ObjectNode json(ByteString b) {
    try {
      return (ObjectNode) Json.MAPPER.readTree(b.newInput());
    } catch (java.io.IOException e) {
      throw new IllegalStateException("a cell that is not JSON: " + e.getMessage(), e);
    }
  }

  public static ByteString version(long v) {
    return ByteString.copyFrom(ByteBuffer.allocate(8).putLong(v).array());
  }

  public static long version(ByteString b) {
    return b.asReadOnlyByteBuffer().getLong();
  }

  // ------------------------------------------------------------------------------------ buckets

  static ObjectNode bucket(Bucket b) {
    ObjectNode n = Json.MAPPER.createObjectNode();
    n.put("id", b.id());
    n.put("owner", b.owner());
    n.put("created", b.created().toString());
    n.put("versioning", b.versioning().name());
    n.set("attributes", b.attributes());
    return n;
  }

  static Bucket bucket(String name, ObjectNode n) {
    return new Bucket(name, n.get("id").asText(), n.get("owner").asText(),
        Instant.parse(n.get("created").asText()), VersioningState.valueOf(n.get("versioning").asText()),
        (ObjectNode) n.get("attributes"));
  }

  // ----------------------------------------------------------------------------------- versions

  /** A version's cell in its key row (the revision is the column). */
  public static ObjectNode version(ObjectVersion v) {
    ObjectNode n = Json.MAPPER.createObjectNode();
    if (v.nullVersion()) {
      n.put("n", true);
    }
    if (!v.deleteMarker()) {
      n.set("md", Json.MAPPER.valueToTree(v.metadata()));
    }
    return n;
  }

  static ObjectVersion version(String key, VersionId revision, ObjectNode n) {
    JsonNode md = n.get("md");
    return new ObjectVersion(key, revision, n.path("n").asBoolean(false), md == null, false,
        md == null ? null : metadata(md));
  }

  /** The master's cell: the current version with its revision. */
  public static ObjectNode master(ObjectVersion v) {
    ObjectNode n = version(v);
    n.put("r", v.revision().encode());
    return n;
  }

  static ObjectVersion master(String key, ObjectNode n) {
    return version(key, VersionId.decode(n.get("r").asText(), "versionId"), n).withLatest(true);
  }

  static ObjectMetadata metadata(JsonNode md) {
    try {
      return Json.MAPPER.treeToValue(md, ObjectMetadata.class);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  // ------------------------------------------------------------------------------------ uploads

  static ObjectNode upload(MultipartUpload u) {
    ObjectNode n = Json.MAPPER.createObjectNode();
    n.put("at", u.initiated().toString());
    n.set("md", Json.MAPPER.valueToTree(u.metadata()));
    return n;
  }

  static MultipartUpload upload(String key, String uploadId, ObjectNode n) {
    return new MultipartUpload(key, uploadId, Instant.parse(n.get("at").asText()),
        metadata(n.get("md")));
  }

  static ObjectNode part(Part p) {
    ObjectNode n = Json.MAPPER.createObjectNode();
    n.put("n", p.partNumber());
    n.put("sz", p.size());
    n.put("e", p.etag());
    if (p.lastModified() != null) {
      n.put("lm", p.lastModified().toString());
    }
    n.set("dl", locations(p.dataLocations()));
    return n;
  }

  static Part part(ObjectNode n) {
    return new Part(n.get("n").asInt(), n.get("sz").asLong(), n.get("e").asText(),
        n.has("lm") ? Instant.parse(n.get("lm").asText()) : null, locations(n.get("dl")));
  }

  private static ArrayNode locations(List<DataLocation> dl) {
    return Json.MAPPER.valueToTree(dl);
  }

  private static List<DataLocation> locations(JsonNode n) {
    List<DataLocation> out = new ArrayList<>();
    if (n != null) {
      for (JsonNode d : n) {
        out.add(new DataLocation(d.get("store").asText(), d.get("key").asText(),
            d.get("offset").asLong(), d.get("size").asLong()));
      }
    }
    return out;
  }

  // ----------------------------------------------------------------------------------- garbage

  public static ObjectNode garbage(GarbageRecord r) {
    ObjectNode n = Json.MAPPER.createObjectNode();
    n.put("id", r.id());
    n.put("kind", r.kind().name());
    n.put("b", r.bucket());
    n.put("bi", r.bucketId());
    n.put("k", r.key());
    n.put("v", r.versionId());
    n.put("pn", r.partNumber());
    n.put("sz", r.size());
    n.set("dl", locations(r.dataLocations()));
    n.put("at", r.deletedAt().toString());
    return n;
  }

  static GarbageRecord garbage(ObjectNode n) {
    return new GarbageRecord(n.get("id").asText(), GarbageRecord.Kind.valueOf(n.get("kind").asText()),
        text(n, "b"), text(n, "bi"), text(n, "k"), text(n, "v"), n.get("pn").asInt(),
        n.get("sz").asLong(), locations(n.get("dl")), Instant.parse(n.get("at").asText()));
  }

  private static String text(ObjectNode n, String f) {
    JsonNode v = n.get(f);
    return v == null || v.isNull() ? null : v.asText();
  }

  // -------------------------------------------------------------------------------------- usage

  public static final String[] COUNTERS = {"co", "cb", "nv", "nb", "dm", "up", "pb"};

  public static long[] counters(Usage u) {
    return new long[] {u.currentObjects(), u.currentBytes(), u.nonCurrentVersions(),
        u.nonCurrentBytes(), u.deleteMarkers(), u.uploads(), u.partBytes()};
  }

  static Usage usage(long[] c) {
    return new Usage(c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
  }
}
