package io.objectmeta.api.listing;

import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.version.VersionId;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A brute-force S3 listing, written plainly and independently of the engine: filter by prefix,
 * group by delimiter, sort by UTF-8 bytes, drop everything up to the marker, cut at max keys.
 */
final class ListingModel {
  private ListingModel() {}

  /** UTF-8 byte order, computed by encoding (not by KeyOrder). */
  static final Comparator<String> BYTES = (a, b) -> Arrays.compareUnsigned(
      a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

  /** Newest first, from the documented meaning of the triple. */
  static final Comparator<VersionId> NEWEST_FIRST = Comparator
      .comparingLong((VersionId v) -> -v.millis())
      .thenComparingInt(v -> -v.counter())
      .thenComparingLong(VersionId::writer);

  /** One listed thing: a common prefix or a version. */
  record Item(String prefix, ObjectVersion version) {
    static Item of(String prefix) {
      return new Item(prefix, null);
    }

    static Item of(ObjectVersion v) {
      return new Item(null, v);
    }

    String key() {
      return prefix != null ? prefix : version.key();
    }
  }

  record Result(List<Item> page, boolean truncated) {
    List<ObjectVersion> versions() {
      return page.stream().filter(i -> i.version() != null).map(Item::version).toList();
    }

    List<String> prefixes() {
      return page.stream().filter(i -> i.prefix() != null).map(Item::prefix).toList();
    }

    Item last() {
      return page.get(page.size() - 1);
    }
  }

  static ObjectVersion object(String key, VersionId rev, boolean isNull, long size) {
    return new ObjectVersion(key, rev, isNull, false, true, ObjectMetadata.builder().size(size).build());
  }

  static ObjectVersion marker(String key, VersionId rev, boolean isNull) {
    return new ObjectVersion(key, rev, isNull, true, true, null);
  }

  /** A map for {@link Cursors#ofMap} ordered by UTF-8 bytes. */
  static NavigableMap<String, List<ObjectVersion>> map(Map<String, List<ObjectVersion>> data) {
    TreeMap<String, List<ObjectVersion>> m = new TreeMap<>(BYTES);
    m.putAll(data);
    return m;
  }

  /**
   * Every eligible item in listing order.
   *
   * @param data each key's versions, newest first
   */
  static List<Item> items(Map<String, List<ObjectVersion>> data, String prefix, String delimiter,
      String keyMarker, String versionIdMarker) {
    String p = prefix == null ? "" : prefix;
    String d = delimiter == null || delimiter.isEmpty() ? null : delimiter;
    List<String> keys = new ArrayList<>(data.keySet());
    keys.sort(BYTES);
    List<Item> out = new ArrayList<>();
    for (String key : keys) {
      if (!key.startsWith(p)) {
        continue;
      }
      List<ObjectVersion> all = data.get(key);
      List<ObjectVersion> eligible;
      if (keyMarker == null || BYTES.compare(key, keyMarker) > 0) {
        eligible = all;
      } else if (key.equals(keyMarker) && versionIdMarker != null) {
        eligible = after(all, versionIdMarker);
      } else {
        eligible = List.of();
      }
      String cp = null;
      if (d != null) {
        int i = key.indexOf(d, p.length());
        if (i >= 0) {
          cp = key.substring(0, i + d.length());
        }
      }
      if (cp != null) {
        if (keyMarker != null && keyMarker.startsWith(cp)) {
          continue; // the marker is inside this common prefix: it was reported already
        }
        if (eligible.isEmpty()) {
          continue;
        }
        if (out.isEmpty() || !cp.equals(out.get(out.size() - 1).prefix())) {
          out.add(Item.of(cp));
        }
      } else {
        for (ObjectVersion v : eligible) {
          out.add(Item.of(v));
        }
      }
    }
    return out;
  }

  private static List<ObjectVersion> after(List<ObjectVersion> all, String versionIdMarker) {
    if (VersionId.NULL.equals(versionIdMarker)) {
      for (int i = 0; i < all.size(); i++) {
        if (all.get(i).nullVersion()) {
          return all.subList(i + 1, all.size());
        }
      }
      return List.of();
    }
    VersionId m = VersionId.decode(versionIdMarker, "versionIdMarker");
    return all.stream().filter(v -> NEWEST_FIRST.compare(v.revision(), m) > 0).toList();
  }

  static Result page(List<Item> items, int maxKeys) {
    if (maxKeys == 0) {
      return new Result(List.of(), false);
    }
    int n = Math.min(maxKeys, items.size());
    return new Result(List.copyOf(items.subList(0, n)), items.size() > maxKeys);
  }
}
