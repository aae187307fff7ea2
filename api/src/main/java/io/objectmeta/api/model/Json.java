package io.objectmeta.api.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The one Jackson mapper of the model, and the defensive copies its records make. */
public final class Json {
  private Json() {}

  /**
   * A mapper with default settings, plus Blackbird (generated accessors instead of reflection:
   * metadata is encoded and decoded on every database read and write). Thread-safe.
   */
  public static final ObjectMapper MAPPER = new ObjectMapper()
      .registerModule(new com.fasterxml.jackson.module.blackbird.BlackbirdModule());

  /** A deep copy, or an empty object for null. */
  public static ObjectNode copyOrEmpty(ObjectNode node) {
    return node == null ? JsonNodeFactory.instance.objectNode() : node.deepCopy();
  }

  /** A deep copy, or null for null (Java's or JSON's: a stored null reads back as Java null). */
  public static JsonNode copy(JsonNode node) {
    return node == null || node.isNull() || node.isMissingNode() ? null : node.deepCopy();
  }

  /** Parses a JSON object; used by tests and applications holding JSON text. */
  public static ObjectNode object(String json) {
    try {
      JsonNode node = MAPPER.readTree(json);
      if (!(node instanceof ObjectNode o)) {
        throw new IllegalArgumentException("not a JSON object: " + json);
      }
      return o;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** The size in bytes of the compact UTF-8 serialization of a node. */
  public static int serializedSize(JsonNode node) {
    try {
      return node == null ? 0 : MAPPER.writeValueAsBytes(node).length;
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
