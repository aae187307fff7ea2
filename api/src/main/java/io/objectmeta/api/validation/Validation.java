package io.objectmeta.api.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.InvalidBucketNameException;
import io.objectmeta.api.error.KeyTooLongException;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.listing.KeyOrder;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.Json;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectMetadataUpdate;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.version.VersionId;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
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
 *   <tr><td>every text field</td><td>no NUL and no unpaired surrogate (databases differ on
 *       both: one refuses NUL, another stores a surrogate as '?'); keys excepted: they are
 *       bytes, NUL included</td></tr>
 *   <tr><td>values sent back as HTTP headers: etag, content type, owner, user metadata values,
 *       tags, replication status</td><td>no control character but tab (no CR, LF, DEL): a
 *       header cannot be split</td></tr>
 *   <tr><td>user metadata</td><td>names are HTTP tokens (RFC 9110: letters, digits and
 *       !#$%&amp;'*+-.^_`|~); names and values together at most 2048 bytes of UTF-8 (S3's
 *       limit)</td></tr>
 *   <tr><td>tags</td><td>at most 10; key 1 to 128 characters, value at most 256 (S3's limits)</td></tr>
 *   <tr><td>etag, content type</td><td>at most 1024 characters</td></tr>
 *   <tr><td>storage class</td><td>one of S3's: STANDARD, REDUCED_REDUNDANCY, STANDARD_IA,
 *       ONEZONE_IA, INTELLIGENT_TIERING, GLACIER, DEEP_ARCHIVE, OUTPOSTS, GLACIER_IR, SNOW,
 *       EXPRESS_ONEZONE</td></tr>
 *   <tr><td>replication status</td><td>1 to 64 characters</td></tr>
 *   <tr><td>data locations</td><td>at most 10000; offset and size not negative</td></tr>
 *   <tr><td>attributes, ACL (object and bucket)</td><td>at most 64 KiB as compact JSON; its
 *       names and strings text as above</td></tr>
 *   <tr><td>size</td><td>0 to 5 TiB (S3's largest object); a part 0 to 5 GiB</td></tr>
 *   <tr><td>batch calls</td><td>1 to 1000 refs</td></tr>
 *   <tr><td>part numbers</td><td>1 to 10000</td></tr>
 *   <tr><td>bucket ids (restores)</td><td>a UUID in canonical lower-case form</td></tr>
 *   <tr><td>GC records per restore, per queue page</td><td>1 to 10000</td></tr>
 *   <tr><td>GC record ids (restores), queue cursors</td><td>1 to 1024 characters</td></tr>
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
  /** S3's largest object: 5 TiB. */
  public static final long MAX_OBJECT_SIZE = 5L << 40;
  /** S3's largest part: 5 GiB. */
  public static final long MAX_PART_SIZE = 5L << 30;
  /** S3's storage classes; a store holds no other. */
  public static final java.util.Set<String> STORAGE_CLASSES = java.util.Set.of("STANDARD",
      "REDUCED_REDUNDANCY", "STANDARD_IA", "ONEZONE_IA", "INTELLIGENT_TIERING", "GLACIER",
      "DEEP_ARCHIVE", "OUTPOSTS", "GLACIER_IR", "SNOW", "EXPRESS_ONEZONE");
  /** RFC 9110's token: what an HTTP field name (and so an x-amz-meta- name) may hold. */
  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

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
    headerValue(field, owner);
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
    uploadId("uploadId", uploadId);
  }

  /** An upload id under another field name. */
  public static void uploadId(String field, String uploadId) {
    if (uploadId == null) {
      throw new InvalidArgumentException(field, "must not be null");
    }
    VersionId.decodeOldestFirst(uploadId, field);
  }

  /**
   * A bucket incarnation id: a UUID in its canonical (lower-case) text form, as every backend
   * mints them; restores keep them, so they must be ids a backend could have minted.
   */
  public static void bucketId(String field, String id) {
    if (id == null) {
      throw new InvalidArgumentException(field, "must not be null");
    }
    boolean canonical;
    try {
      canonical = java.util.UUID.fromString(id).toString().equals(id);
    } catch (IllegalArgumentException e) {
      canonical = false;
    }
    if (!canonical) {
      throw new InvalidArgumentException(field, "must be a UUID in canonical lower-case form, got \""
          + id + "\"");
    }
  }

  /** A part record as a client gives it: number 1 to 10000, size not negative, an etag. */
  public static void part(String field, Part part) {
    notNull(field, part);
    partNumber(field + ".partNumber", part.partNumber());
    if (part.size() < 0 || part.size() > MAX_PART_SIZE) {
      throw new InvalidArgumentException(field + ".size", "must be 0 to " + MAX_PART_SIZE
          + " bytes (5 GiB), got " + part.size());
    }
    notNull(field + ".etag", part.etag());
    maxChars(field + ".etag", part.etag(), 1024);
    headerValue(field + ".etag", part.etag());
    dataLocations(field + ".dataLocations", part.dataLocations());
  }

  /** A JSON object or value of at most 64 KiB. */
  public static void json(String field, JsonNode node) {
    if (node != null) {
      jsonText(field, node);
      int size = Json.serializedSize(node);
      if (size > MAX_JSON_BYTES) {
        throw new InvalidArgumentException(field, "must be at most " + MAX_JSON_BYTES
            + " bytes as JSON, got " + size);
      }
    }
  }

  /** Object metadata against the limits in the class comment. */
  public static void metadata(ObjectMetadata m) {
    metadata("metadata", m);
  }

  /** Object metadata under another field name ({@code versions[2].metadata}, upload metadata). */
  public static void metadata(String field, ObjectMetadata m) {
    if (m == null) {
      throw new InvalidArgumentException(field, "must not be null");
    }
    if (m.size() < 0 || m.size() > MAX_OBJECT_SIZE) {
      throw new InvalidArgumentException(field + ".size", "must be 0 to " + MAX_OBJECT_SIZE
          + " bytes (5 TiB), got " + m.size());
    }
    maxChars(field + ".etag", m.etag(), 1024);
    headerValue(field + ".etag", m.etag());
    maxChars(field + ".contentType", m.contentType(), 1024);
    headerValue(field + ".contentType", m.contentType());
    maxChars(field + ".owner", m.owner(), MAX_OWNER);
    headerValue(field + ".owner", m.owner());
    if (!STORAGE_CLASSES.contains(m.storageClass())) {
      throw new InvalidArgumentException(field + ".storageClass", "must be one of S3's storage"
          + " classes " + new java.util.TreeSet<>(STORAGE_CLASSES) + ", got \""
          + printable(m.storageClass()) + "\"");
    }
    if (m.replicationStatus() != null) {
      nonEmptyMaxChars(field + ".replicationStatus", m.replicationStatus(), 64);
      headerValue(field + ".replicationStatus", m.replicationStatus());
    }
    String userField = field + ".userMetadata";
    int metaBytes = 0;
    for (Map.Entry<String, String> e : m.userMetadata().entrySet()) {
      if (e.getKey() == null || e.getKey().isEmpty()) {
        throw new InvalidArgumentException(userField, "names must not be empty");
      }
      if (e.getValue() == null) {
        throw new InvalidArgumentException(userField, "value of \"" + printable(e.getKey())
            + "\" must not be null");
      }
      if (!TOKEN.matcher(e.getKey()).matches()) {
        throw new InvalidArgumentException(userField, "names must be HTTP tokens (letters, digits"
            + " and !#$%&'*+-.^_`|~: they become x-amz-meta- header names), got \""
            + printable(e.getKey()) + "\"");
      }
      headerValue(userField, e.getValue());
      metaBytes += KeyOrder.utf8Length(e.getKey()) + KeyOrder.utf8Length(e.getValue());
    }
    if (metaBytes > MAX_USER_METADATA_BYTES) {
      throw new InvalidArgumentException(userField, "names and values must be at most "
          + MAX_USER_METADATA_BYTES + " bytes of UTF-8 together, got " + metaBytes);
    }
    tags(field + ".tags", m.tags());
    dataLocations(field + ".dataLocations", m.dataLocations());
    json(field + ".acl", m.acl());
    json(field + ".attributes", m.attributes());
  }

  /** Data locations: at most 10000, offset and size not negative. */
  public static void dataLocations(String field, List<DataLocation> locations) {
    if (locations.size() > MAX_DATA_LOCATIONS) {
      throw new InvalidArgumentException(field, "at most " + MAX_DATA_LOCATIONS
          + " entries, got " + locations.size());
    }
    for (DataLocation d : locations) {
      if (d.offset() < 0 || d.size() < 0) {
        throw new InvalidArgumentException(field, "offset and size must not be negative");
      }
      text(field + ".store", d.store());
      text(field + ".key", d.key());
    }
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
      headerValue("update.replicationStatus", u.replicationStatus());
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
            + " characters (\"" + printable(e.getKey()) + "\")");
      }
      headerValue(field, e.getKey());
      headerValue(field, e.getValue());
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

  /** The longest GC lease: a day (a longer job renews its claim). */
  public static final Duration MAX_LEASE = Duration.ofDays(1);
  /** The longest grace period: 100 years, so that now minus it is a time every store can hold. */
  public static final Duration MAX_GRACE_PERIOD = Duration.ofDays(36_525);

  /** A claim of the GC queue. */
  public static void claim(int max, Duration gracePeriod, Duration lease) {
    if (max < 1 || max > 10_000) {
      throw new InvalidArgumentException("max", "must be 1 to 10000, got " + max);
    }
    gracePeriod("gracePeriod", gracePeriod);
    lease("lease", lease);
  }

  /** A span back from now (a grace period, a time budget): 0 to {@link #MAX_GRACE_PERIOD}. */
  public static void gracePeriod(String field, Duration d) {
    if (d == null || d.isNegative() || d.compareTo(MAX_GRACE_PERIOD) > 0) {
      throw new InvalidArgumentException(field, "must be 0 to " + MAX_GRACE_PERIOD.toDays()
          + " days, got " + d);
    }
  }

  /** A GC lease: more than 0, at most {@link #MAX_LEASE}. */
  public static void lease(String field, Duration lease) {
    if (lease == null || lease.isNegative() || lease.isZero() || lease.compareTo(MAX_LEASE) > 0) {
      throw new InvalidArgumentException(field, "must be more than 0 and at most "
          + MAX_LEASE.toHours() + " hours, got " + lease);
    }
  }

  // ------------------------------------------------------------------------------ restores

  /** GC records per restore call and per {@code listGarbage} page, as per claim. */
  public static final int MAX_GARBAGE_BATCH = 10_000;
  /** Characters of a GC record id given to a restore (its origin) and of a listing cursor. */
  public static final int MAX_RECORD_ID = 1024;

  /** A bucket to restore: name, canonical UUID id, owner, attributes. */
  public static void restoredBucket(Bucket b) {
    notNull("bucket", b);
    bucketName(b.name());
    bucketId("bucket.id", b.id());
    owner("bucket.owner", b.owner());
    json("bucket.attributes", b.attributes());
  }

  /**
   * A key's whole history to restore: at least one version, each of {@code key}, strictly newest
   * first by revision (so no id twice), at most one null version, objects with valid metadata.
   * What the bucket's versioning state allows is checked with the state, by
   * {@link io.objectmeta.api.versioning.KeyWrites#restore}.
   */
  public static void restoredVersions(String key, List<ObjectVersion> versions) {
    if (versions == null || versions.isEmpty()) {
      throw new InvalidArgumentException("versions", "must hold at least one version");
    }
    ObjectVersion nullVersion = null;
    for (int i = 0; i < versions.size(); i++) {
      String field = "versions[" + i + "]";
      ObjectVersion v = notNull(field, versions.get(i));
      if (!v.key().equals(key)) {
        throw new InvalidArgumentException(field + ".key", "must be the key restored, \"" + key
            + "\", got \"" + v.key() + "\"");
      }
      if (i > 0 && v.revision().compareTo(versions.get(i - 1).revision()) <= 0) {
        throw new InvalidArgumentException(field, "versions must be newest first by version id,"
            + " without duplicates: " + v.revision().encode() + " does not follow "
            + versions.get(i - 1).revision().encode());
      }
      if (v.nullVersion()) {
        if (nullVersion != null) {
          throw new InvalidArgumentException(field + ".nullVersion", "a key has at most one null"
              + " version; " + nullVersion.revision().encode() + " is one already");
        }
        nullVersion = v;
      }
      if (!v.deleteMarker()) {
        metadata(field + ".metadata", v.metadata());
      }
    }
  }

  /** An upload to restore with its parts: ids, times and metadata; parts ascending, dated. */
  public static void restoredUpload(MultipartUpload u, List<Part> parts) {
    notNull("upload", u);
    key("upload.key", u.key());
    uploadId("upload.uploadId", u.uploadId());
    notNull("upload.initiated", u.initiated());
    metadata("upload.metadata", u.metadata());
    notNull("parts", parts);
    for (int i = 0; i < parts.size(); i++) {
      String field = "parts[" + i + "]";
      Part p = parts.get(i);
      part(field, p);
      notNull(field + ".lastModified", p.lastModified());
      dataLocations(field + ".dataLocations", p.dataLocations());
      if (i > 0 && p.partNumber() <= parts.get(i - 1).partNumber()) {
        throw new InvalidArgumentException(field + ".partNumber", "part numbers must be strictly"
            + " ascending; " + p.partNumber() + " follows " + parts.get(i - 1).partNumber());
      }
    }
  }

  /**
   * GC records to restore: 1 to 10000, each with an id (its origin), a bucket name and
   * incarnation id, and the fields its kind has: a version's key and version id, a part's key,
   * upload id and number; a BUCKET record has none of those, and no data of its own.
   */
  public static void garbageRecords(List<GarbageRecord> records) {
    if (records == null || records.isEmpty() || records.size() > MAX_GARBAGE_BATCH) {
      throw new InvalidArgumentException("records", "must hold 1 to " + MAX_GARBAGE_BATCH
          + " records, got " + (records == null ? 0 : records.size()));
    }
    for (int i = 0; i < records.size(); i++) {
      String field = "records[" + i + "]";
      GarbageRecord r = notNull(field, records.get(i));
      if (r.id().isEmpty() || r.id().length() > MAX_RECORD_ID) {
        throw new InvalidArgumentException(field + ".id", "must be 1 to " + MAX_RECORD_ID
            + " characters");
      }
      text(field + ".id", r.id());
      try {
        bucketName(r.bucket());
      } catch (InvalidBucketNameException e) {
        throw new InvalidArgumentException(field + ".bucket", e.getMessage());
      }
      bucketId(field + ".bucketId", r.bucketId());
      if (r.size() < 0 || r.size() > MAX_OBJECT_SIZE) {
        throw new InvalidArgumentException(field + ".size", "must be 0 to " + MAX_OBJECT_SIZE
            + " bytes (5 TiB), got " + r.size());
      }
      dataLocations(field + ".dataLocations", r.dataLocations());
      switch (r.kind()) {
        case OBJECT_VERSION -> {
          key(field + ".key", r.key());
          versionId(field + ".versionId", r.versionId());
          noPartNumber(field, r);
        }
        case PART -> {
          key(field + ".key", r.key());
          uploadId(field + ".versionId", r.versionId());
          partNumber(field + ".partNumber", r.partNumber());
        }
        case BUCKET -> {
          none(field + ".key", r.key());
          none(field + ".versionId", r.versionId());
          noPartNumber(field, r);
          if (r.size() != 0 || !r.dataLocations().isEmpty()) {
            throw new InvalidArgumentException(field + ".size", "a BUCKET record holds no data of"
                + " its own (its objects and parts have records of their own)");
          }
        }
      }
    }
  }

  /** A page of the GC queue: a cursor the store returned (or null), 1 to 10000 records. */
  public static void garbageListing(String after, int limit) {
    if (after != null && (after.isEmpty() || after.length() > MAX_RECORD_ID)) {
      throw new InvalidArgumentException("after", "must be a cursor the store returned, or null");
    }
    if (limit < 1 || limit > MAX_GARBAGE_BATCH) {
      throw new InvalidArgumentException("limit", "must be 1 to " + MAX_GARBAGE_BATCH + ", got "
          + limit);
    }
  }

  private static void none(String field, Object value) {
    if (value != null) {
      throw new InvalidArgumentException(field, "a BUCKET record has none");
    }
  }

  private static void noPartNumber(String field, GarbageRecord r) {
    if (r.partNumber() != 0) {
      throw new InvalidArgumentException(field + ".partNumber", "only a PART record has one, got "
          + r.partNumber());
    }
  }

  /** A non-null argument. */
  public static <T> T notNull(String field, T value) {
    if (value == null) {
      throw new InvalidArgumentException(field, "must not be null");
    }
    return value;
  }

  /**
   * Text a database stores as text: no NUL (PostgreSQL's text and jsonb cannot hold it, so the
   * backends would disagree) and no unpaired surrogate (it has no UTF-8 form). Null passes.
   */
  public static void text(String field, String value) {
    if (value == null) {
      return;
    }
    if (value.indexOf('\0') >= 0) {
      throw new InvalidArgumentException(field, "must not contain NUL (U+0000)");
    }
    wellFormed(field, value);
  }

  /**
   * A value an S3 server sends back as an HTTP header (etag, content type, user metadata, owner,
   * tags, storage and replication status): {@link #text} without control characters (RFC 9110's
   * field-value: no CR, LF or other C0 control but tab, no DEL), so it cannot split a header.
   * Null passes.
   */
  public static void headerValue(String field, String value) {
    text(field, value);
    if (value == null) {
      return;
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if ((c < 0x20 && c != '\t') || c == 0x7f) {
        throw new InvalidArgumentException(field, String.format("must not contain control"
            + " characters (U+%04X at %d): it is sent back as an HTTP header", (int) c, i));
      }
    }
  }

  /** Every field name and string of a JSON tree as {@link #text}. */
  private static void jsonText(String field, JsonNode node) {
    if (node.isTextual()) {
      text(field, node.textValue());
    } else if (node.isObject()) {
      for (java.util.Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        text(field, e.getKey());
        jsonText(field, e.getValue());
      }
    } else if (node.isArray()) {
      for (JsonNode n : node) {
        jsonText(field, n);
      }
    }
  }

  /** A value quoted in a message: control characters escaped, at most 64 characters. */
  private static String printable(String s) {
    StringBuilder b = new StringBuilder();
    s.codePoints().limit(64).forEach(c -> {
      if (c < 0x20 || c == 0x7f || (c >= 0xd800 && c <= 0xdfff)) {
        b.append(String.format("\\u%04x", c));
      } else {
        b.appendCodePoint(c);
      }
    });
    return b.toString();
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
