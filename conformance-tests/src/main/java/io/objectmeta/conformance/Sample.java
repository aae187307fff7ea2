package io.objectmeta.conformance;

import io.objectmeta.api.model.DataLocation;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.Part;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/** Sample metadata, parts and data locations the scenarios write. */
public final class Sample {
  private Sample() {}

  /** The data store name every sample location uses. */
  public static final String DATA_STORE = "data-1";

  /** An object of {@code size} bytes whose etag and data key derive from {@code name}. */
  public static ObjectMetadata object(String name, long size) {
    return ObjectMetadata.builder()
        .size(size)
        .etag(md5Hex(name))
        .contentType("application/octet-stream")
        .owner("owner-1")
        .dataLocations(List.of(location(name, 0, size)))
        .build();
  }

  /** An object of 10 bytes. */
  public static ObjectMetadata object(String name) {
    return object(name, 10);
  }

  /** Where a sample's bytes would be: data/NAME, a NUL in the name written %00 (keys may hold NUL, data keys may not). */
  public static DataLocation location(String name, long offset, long size) {
    return new DataLocation(DATA_STORE, "data/" + name.replace("\u0000", "%00"), offset, size);
  }

  /** A part of {@code size} bytes, etag the MD5 of {@code name}, one data location. */
  public static Part part(int number, String name, long size) {
    return Part.of(number, size, md5Hex(name), List.of(location(name, 0, size)));
  }

  /** The hex MD5 of a string: a realistic etag. */
  public static String md5Hex(String s) {
    return HexFormat.of().formatHex(md5(s.getBytes(StandardCharsets.UTF_8)));
  }

  /** S3's multipart etag of parts with these hex etags. */
  public static String multipartEtag(List<String> partEtags) {
    MessageDigest md = digest();
    for (String e : partEtags) {
      md.update(HexFormat.of().parseHex(e));
    }
    return HexFormat.of().formatHex(md.digest()) + "-" + partEtags.size();
  }

  private static byte[] md5(byte[] b) {
    return digest().digest(b);
  }

  private static MessageDigest digest() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
