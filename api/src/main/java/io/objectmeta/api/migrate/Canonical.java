package io.objectmeta.api.migrate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.Json;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Part;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;

/**
 * The canonical form of what a verification compares, computed by the same code on both stores:
 * a record as a list of text fields, JSON with object members sorted by name (a database may
 * reorder them: jsonb does), times in whole milliseconds (what every backend keeps). A digest
 * feeds each field length-prefixed, so no two lists of fields hash alike by concatenation.
 */
final class Canonical {
  private Canonical() {}

  /** Key, revision (the null version's too: it fixes its place), null flag, marker, metadata. */
  static List<String> version(ObjectVersion v) {
    return List.of(v.key(), v.revision().encode(), flag(v.nullVersion()), flag(v.deleteMarker()),
        v.deleteMarker() ? "" : json(v.metadata()));
  }

  static List<String> upload(MultipartUpload u) {
    return List.of(u.key(), u.uploadId(), millis(u.initiated()), json(u.metadata()));
  }

  static List<String> part(Part p) {
    return List.of(Integer.toString(p.partNumber()), Long.toString(p.size()), p.etag(),
        millis(p.lastModified()), json(p.dataLocations()));
  }

  /** Every field but the record id, which each store mints for itself. */
  static List<String> garbage(GarbageRecord r) {
    List<String> f = new ArrayList<>();
    f.add(r.kind().name());
    f.add(r.bucket());
    f.add(r.bucketId());
    f.add(nullable(r.key()));
    f.add(nullable(r.versionId()));
    f.add(Integer.toString(r.partNumber()));
    f.add(Long.toString(r.size()));
    f.add(json(r.dataLocations()));
    f.add(millis(r.deletedAt()));
    return f;
  }

  static String millis(Instant t) {
    return t == null ? "-" : Long.toString(t.toEpochMilli());
  }

  private static final ObjectWriter WRITER =
      Json.MAPPER.writer().with(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN);

  /**
   * Compact JSON of a value, object members sorted by name at every depth, numbers as plain
   * decimals without trailing zeros (jsonb keeps 1.50 as 1.50 and prints 1e20 in full).
   */
  static String json(Object value) {
    try {
      return WRITER.writeValueAsString(sorted(Json.MAPPER.valueToTree(value)));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode sorted(JsonNode n) {
    if (n instanceof ObjectNode o) {
      TreeMap<String, JsonNode> members = new TreeMap<>();
      o.fields().forEachRemaining(e -> members.put(e.getKey(), sorted(e.getValue())));
      ObjectNode out = JsonNodeFactory.instance.objectNode();
      members.forEach(out::set);
      return out;
    }
    if (n instanceof ArrayNode a) {
      ArrayNode out = JsonNodeFactory.instance.arrayNode();
      a.forEach(e -> out.add(sorted(e)));
      return out;
    }
    boolean nonFinite = (n.isDouble() || n.isFloat()) && !Double.isFinite(n.doubleValue());
    if (n.isNumber() && !nonFinite) {
      return DecimalNode.valueOf(n.decimalValue().stripTrailingZeros());
    }
    return n;
  }

  private static String flag(boolean b) {
    return b ? "1" : "0";
  }

  /** Null as a string no UTF-8 key or id can be: a lone NUL byte would be a valid key. */
  private static String nullable(String s) {
    return s == null ? "\uFFFF-null" : s;
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Feeds the fields to the digest, each as its UTF-8 length then its bytes. */
  static void update(MessageDigest md, List<String> fields) {
    md.update(ByteBuffer.allocate(4).putInt(fields.size()).array());
    for (String f : fields) {
      byte[] b = f.getBytes(StandardCharsets.UTF_8);
      md.update(ByteBuffer.allocate(4).putInt(b.length).array());
      md.update(b);
    }
  }

  static String hex(byte[] digest) {
    return HexFormat.of().formatHex(digest);
  }

  /**
   * A digest of a multiset: the SHA-256 of each element's fields, summed modulo 2^256. The order
   * in which elements come does not matter (backends break ties in queue time differently), the
   * number of times each comes does.
   */
  static final class MultisetDigest {
    private static final BigInteger MOD = BigInteger.ONE.shiftLeft(256);
    private BigInteger sum = BigInteger.ZERO;

    void add(List<String> fields) {
      MessageDigest md = sha256();
      update(md, fields);
      sum = sum.add(new BigInteger(1, md.digest())).mod(MOD);
    }

    String hex() {
      String h = sum.toString(16);
      return "0".repeat(64 - h.length()) + h;
    }
  }
}
