package io.objectmeta.api.versioning;

import io.objectmeta.api.error.InvalidPartException;
import io.objectmeta.api.model.CompletedPart;
import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.model.Usage;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** What completing a multipart upload makes of its parts, written once for every backend. */
public final class MultipartRules {
  private MultipartRules() {}

  /**
   * The object a completion writes: the upload's metadata with size, data locations and etag
   * computed from the named parts.
   *
   * @param initiated the metadata given at initiation
   * @param stored the upload's part records by number
   * @param named the parts the client named, ascending (checked by validation)
   * @throws InvalidPartException a named part is missing or its etag differs
   * @throws io.objectmeta.api.error.InvalidArgumentException the parts add up to more than 5 TiB
   */
  public static ObjectMetadata complete(ObjectMetadata initiated, Map<Integer, Part> stored,
      List<CompletedPart> named) {
    long size = 0;
    List<DataLocation> locations = new ArrayList<>();
    MessageDigest md5 = md5();
    for (CompletedPart c : named) {
      Part p = stored.get(c.partNumber());
      if (p == null) {
        throw new InvalidPartException("parts: part " + c.partNumber() + " was not uploaded");
      }
      if (!unquote(p.etag()).equals(unquote(c.etag()))) {
        throw new InvalidPartException("parts: part " + c.partNumber() + " has etag " + p.etag()
            + ", not " + c.etag());
      }
      for (DataLocation d : p.dataLocations()) {
        locations.add(new DataLocation(d.store(), d.key(), size + d.offset(), d.size()));
      }
      size += p.size();
      md5.update(etagBytes(unquote(p.etag())));
    }
    if (size > io.objectmeta.api.validation.Validation.MAX_OBJECT_SIZE) {
      throw new io.objectmeta.api.error.InvalidArgumentException("parts", "the object would be "
          + size + " bytes, more than S3's largest, " + io.objectmeta.api.validation.Validation.MAX_OBJECT_SIZE
          + " (5 TiB)");
    }
    String etag = HexFormat.of().formatHex(md5.digest()) + "-" + named.size();
    return initiated.toBuilder().size(size).dataLocations(locations).etag(etag).build();
  }

  /** Initiating an upload: one more upload, nothing freed. */
  public static UploadChange initiate() {
    return new UploadChange(Usage.ofUploads(1, 0), List.of());
  }

  /**
   * Storing {@code stored} as its part number, over {@code old} (null: none): the bytes change
   * by the difference, and the replaced part's data is freed.
   */
  public static UploadChange putPart(Part old, Part stored) {
    long was = old == null ? 0 : old.size();
    return new UploadChange(Usage.ofUploads(0, Math.subtractExact(stored.size(), was)),
        old == null ? List.of() : List.of(old));
  }

  /** Aborting an upload with these parts: the upload and its bytes leave, every part is freed. */
  public static UploadChange abort(Map<Integer, Part> parts) {
    return new UploadChange(Usage.ofUploads(-1, -bytes(parts.values())),
        List.copyOf(parts.values()));
  }

  /**
   * Completing an upload with these parts: the upload and its bytes leave the multipart counters
   * (the object's own usage comes with its key change), and the parts left out are freed.
   */
  public static UploadChange completion(Map<Integer, Part> stored, List<CompletedPart> named) {
    return new UploadChange(Usage.ofUploads(-1, -bytes(stored.values())), leftOut(stored, named));
  }

  /** Restoring an upload with these parts (a migration): it counts as new, nothing is freed. */
  public static UploadChange restore(java.util.Collection<Part> parts) {
    return new UploadChange(Usage.ofUploads(1, bytes(parts)), List.of());
  }

  private static long bytes(java.util.Collection<Part> parts) {
    long sum = 0;
    for (Part p : parts) {
      sum = Math.addExact(sum, p.size());
    }
    return sum;
  }

  /** The stored parts that a completion leaves out (their data is garbage). */
  public static List<Part> leftOut(Map<Integer, Part> stored, List<CompletedPart> named) {
    java.util.Set<Integer> used = new java.util.HashSet<>();
    for (CompletedPart c : named) {
      used.add(c.partNumber());
    }
    return stored.values().stream().filter(p -> !used.contains(p.partNumber())).toList();
  }

  private static String unquote(String etag) {
    return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"")
        ? etag.substring(1, etag.length() - 1) : etag;
  }

  /** A hex MD5 etag as its 16 bytes; any other etag as its UTF-8 bytes. */
  private static byte[] etagBytes(String etag) {
    if (etag.length() == 32 && etag.chars().allMatch(c -> (c >= '0' && c <= '9')
        || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
      return HexFormat.of().parseHex(etag);
    }
    return etag.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  private static MessageDigest md5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
