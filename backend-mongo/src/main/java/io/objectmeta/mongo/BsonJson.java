package io.objectmeta.mongo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.types.Decimal128;

/**
 * JSON trees to BSON and back, with every field name escaped: {@code %} {@code $} {@code .} and
 * NUL become {@code %25} {@code %24} {@code %2E} {@code %00}. Nothing a user stores (metadata
 * names, attribute names) can then act as an operator or a path, and it reads back unchanged.
 * Numbers keep their JSON kind: int, long, double, and decimal (as Decimal128); an integer too
 * big for a long is kept as its text under the field {@code %n}, which no escaped name can be.
 */
final class BsonJson {
  private BsonJson() {}

  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private static final String BIG = "%n";

  static String escapeName(String name) {
    int n = name.length();
    for (int i = 0; i < n; i++) {
      char c = name.charAt(i);
      if (c == '%' || c == '$' || c == '.' || c == 0) {
        return escapeFrom(name, i);
      }
    }
    return name;
  }

  private static String escapeFrom(String name, int i) {
    StringBuilder b = new StringBuilder(name.length() + 6).append(name, 0, i);
    for (; i < name.length(); i++) {
      char c = name.charAt(i);
      switch (c) {
        case '%' -> b.append("%25");
        case '$' -> b.append("%24");
        case '.' -> b.append("%2E");
        case 0 -> b.append("%00");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  static String unescapeName(String name) {
    if (name.indexOf('%') < 0) {
      return name;
    }
    StringBuilder b = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '%' && i + 2 < name.length()) {
        switch (name.substring(i + 1, i + 3)) {
          case "25" -> b.append('%');
          case "24" -> b.append('$');
          case "2E" -> b.append('.');
          case "00" -> b.append('\0');
          default -> throw new IllegalStateException("not an escaped field name: " + name);
        }
        i += 2;
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  static BsonValue toBson(JsonNode n) {
    if (n == null || n.isNull() || n.isMissingNode()) {
      return BsonNull.VALUE;
    }
    switch (n.getNodeType()) {
      case OBJECT: {
        BsonDocument d = new BsonDocument();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> e = it.next();
          d.put(escapeName(e.getKey()), toBson(e.getValue()));
        }
        return d;
      }
      case ARRAY: {
        BsonArray a = new BsonArray();
        for (JsonNode e : n) {
          a.add(toBson(e));
        }
        return a;
      }
      case STRING:
        return new BsonString(n.textValue());
      case BOOLEAN:
        return BsonBoolean.valueOf(n.booleanValue());
      case BINARY:
        try {
          return new BsonBinary(n.binaryValue());
        } catch (java.io.IOException e) {
          throw new IllegalStateException(e);
        }
      case NUMBER:
        if (n.isInt()) {
          return new BsonInt32(n.intValue());
        }
        if (n.isLong()) {
          return new BsonInt64(n.longValue());
        }
        if (n.isBigInteger()) {
          return new BsonDocument(BIG, new BsonString(n.bigIntegerValue().toString()));
        }
        if (n.isBigDecimal()) {
          return new BsonDecimal128(new Decimal128(n.decimalValue()));
        }
        return new BsonDouble(n.doubleValue());
      default:
        return new BsonString(n.asText());
    }
  }

  static ObjectNode toJsonObject(BsonDocument d) {
    ObjectNode o = F.objectNode();
    for (Map.Entry<String, BsonValue> e : d.entrySet()) {
      o.set(unescapeName(e.getKey()), toJson(e.getValue()));
    }
    return o;
  }

  static JsonNode toJson(BsonValue v) {
    switch (v.getBsonType()) {
      case DOCUMENT: {
        BsonDocument d = v.asDocument();
        if (d.size() == 1 && d.containsKey(BIG)) {
          return F.numberNode(new java.math.BigInteger(d.getString(BIG).getValue()));
        }
        return toJsonObject(d);
      }
      case ARRAY: {
        ArrayNode a = F.arrayNode();
        for (BsonValue e : v.asArray()) {
          a.add(toJson(e));
        }
        return a;
      }
      case STRING:
        return F.textNode(v.asString().getValue());
      case BOOLEAN:
        return F.booleanNode(v.asBoolean().getValue());
      case INT32:
        return F.numberNode(v.asInt32().getValue());
      case INT64:
        return F.numberNode(v.asInt64().getValue());
      case DOUBLE:
        return F.numberNode(v.asDouble().getValue());
      case DECIMAL128: {
        BigDecimal b = v.asDecimal128().getValue().bigDecimalValue();
        return F.numberNode(b);
      }
      case BINARY:
        return F.binaryNode(v.asBinary().getData());
      case NULL:
        return F.nullNode();
      default:
        throw new IllegalStateException("unexpected BSON type " + v.getBsonType());
    }
  }
}
