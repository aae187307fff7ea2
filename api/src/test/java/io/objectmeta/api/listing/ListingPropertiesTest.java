package io.objectmeta.api.listing;

import static io.objectmeta.api.listing.ListingModel.Item;
import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.listing.ListingModel.Result;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.version.VersionId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** The listings against the brute-force {@link ListingModel}, one page and page by page. */
class ListingPropertiesTest {

  private static final List<String> TOKENS = List.of(
      "a", "b", "/", "\0", "\u007f", "\uE000", "\uFFFD", "\uD83D\uDE00");

  @Provide
  Arbitrary<String> keys() {
    return Arbitraries.of(TOKENS).list().ofMinSize(1).ofMaxSize(4).map(l -> String.join("", l));
  }

  @Provide
  Arbitrary<Set<String>> keySets() {
    return keys().set().ofMaxSize(14);
  }

  @Provide
  Arbitrary<String> prefixes() {
    return Arbitraries.of(TOKENS).list().ofMaxSize(2).map(l -> String.join("", l)).injectNull(0.2);
  }

  @Provide
  Arbitrary<String> delimiters() {
    return Arbitraries.of("", "/", "b", "a/", "\uD83D\uDE00", "\uFFFD", "//").injectNull(0.3);
  }

  @Provide
  Arbitrary<String> markers() {
    return keys().injectNull(0.3);
  }

  @Provide
  Arbitrary<Integer> maxKeys() {
    return Arbitraries.oneOf(Arbitraries.integers().between(0, 12), Arbitraries.just(1000));
  }

  // ---- data

  /** One current object per key. */
  static Map<String, List<ObjectVersion>> currentData(Set<String> keys, long seed) {
    Random r = new Random(seed);
    Map<String, List<ObjectVersion>> data = new LinkedHashMap<>();
    for (String k : keys) {
      data.put(k, List.of(ListingModel.object(k,
          new VersionId(1000 + r.nextInt(50), r.nextInt(3), r.nextInt(2)), r.nextBoolean(),
          r.nextInt(100))));
    }
    return data;
  }

  /** 1 to 3 versions per key, newest first, with correct latest flags; some null, some markers. */
  static Map<String, List<ObjectVersion>> versionData(Set<String> keys, long seed) {
    Random r = new Random(seed);
    Map<String, List<ObjectVersion>> data = new LinkedHashMap<>();
    for (String k : keys) {
      int n = 1 + r.nextInt(3);
      TreeSet<VersionId> revs = new TreeSet<>(ListingModel.NEWEST_FIRST);
      while (revs.size() < n) {
        revs.add(new VersionId(1000 + r.nextInt(4), r.nextInt(2), r.nextInt(2)));
      }
      int nullIdx = r.nextInt(3) == 0 ? -1 : r.nextInt(n);
      List<ObjectVersion> vs = new ArrayList<>();
      int i = 0;
      for (VersionId rev : revs) {
        boolean dm = r.nextInt(3) == 0;
        ObjectVersion v = dm ? ListingModel.marker(k, rev, i == nullIdx)
            : ListingModel.object(k, rev, i == nullIdx, r.nextInt(100));
        vs.add(v.withLatest(i == 0));
        i++;
      }
      data.put(k, vs);
    }
    return data;
  }

  /** The same data as a backend would store it: latest flags not to be trusted. */
  static Map<String, List<ObjectVersion>> scrambleLatest(Map<String, List<ObjectVersion>> data,
      long seed) {
    Random r = new Random(seed ^ 0x5DEECE66DL);
    Map<String, List<ObjectVersion>> out = new HashMap<>();
    data.forEach((k, vs) -> out.put(k, vs.stream().map(v -> v.withLatest(r.nextBoolean())).toList()));
    return out;
  }

  static Cursor<ObjectVersion> cursor(Map<String, List<ObjectVersion>> data) {
    return Cursors.ofMap(ListingModel.map(data));
  }

  /** Often an existing key, so that the marker hits a key exactly. */
  static String pickMarker(String marker, Set<String> keys, long seed) {
    Random r = new Random(seed * 31 + 7);
    if (marker != null && !keys.isEmpty() && r.nextBoolean()) {
      List<String> l = new ArrayList<>(keys);
      l.sort(ListingModel.BYTES);
      return l.get(r.nextInt(l.size()));
    }
    return marker;
  }

  static String pickVersionIdMarker(String keyMarker, Map<String, List<ObjectVersion>> data,
      long seed) {
    if (keyMarker == null) {
      return null;
    }
    Random r = new Random(seed * 17 + 3);
    List<ObjectVersion> vs = data.get(keyMarker);
    switch (r.nextInt(4)) {
      case 0:
        return null;
      case 1:
        return VersionId.NULL;
      case 2:
        if (vs != null) {
          return vs.get(r.nextInt(vs.size())).versionId();
        }
        return new VersionId(1000 + r.nextInt(4), r.nextInt(2), r.nextInt(2)).encode();
      default:
        return new VersionId(1000 + r.nextInt(4), r.nextInt(2), r.nextInt(2)).encode();
    }
  }

  // ---- one page against the model

  @Property(tries = 1500)
  void v1MatchesTheModel(@ForAll("keySets") Set<String> keys, @ForAll("prefixes") String prefix,
      @ForAll("delimiters") String delimiter, @ForAll("markers") String marker0,
      @ForAll("maxKeys") int maxKeys, @ForAll long seed) {
    Map<String, List<ObjectVersion>> data = currentData(keys, seed);
    String marker = pickMarker(marker0, keys, seed);
    Result expected = ListingModel.page(ListingModel.items(data, prefix, delimiter, marker, null), maxKeys);

    ListObjectsResult res = Listings.v1(cursor(data), new ListObjectsRequest("b", prefix, delimiter,
        marker, maxKeys, null));

    assertThat(res.contents()).containsExactlyElementsOf(expected.versions());
    assertThat(res.commonPrefixes()).containsExactlyElementsOf(expected.prefixes());
    assertThat(res.truncated()).isEqualTo(expected.truncated());
    boolean hasDelimiter = delimiter != null && !delimiter.isEmpty();
    assertThat(res.nextMarker())
        .isEqualTo(expected.truncated() && hasDelimiter ? expected.last().key() : null);
  }

  private static final ContinuationToken STORE_TOKENS = ContinuationToken.forStore(java.util.UUID.randomUUID());

  @Property(tries = 1500)
  void v2MatchesTheModel(@ForAll("keySets") Set<String> keys, @ForAll("prefixes") String prefix,
      @ForAll("delimiters") String delimiter, @ForAll("markers") String marker0,
      @ForAll("maxKeys") int maxKeys, @ForAll boolean asToken, @ForAll long seed) {
    Map<String, List<ObjectVersion>> data = currentData(keys, seed);
    String marker = pickMarker(marker0, keys, seed);
    Result expected = ListingModel.page(ListingModel.items(data, prefix, delimiter, marker, null), maxKeys);

    ListObjectsV2Request req = new ListObjectsV2Request("b", prefix, delimiter, marker, null, maxKeys, null);
    if (asToken && marker != null) {
      // a continuation token wins over start-after (here one that would list nothing)
      req = req.withContinuationToken(STORE_TOKENS.encode(ContinuationToken.Scope.of("b-id", req), marker))
          .withStartAfter("\uDBFF\uDFFF");
    }
    ListObjectsV2Result res = Listings.v2(cursor(data), req, STORE_TOKENS, "b-id");

    assertThat(res.contents()).containsExactlyElementsOf(expected.versions());
    assertThat(res.commonPrefixes()).containsExactlyElementsOf(expected.prefixes());
    assertThat(res.truncated()).isEqualTo(expected.truncated());
    assertThat(res.keyCount()).isEqualTo(expected.page().size());
    if (expected.truncated()) {
      ContinuationToken.Scope scope = ContinuationToken.Scope.of("b-id", req);
      assertThat(res.nextContinuationToken()).isEqualTo(STORE_TOKENS.encode(scope, expected.last().key()));
      assertThat(STORE_TOKENS.decode(scope, res.nextContinuationToken())).isEqualTo(expected.last().key());
    } else {
      assertThat(res.nextContinuationToken()).isNull();
    }
  }

  @Property(tries = 1500)
  void versionsMatchTheModel(@ForAll("keySets") Set<String> keys, @ForAll("prefixes") String prefix,
      @ForAll("delimiters") String delimiter, @ForAll("markers") String marker0,
      @ForAll("maxKeys") int maxKeys, @ForAll long seed) {
    Map<String, List<ObjectVersion>> data = versionData(keys, seed);
    String keyMarker = pickMarker(marker0, keys, seed);
    String vim = pickVersionIdMarker(keyMarker, data, seed);
    Result expected = ListingModel.page(
        ListingModel.items(data, prefix, delimiter, keyMarker, vim), maxKeys);

    ListVersionsResult res = Listings.versions(cursor(scrambleLatest(data, seed)),
        new ListVersionsRequest("b", prefix, delimiter, keyMarker, vim, maxKeys));

    assertThat(res.versions()).containsExactlyElementsOf(expected.versions());
    assertThat(res.commonPrefixes()).containsExactlyElementsOf(expected.prefixes());
    assertThat(res.truncated()).isEqualTo(expected.truncated());
    if (expected.truncated()) {
      Item last = expected.last();
      assertThat(res.nextKeyMarker()).isEqualTo(last.key());
      assertThat(res.nextVersionIdMarker())
          .isEqualTo(last.version() != null ? last.version().versionId() : null);
    } else {
      assertThat(res.nextKeyMarker()).isNull();
      assertThat(res.nextVersionIdMarker()).isNull();
    }
  }

  // ---- page by page

  @Property(tries = 500)
  void v1PageWalkYieldsTheFullListing(@ForAll("keySets") Set<String> keys,
      @ForAll("prefixes") String prefix, @ForAll("delimiters") String delimiter,
      @ForAll @IntRange(min = 1, max = 4) int pageSize, @ForAll long seed) {
    Map<String, List<ObjectVersion>> data = currentData(keys, seed);
    List<Item> all = ListingModel.items(data, prefix, delimiter, null, null);
    List<Item> walked = new ArrayList<>();
    String marker = null;
    for (int pages = 0; ; pages++) {
      assertThat(pages).as("pages").isLessThanOrEqualTo(all.size() + 1);
      ListObjectsResult res = Listings.v1(cursor(data),
          new ListObjectsRequest("b", prefix, delimiter, marker, pageSize, null));
      List<Item> page = merge(res.contents(), res.commonPrefixes());
      assertThat(page.size()).isLessThanOrEqualTo(pageSize);
      walked.addAll(page);
      if (!res.truncated()) {
        assertThat(res.nextMarker()).isNull();
        break;
      }
      assertThat(page).isNotEmpty();
      String lastKey = page.get(page.size() - 1).key();
      if (delimiter != null && !delimiter.isEmpty()) {
        assertThat(res.nextMarker()).isEqualTo(lastKey);
      } else {
        assertThat(res.nextMarker()).isNull();
      }
      marker = lastKey;
    }
    assertThat(walked).containsExactlyElementsOf(all);
    assertThat(new HashSet<>(walked)).hasSize(walked.size());
  }

  @Property(tries = 500)
  void v2PageWalkYieldsTheFullListing(@ForAll("keySets") Set<String> keys,
      @ForAll("prefixes") String prefix, @ForAll("delimiters") String delimiter,
      @ForAll @IntRange(min = 1, max = 4) int pageSize, @ForAll long seed) {
    Map<String, List<ObjectVersion>> data = currentData(keys, seed);
    List<Item> all = ListingModel.items(data, prefix, delimiter, null, null);
    List<Item> walked = new ArrayList<>();
    String token = null;
    for (int pages = 0; ; pages++) {
      assertThat(pages).as("pages").isLessThanOrEqualTo(all.size() + 1);
      ListObjectsV2Result res = Listings.v2(cursor(data),
          new ListObjectsV2Request("b", prefix, delimiter, null, token, pageSize, null),
          STORE_TOKENS, "b-id");
      List<Item> page = merge(res.contents(), res.commonPrefixes());
      assertThat(res.keyCount()).isEqualTo(page.size());
      walked.addAll(page);
      if (!res.truncated()) {
        assertThat(res.nextContinuationToken()).isNull();
        break;
      }
      assertThat(res.nextContinuationToken()).isNotNull();
      token = res.nextContinuationToken();
    }
    assertThat(walked).containsExactlyElementsOf(all);
  }

  @Property(tries = 500)
  void versionsPageWalkYieldsTheFullListing(@ForAll("keySets") Set<String> keys,
      @ForAll("prefixes") String prefix, @ForAll("delimiters") String delimiter,
      @ForAll @IntRange(min = 1, max = 4) int pageSize, @ForAll long seed) {
    Map<String, List<ObjectVersion>> data = versionData(keys, seed);
    List<Item> all = ListingModel.items(data, prefix, delimiter, null, null);
    Map<String, List<ObjectVersion>> stored = scrambleLatest(data, seed);
    List<Item> walked = new ArrayList<>();
    String keyMarker = null;
    String vim = null;
    for (int pages = 0; ; pages++) {
      assertThat(pages).as("pages").isLessThanOrEqualTo(all.size() + 1);
      ListVersionsResult res = Listings.versions(cursor(stored),
          new ListVersionsRequest("b", prefix, delimiter, keyMarker, vim, pageSize));
      walked.addAll(merge(res.versions(), res.commonPrefixes()));
      if (!res.truncated()) {
        break;
      }
      keyMarker = res.nextKeyMarker();
      vim = res.nextVersionIdMarker();
      assertThat(keyMarker).isNotNull();
    }
    assertThat(walked).containsExactlyElementsOf(all);
  }

  /** Contents and prefixes back into one sequence in key order (a prefix sorts by its text). */
  static List<Item> merge(List<ObjectVersion> versions, List<String> prefixes) {
    List<Item> out = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < versions.size() || j < prefixes.size()) {
      if (j >= prefixes.size()
          || (i < versions.size() && ListingModel.BYTES.compare(versions.get(i).key(), prefixes.get(j)) < 0)) {
        out.add(Item.of(versions.get(i++)));
      } else {
        out.add(Item.of(prefixes.get(j++)));
      }
    }
    return out;
  }
}
