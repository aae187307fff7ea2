package io.objectmeta.api.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An in-place change to an existing version's metadata (S3's PutObjectTagging, PutObjectAcl,
 * replication status updates): no new version is made. Each non-null field replaces the stored
 * value; null fields are left as they are.
 */
public record ObjectMetadataUpdate(
    Map<String, String> tags, JsonNode acl, String replicationStatus, ObjectNode attributes) {

  public ObjectMetadataUpdate {
    tags = tags == null ? null : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(tags));
    acl = Json.copy(acl);
    attributes = attributes == null ? null : attributes.deepCopy();
  }

  @Override
  public JsonNode acl() {
    return Json.copy(acl);
  }

  @Override
  public ObjectNode attributes() {
    return attributes == null ? null : attributes.deepCopy();
  }

  public static ObjectMetadataUpdate tags(Map<String, String> tags) {
    return new ObjectMetadataUpdate(tags, null, null, null);
  }

  public static ObjectMetadataUpdate acl(JsonNode acl) {
    return new ObjectMetadataUpdate(null, acl, null, null);
  }

  public static ObjectMetadataUpdate replicationStatus(String status) {
    return new ObjectMetadataUpdate(null, null, status, null);
  }

  public static ObjectMetadataUpdate attributes(ObjectNode attributes) {
    return new ObjectMetadataUpdate(null, null, null, attributes);
  }

  /** Applies this change to {@code m}. */
  public ObjectMetadata applyTo(ObjectMetadata m) {
    ObjectMetadata.Builder b = m.toBuilder();
    if (tags != null) {
      b.tags(tags);
    }
    if (acl != null) {
      b.acl(acl);
    }
    if (replicationStatus != null) {
      b.replicationStatus(replicationStatus);
    }
    if (attributes != null) {
      b.attributes(attributes);
    }
    return b.build();
  }
}
