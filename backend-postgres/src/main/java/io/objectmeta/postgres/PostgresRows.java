package io.objectmeta.postgres;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectReader;
import io.objectmeta.api.error.InternalErrorException;
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
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Rows to the model and the model to column values, in one place (Oak's RDBDocumentSerializer):
 * what {@link PostgresSql}'s statements read and bind. JSON columns hold the api's JSON forms.
 */
final class PostgresRows {
  private PostgresRows() {}

  private static final ObjectReader LOCATIONS =
      Json.MAPPER.readerFor(new TypeReference<List<DataLocation>>() {});

  static Bucket bucket(ResultSet rs) throws SQLException {
    return new Bucket(rs.getString("name"), rs.getString("id"), rs.getString("owner"),
        rs.getTimestamp("created").toInstant(), VersioningState.values()[rs.getShort("versioning")],
        Json.object(rs.getString("attributes")));
  }

  private static final ObjectReader METADATA = Json.stored(ObjectMetadata.class);

  /** A version row; its metadata parsed from the column's UTF-8 bytes (no String in between). */
  static ObjectVersion version(ResultSet rs) throws SQLException {
    return raw(rs).version();
  }

  /**
   * A version row's columns as read, to turn into a version after the connection went back to
   * the pool (decoding and parsing JSON need no connection: the pool's other callers wait less).
   */
  record RawVersion(byte[] key, String versionId, boolean isNull, boolean deleteMarker,
      byte[] meta) {
    ObjectVersion version() {
      return new ObjectVersion(new String(key, StandardCharsets.UTF_8),
          VersionId.decode(versionId, "version_id"), isNull, deleteMarker, false,
          deleteMarker ? null : metadata(meta));
    }
  }

  static RawVersion raw(ResultSet rs) throws SQLException {
    return new RawVersion(rs.getBytes("key"), rs.getString("version_id"), rs.getBoolean("is_null"),
        rs.getBoolean("delete_marker"), rs.getBytes("meta"));
  }

  static ObjectMetadata metadata(byte[] json) {
    try {
      return METADATA.readValue(json);
    } catch (java.io.IOException e) {
      throw new InternalErrorException("corrupt record: " + e.getMessage());
    }
  }

  static MultipartUpload upload(ResultSet rs) throws SQLException {
    return new MultipartUpload(new String(rs.getBytes("key"), StandardCharsets.UTF_8),
        rs.getString("upload_id"), rs.getTimestamp("initiated").toInstant(),
        read(rs.getString("meta"), ObjectMetadata.class));
  }

  static Part part(ResultSet rs) throws SQLException {
    return new Part(rs.getInt("part_number"), rs.getLong("size"), rs.getString("etag"),
        rs.getTimestamp("last_modified").toInstant(), locations(rs.getString("locations")));
  }

  /** The summed counters a..g of {@link PostgresSql#USAGE_SUM}. */
  static Usage usage(ResultSet rs) throws SQLException {
    return new Usage(rs.getLong("a"), rs.getLong("b"), rs.getLong("c"), rs.getLong("d"),
        rs.getLong("e"), rs.getLong("f"), rs.getLong("g"));
  }

  /** A version's metadata column: null for a delete marker. */
  static String metaJson(ObjectVersion v) {
    return v.deleteMarker() ? null : json(v.metadata());
  }

  static String json(Object o) {
    try {
      return Json.MAPPER.writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static <T> T read(String json, Class<T> type) {
    try {
      return Json.MAPPER.readValue(json, type);
    } catch (JsonProcessingException e) {
      throw new InternalErrorException("corrupt record: " + e.getOriginalMessage());
    }
  }

  static List<DataLocation> locations(String json) {
    try {
      return LOCATIONS.readValue(json);
    } catch (JsonProcessingException e) {
      throw new InternalErrorException("corrupt record: " + e.getOriginalMessage());
    }
  }
}
