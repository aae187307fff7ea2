package io.objectmeta.bigtable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import io.objectmeta.api.model.Json;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/**
 * What is left of a write after its commit (the check-and-mutate of its key or upload row): the
 * usage counter step, the GC records to queue, rows to remove, whether the master follows, and
 * whether the row goes when the intent is cleared. Stored in the row it was committed to, so a
 * crash between steps leaves it there for the next reader, writer or the repair to roll forward;
 * every step is idempotent.
 *
 * @param tag unique per write: the applied marker of the usage step, the held mark of its GC
 *     records
 * @param since when the write (or the repairer that took it over) started applying it, epoch ms
 * @param shard the usage counter shard
 * @param usage the usage delta, {@link Codec#COUNTERS} order
 * @param garbage GC records (full JSON, ids assigned)
 * @param deletes rows of the objects table to remove (a completed upload)
 * @param master whether the master row must follow the key row
 * @param drop whether the row is removed when the intent is cleared (nothing left in it)
 *
 * <p>Public for the bench's raw baseline, which records the same intents.
 */
public record Intent(String tag, long since, int shard, long[] usage, List<ObjectNode> garbage,
    List<ByteString> deletes, boolean master, boolean drop) {

  public static String newTag() {
    return UUID.randomUUID().toString().replace("-", "");
  }

  public boolean countsUsage() {
    for (long u : usage) {
      if (u != 0) {
        return true;
      }
    }
    return false;
  }

  Intent since(long ms) {
    return new Intent(tag, ms, shard, usage, garbage, deletes, master, drop);
  }

  public ByteString encode() {
    ObjectNode n = Json.MAPPER.createObjectNode();
    n.put("t", tag);
    n.put("p", since);
    n.put("s", shard);
    ArrayNode u = n.putArray("u");
    for (long x : usage) {
      u.add(x);
    }
    ArrayNode g = n.putArray("g");
    garbage.forEach(g::add);
    ArrayNode d = n.putArray("x");
    for (ByteString row : deletes) {
      d.add(Base64.getEncoder().encodeToString(row.toByteArray()));
    }
    n.put("m", master);
    n.put("drop", drop);
    return Codec.bytes(n);
  }

  static Intent decode(ByteString b) {
    ObjectNode n = Codec.json(b);
    long[] u = new long[Codec.COUNTERS.length];
    int i = 0;
    for (JsonNode x : n.get("u")) {
      u[i++] = x.asLong();
    }
    List<ObjectNode> g = new ArrayList<>();
    for (JsonNode x : n.get("g")) {
      g.add((ObjectNode) x);
    }
    List<ByteString> d = new ArrayList<>();
    for (JsonNode x : n.get("x")) {
      d.add(ByteString.copyFrom(Base64.getDecoder().decode(x.asText())));
    }
    return new Intent(n.get("t").asText(), n.get("p").asLong(), n.get("s").asInt(), u, g, d,
        n.get("m").asBoolean(), n.get("drop").asBoolean());
  }
}
