package io.objectmeta.api.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.InvalidBucketNameException;
import io.objectmeta.api.error.KeyTooLongException;
import io.objectmeta.api.listing.KeyOrder;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.Json;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectMetadataUpdate;
import io.objectmeta.api.version.VersionId;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Every rule an input must keep before it reaches a backend. Each failure is a typed error whose
 * message names the field and the rule. The limits:
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><td>bucket name</td><td>S3's rules: 3-63 characters of a-z, 0-9, '.', '-'; starts and
 *       ends with a letter or digit; no '..'; not an IPv4 address; no reserved prefix
 *       (xn--, sthree-, amzn-s3-demo-) or suffix (-s3alias, --ol-s3, .mrap, --x-s3, --table-s3)</td></tr>
 *   <tr><td>key</td><td>1 to 1024 bytes of UTF-8, any character (NUL included); no unpaired
 *       surrogate (it has no UTF-8 form)</td></tr>
 *   <tr><td>prefix, delimiter, markers</td><td>at most 1024 bytes of UTF-8, well-formed</td></tr>
 *   <tr><td>max keys, max uploads, max parts, max buckets</td><td>0 to 1000</td></tr>
 *   <tr><td>owner</td><td>1 to 256 characters</td></tr>
 *   <tr><td>user metadata</td><td>names non-empty; names and values together at most 2048
 *       bytes of UTF-8 (S3's limit)</td></tr>
 *   <tr><td>tags</td><td>at most 10; key 1 to 128 characters, value at most 256 (S3's limits)</td></tr>
 *   <tr><td>etag, content type</td><td>at most 1024 characters</td></tr>
 *   <tr><td>storage class, replication status</td><td>1 to 64 characters</td></tr>
 *   <tr><td>data locations</td><td>at most 10000; offset and size not negative</td></tr>
 *   <tr><td>attributes, ACL (object and bucket)</td><td>at most 64 KiB as compact JSON</td></tr>
 *   <tr><td>size</td><td>not negative</td></tr>
 *   <tr><td>batch calls</td><td>1 to 1000 refs</td></tr>
 *   <tr><td>part numbers</td><td>1 to 10000</td></tr>
 * </table>
 */
public final class Validation {
  private Validation() {}

  public static final int MAX_KEY_BYTES = 1024;
  public static final int MAX_KEYS = 1000;
  public static final int MAX_USER_METADATA_BYTES = 2048;
  public static final int MAX_TAGS = 10;
  public static final int MAX_TAG_KEY = 128;
  public static final int MAX_TAG_VALUE = 256;
  public static final int MAX_JSON_BYTES = 64 * 1024;
  public static final int MAX_DATA_LOCATIONS = 10_000;
  public static final int MAX_PART_NUMBER = 10_000;
  public static final int MAX_BATCH = 1000;
  public static final int MAX_OWNER = 256;

  private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
  private static final String[] RESERVED_PREFIXES = {"xn--", "sthree-", "amzn-s3-demo-"};
  private static final String[] RESERVED_SUFFIXES = {"-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3"};

  /** S3's bucket naming rules. */
  public static void bucketName(String name) {
    if (name == null) {
      throw new InvalidBucketNameException("bucket: must not be null");
    }
    if (name.length() < 3 || name.length() > 63) {
      throw new InvalidBucketNameException("bucket: must be 3 to 63 characters long: \"" + name + "\"");
    }
    if (!BUCKET.matcher(name).matches()) {
      throw new InvalidBucketNameException("bucket: only lowercase letters, digits, '.' and '-',"
          + " starting and ending with a letter or digit: \"" + name + "\"");
    }
    if (name.contains("..")) {
      throw new InvalidBucketNameException("bucket: must not contain two adjacent periods: \"" + name + "\"");
    }
    if (IPV4.matcher(name).matches()) {
      throw new InvalidBucketNameException("bucket: must not be formatted as an IP address: \"" + name + "\"");
    }
    for (String p : RESERVED_PREFIXES) {
      if (name.startsWith(p)) {
        throw new InvalidBucketNameException("bucket: must not start with the reserved prefix \""
            + p + "\": \"" + name + "\"");
      }
    }
    for (String s : RESERVED_SUFFIXES) {
      if (name.endsWith(s)) {
        throw new InvalidBucketNameException("bucket: must not end with the reserved suffix \""
            + s + "\": \"" + name + "\"");
      }
    }
  }

  /** A key: 1 to 1024 bytes of UTF-8, well-formed. */
  public static void key(String key) {
    key("key", key);
  }

  /** A key under another field name (batch refs, uploads). */
  public static void key(String field, String key) {
    if (key == null || key.isEmpty()) {
      throw new InvalidArgumentException(field, "must be 1 to " + MAX_KEY_BYTES + " bytes of UTF-8, got none");
    }
    wellFormed(field, key);
    int bytes = KeyOrder.utf8Length(key);
    if (bytes > MAX_KEY_BYTES) {
      throw new KeyTooLongException(field + ": must be at most " + MAX_KEY_BYTES
          + " bytes of UTF-8, got " + bytes);
    }
  }

  /** A prefix, delimiter or marker: null, or at most 1024 bytes of well-formed UTF-8. */
  public static void optionalKeyLike(String field, String value) {
    if (value == null) {
      return;
    }
    wellFormed(field, value);
    int bytes = KeyOrder.utf8Length(value);
    if (bytes > MAX_KEY_BYTES) {
      throw new InvalidArgumentException(field, "must be at most " + MAX_KEY_BYTES
          + " bytes of UTF-8, got " + bytes);
    }
  }

  /** max-keys and its kin: 0 to 1000. */
  public static void maxKeys(String field, int value) {
    if (value < 0 || value > MAX_KEYS) {
      throw new InvalidArgumentException(field, "must be 0 to " + MAX_KEYS + ", got " + value);
    }
  }

  /** An owner id: 1 to 256 characters. */
  public static void owner(String field, String owner) {
    if (owner == null || owner.isEmpty() || owner.length() > MAX_OWNER) {
      throw new InvalidArgumentException(field, "must be 1 to " + MAX_OWNER + " characters");
    }
  }

  /** A version id given by a client: "null" or one this library minted. */
  public static void versionId(String field, String versionId) {
    if (versionId == null) {
      throw new InvalidArgumentException(field, "must not be null");
    }
    if (!VersionId.NULL.equals(versionId)) {
      VersionId.decode(versionId, field);
    }
  }

  /** An upload id this library minted. */
  public static void uploadId(String uploadId) {
    if (uploadId == null) {
      throw new InvalidArgumentException("uploadId", "must not be null");
    }
    VersionId.decodeOldestFirst(uploadId, "uploadId");
  }

  /** A JSON object or value of at most 64 KiB. */
  public static void json(String field, JsonNode node) {
    if (node != null) {
      int size = Json.serializedSize(node);
      if (size > MAX_JSON_BYTES) {
        throw new InvalidArgumentException(field, "must be at most " + MAX_JSON_BYTES
            + " bytes as JSON, got " + size);
      }
    }
  }

  /** Object metadata against the limits in the class comment. */
  public static void metadata(ObjectMetadata m) {
    if (m == null) {
      throw new InvalidArgumentException("metadata", "must not be null");
    }
    if (m.size() < 0) {
      throw new InvalidArgumentException("metadata.size", "must not be negative, got " + m.size());
    }
    maxChars("metadata.etag", m.etag(), 1024);
    maxChars("metadata.contentType", m.contentType(), 1024);
    maxChars("metadata.owner", m.owner(), MAX_OWNER);
    nonEmptyMaxChars("metadata.storageClass", m.storageClass(), 64);
    if (m.replicationStatus() != null) {
      nonEmptyMaxChars("metadata.replicationStatus", m.replicationStatus(), 64);
    }
    int metaBytes = 0;
    for (Map.Entry<String, String> e : m.userMetadata().entrySet()) {
      if (e.getKey() == null || e.getKey().isEmpty()) {
        throw new InvalidArgumentException("metadata.userMetadata", "names must not be empty");
      }
      if (e.getValue() == null) {
        throw new InvalidArgumentException("metadata.userMetadata", "value of \"" + e.getKey()
            + "\" must not be null");
      }
      wellFormed("metadata.userMetadata", e.getKey());
      wellFormed("metadata.userMetadata", e.getValue());
      metaBytes += KeyOrder.utf8Length(e.getKey()) + KeyOrder.utf8Length(e.getValue());
    }
    if (metaBytes > MAX_USER_METADATA_BYTES) {
      throw new InvalidArgumentException("metadata.userMetadata", "names and values must be at most "
          + MAX_USER_METADATA_BYTES + " bytes of UTF-8 together, got " + metaBytes);
    }
    tags("metadata.tags", m.tags());
    if (m.dataLocations().size() > MAX_DATA_LOCATIONS) {
      throw new InvalidArgumentException("metadata.dataLocations", "at most " + MAX_DATA_LOCATIONS
          + " entries, got " + m.dataLocations().size());
    }
    for (DataLocation d : m.dataLocations()) {
      if (d.offset() < 0 || d.size() < 0) {
        throw new InvalidArgumentException("metadata.dataLocations", "offset and size must not be negative");
      }
    }
    json("metadata.acl", m.acl());
    json("metadata.attributes", m.attributes());
  }

  /** An in-place metadata update. */
  public static void metadataUpdate(ObjectMetadataUpdate u) {
    if (u == null) {
      throw new InvalidArgumentException("update", "must not be null");
    }
    if (u.tags() != null) {
      tags("update.tags", u.tags());
    }
    if (u.replicationStatus() != null) {
      nonEmptyMaxChars("update.replicationStatus", u.replicationStatus(), 64);
    }
    json("update.acl", u.acl());
    json("update.attributes", u.attributes());
  }

  /** Tags: at most 10, key 1-128 characters, value at most 256. */
  public static void tags(String field, Map<String, String> tags) {
    if (tags.size() > MAX_TAGS) {
      throw new InvalidArgumentException(field, "at most " + MAX_TAGS + " tags, got " + tags.size());
    }
    for (Map.Entry<String, String> e : tags.entrySet()) {
      // S3 counts tag lengths in Unicode characters, not UTF-16 units.
      if (e.getKey() == null || e.getKey().isEmpty()
          || e.getKey().codePointCount(0, e.getKey().length()) > MAX_TAG_KEY) {
        throw new InvalidArgumentException(field, "tag keys must be 1 to " + MAX_TAG_KEY + " characters");
      }
      if (e.getValue() == null
          || e.getValue().codePointCount(0, e.getValue().length()) > MAX_TAG_VALUE) {
        throw new InvalidArgumentException(field, "tag values must be 0 to " + MAX_TAG_VALUE
            + " characters (\"" + e.getKey() + "\")");
      }
    }
  }

  /** A batch: 1 to 1000 entries. */
  public static void batchSize(String field, Collection<?> refs) {
    if (refs == null || refs.isEmpty() || refs.size() > MAX_BATCH) {
      throw new InvalidArgumentException(field, "must hold 1 to " + MAX_BATCH + " entries, got "
          + (refs == null ? 0 : refs.size()));
    }
  }

  /** A part number: 1 to 10000. */
  public static void partNumber(String field, int n) {
    if (n < 1 || n > MAX_PART_NUMBER) {
      throw new InvalidArgumentException(field, "must be 1 to " + MAX_PART_NUMBER + ", got " + n);
    }
  }

  /** A claim of the GC queue. */
  public static void claim(int max, Duration gracePeriod, Duration lease) {
    if (max < 1 || max > 10_000) {
      throw new InvalidArgumentException("max", "must be 1 to 10000, got " + max);
    }
    if (gracePeriod == null || gracePeriod.isNegative()) {
      throw new InvalidArgumentException("gracePeriod", "must not be negative");
    }
    if (lease == null || lease.isNegative() || lease.isZero()) {
      throw new InvalidArgumentException("lease", "must be positive");
    }
  }

  /** A non-null argument. */
  public static <T> T notNull(String field, T value) {
    if (value == null) {
      throw new InvalidArgumentException(field, "must not be null");
    }
    return value;
  }

  private static void wellFormed(String field, String value) {
    if (!KeyOrder.isWellFormed(value)) {
      throw new InvalidArgumentException(field, "must be well-formed Unicode (an unpaired surrogate"
          + " has no UTF-8 form)");
    }
  }

  private static void maxChars(String field, String value, int max) {
    if (value != null && value.length() > max) {
      throw new InvalidArgumentException(field, "must be at most " + max + " characters, got "
          + value.length());
    }
  }

  private static void nonEmptyMaxChars(String field, String value, int max) {
    if (value == null || value.isEmpty() || value.length() > max) {
      throw new InvalidArgumentException(field, "must be 1 to " + max + " characters");
    }
  }
}
