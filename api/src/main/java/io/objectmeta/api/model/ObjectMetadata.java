package io.objectmeta.api.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an application stores about one object version: typed core fields, and a free-form JSON
 * {@code attributes} object for anything else (no schema change needed). Immutable; collections
 * are copies. Size limits are checked by {@code io.objectmeta.api.validation.Validation} and
 * documented there.
 *
 * @param size content length in bytes (>= 0)
 * @param etag the entity tag (as the data path computed it)
 * @param contentType the MIME type, or null
 * @param owner the owner's canonical id, or null
 * @param storageClass the storage class (default {@code STANDARD})
 * @param userMetadata x-amz-meta-* pairs, names lower-cased by the caller
 * @param dataLocations where the data lives, in offset order (what GC frees)
 * @param tags object tags (at most 10)
 * @param acl the access control policy as JSON, or null
 * @param replicationStatus the replication status (PENDING, COMPLETED, FAILED, REPLICA), or null
 * @param attributes free-form JSON (never null)
 */
public record ObjectMetadata(
    long size,
    String etag,
    String contentType,
    String owner,
    String storageClass,
    Map<String, String> userMetadata,
    List<DataLocation> dataLocations,
    Map<String, String> tags,
    JsonNode acl,
    String replicationStatus,
    ObjectNode attributes) {

  public static final String STANDARD = "STANDARD";

  public ObjectMetadata {
    storageClass = storageClass == null ? STANDARD : storageClass;
    userMetadata = userMetadata == null ? Map.of() : immutableOrdered(userMetadata);
    dataLocations = dataLocations == null ? List.of() : List.copyOf(dataLocations);
    tags = tags == null ? Map.of() : immutableOrdered(tags);
    acl = Json.copy(acl);
    attributes = Json.copyOrEmpty(attributes);
  }

  @Override
  public JsonNode acl() {
    return Json.copy(acl);
  }

  @Override
  public ObjectNode attributes() {
    return attributes.deepCopy();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this metadata. */
  public Builder toBuilder() {
    return new Builder()
        .size(size).etag(etag).contentType(contentType).owner(owner).storageClass(storageClass)
        .userMetadata(userMetadata).dataLocations(dataLocations).tags(tags).acl(acl)
        .replicationStatus(replicationStatus).attributes(attributes);
  }

  private static Map<String, String> immutableOrdered(Map<String, String> m) {
    return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(m));
  }

  /** Builds {@link ObjectMetadata}; every field is optional (size defaults to 0). */
  public static final class Builder {
    private long size;
    private String etag;
    private String contentType;
    private String owner;
    private String storageClass;
    private Map<String, String> userMetadata;
    private List<DataLocation> dataLocations;
    private Map<String, String> tags;
    private JsonNode acl;
    private String replicationStatus;
    private ObjectNode attributes;

    public Builder size(long v) {
      size = v;
      return this;
    }

    public Builder etag(String v) {
      etag = v;
      return this;
    }

    public Builder contentType(String v) {
      contentType = v;
      return this;
    }

    public Builder owner(String v) {
      owner = v;
      return this;
    }

    public Builder storageClass(String v) {
      storageClass = v;
      return this;
    }

    public Builder userMetadata(Map<String, String> v) {
      userMetadata = v;
      return this;
    }

    public Builder dataLocations(List<DataLocation> v) {
      dataLocations = v;
      return this;
    }

    public Builder tags(Map<String, String> v) {
      tags = v;
      return this;
    }

    public Builder acl(JsonNode v) {
      acl = v;
      return this;
    }

    public Builder replicationStatus(String v) {
      replicationStatus = v;
      return this;
    }

    public Builder attributes(ObjectNode v) {
      attributes = v;
      return this;
    }

    public ObjectMetadata build() {
      return new ObjectMetadata(size, etag, contentType, owner, storageClass, userMetadata,
          dataLocations, tags, acl, replicationStatus, attributes);
    }
  }
}
