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
   * A strict mapper, plus Blackbird (generated accessors instead of reflection: metadata is
   * encoded and decoded on every database read and write). Thread-safe. JSON is read as written:
   * a document with anything after it, a field twice, a number with a fraction (or a string) where
   * an integer belongs, a null for a number, or an unknown field is refused, never guessed at.
   */
  public static final ObjectMapper MAPPER = com.fasterxml.jackson.databind.json.JsonMapper.builder()
      .addModule(new com.fasterxml.jackson.module.blackbird.BlackbirdModule())
      .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .disable(com.fasterxml.jackson.databind.DeserializationFeature.ACCEPT_FLOAT_AS_INT)
      .disable(com.fasterxml.jackson.databind.MapperFeature.ALLOW_COERCION_OF_SCALARS)
      .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .build();

  private static final java.util.Map<Class<?>, com.fasterxml.jackson.databind.ObjectReader> STORED =
      new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * A reader of records a backend wrote itself with {@link #MAPPER} (a metadata column or cell
   * read back): as strict, except that it does not look for a field twice (the mapper never
   * writes one), which costs a set per object on every row a listing reads. Cached per type.
   */
  public static com.fasterxml.jackson.databind.ObjectReader stored(Class<?> type) {
    return STORED.computeIfAbsent(type, t -> MAPPER.readerFor(t)
        .without(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION));
  }

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
