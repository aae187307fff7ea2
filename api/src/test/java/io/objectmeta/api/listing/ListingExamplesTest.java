package io.objectmeta.api.listing;

import static io.objectmeta.api.listing.ListingModel.marker;
import static io.objectmeta.api.listing.ListingModel.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.version.VersionId;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class ListingExamplesTest {

  private static int rev = 0;

  private static VersionId nextRev() {
    rev++;
    return new VersionId(1_000_000 + rev, 0, 1);
  }

  /** Current objects, one per key. */
  private static Cursor<ObjectVersion> objects(String... keys) {
    Map<String, List<ObjectVersion>> m = new LinkedHashMap<>();
    for (String k : keys) {
      m.put(k, List.of(object(k, nextRev(), false, 1)));
    }
    return Cursors.ofMap(ListingModel.map(m));
  }

  private static List<String> keysOf(List<ObjectVersion> vs) {
    return vs.stream().map(ObjectVersion::key).toList();
  }

  private static ListObjectsResult v1(ListObjectsRequest r, String... keys) {
    return Listings.v1(objects(keys), r);
  }

  private static ListObjectsRequest req() {
    return ListObjectsRequest.of("bucket");
  }

  private static void invalid(String field, Executable call) {
    InvalidArgumentException e = catchThrowableOfType(InvalidArgumentException.class, () -> call.execute());
    assertThat(e).as("expected InvalidArgumentException on " + field).isNotNull();
    assertThat(e.field()).isEqualTo(field);
    assertThat(e.getMessage()).startsWith(field + ": ");
  }

  // ---- V1

  @Test
  void maxKeysZeroIsAnEmptyNonTruncatedPage() {
    ListObjectsResult r = v1(req().withMaxKeys(0).withDelimiter("/"), "a", "b/c");
    assertThat(r.contents()).isEmpty();
    assertThat(r.commonPrefixes()).isEmpty();
    assertThat(r.truncated()).isFalse();
    assertThat(r.nextMarker()).isNull();

    ListObjectsV2Result r2 = v2(objects("a", "b"), ListObjectsV2Request.of("bucket").withMaxKeys(0));
    assertThat(r2.contents()).isEmpty();
    assertThat(r2.truncated()).isFalse();
    assertThat(r2.nextContinuationToken()).isNull();
    assertThat(r2.keyCount()).isZero();

    ListVersionsResult rv = Listings.versions(objects("a"), ListVersionsRequest.of("bucket").withMaxKeys(0));
    assertThat(rv.versions()).isEmpty();
    assertThat(rv.truncated()).isFalse();
    assertThat(rv.nextKeyMarker()).isNull();
  }

  @Test
  void defaultRequestListsEverythingInUtf8Order() {
    String emoji = "\uD83D\uDE00";
    ListObjectsResult r = v1(req(), emoji, "\uFFFD", "b", "a", "\uE000");
    assertThat(keysOf(r.contents())).containsExactly("a", "b", "\uE000", "\uFFFD", emoji);
    assertThat(r.truncated()).isFalse();
    assertThat(r.nextMarker()).isNull();
    assertThat(ListObjectsRequest.DEFAULT_MAX_KEYS).isEqualTo(1000);
    assertThat(req().maxKeys()).isEqualTo(1000);
  }

  @Test
  void nextMarkerOnlyWhenTruncatedAndADelimiterIsGiven() {
    ListObjectsResult noDelimiter = v1(req().withMaxKeys(2), "a", "b", "c");
    assertThat(keysOf(noDelimiter.contents())).containsExactly("a", "b");
    assertThat(noDelimiter.truncated()).isTrue();
    assertThat(noDelimiter.nextMarker()).isNull();

    ListObjectsResult emptyDelimiter = v1(req().withMaxKeys(2).withDelimiter(""), "a", "b", "c/d");
    assertThat(emptyDelimiter.truncated()).isTrue();
    assertThat(emptyDelimiter.commonPrefixes()).isEmpty();
    assertThat(emptyDelimiter.nextMarker()).isNull();

    ListObjectsResult withDelimiter = v1(req().withMaxKeys(2).withDelimiter("/"), "a", "b", "c");
    assertThat(withDelimiter.truncated()).isTrue();
    assertThat(withDelimiter.nextMarker()).isEqualTo("b");

    ListObjectsResult endsOnPrefix = v1(req().withMaxKeys(2).withDelimiter("/"), "a", "b/1", "b/2", "c");
    assertThat(keysOf(endsOnPrefix.contents())).containsExactly("a");
    assertThat(endsOnPrefix.commonPrefixes()).containsExactly("b/");
    assertThat(endsOnPrefix.truncated()).isTrue();
    assertThat(endsOnPrefix.nextMarker()).isEqualTo("b/");

    ListObjectsResult complete = v1(req().withMaxKeys(3).withDelimiter("/"), "a", "b", "c");
    assertThat(complete.truncated()).isFalse();
    assertThat(complete.nextMarker()).isNull();
  }

  @Test
  void truncatedOnlyIfSomethingFollows() {
    ListObjectsResult exact = v1(req().withMaxKeys(2), "a", "b");
    assertThat(exact.truncated()).isFalse();
    ListObjectsResult prefixesCount = v1(req().withMaxKeys(2).withDelimiter("/"), "a/1", "a/2", "b/1", "c");
    assertThat(prefixesCount.commonPrefixes()).containsExactly("a/", "b/");
    assertThat(prefixesCount.contents()).isEmpty();
    assertThat(prefixesCount.truncated()).isTrue();
    assertThat(prefixesCount.nextMarker()).isEqualTo("b/");
    ListObjectsResult rest = v1(req().withMaxKeys(2).withDelimiter("/").withMarker("b/"), "a/1", "a/2", "b/1", "c");
    assertThat(keysOf(rest.contents())).containsExactly("c");
    assertThat(rest.commonPrefixes()).isEmpty();
    assertThat(rest.truncated()).isFalse();
    ListObjectsResult lastIsPrefix = v1(req().withMaxKeys(2).withDelimiter("/"), "a", "b/1", "b/2");
    assertThat(lastIsPrefix.truncated()).isFalse();
  }

  @Test
  void markerIsExclusive() {
    ListObjectsResult r = v1(req().withMarker("b"), "a", "b", "c");
    assertThat(keysOf(r.contents())).containsExactly("c");
    ListObjectsResult between = v1(req().withMarker("bb"), "a", "b", "c");
    assertThat(keysOf(between.contents())).containsExactly("c");
    ListObjectsResult prefixOfKey = v1(req().withMarker("b"), "b", "b\0", "ba");
    assertThat(keysOf(prefixOfKey.contents())).containsExactly("b\0", "ba");
  }

  @Test
  void markerInsideACommonPrefixSkipsThatPrefix() {
    String[] keys = {"a/1", "a/2", "a/3", "b"};
    ListObjectsRequest r = req().withDelimiter("/");
    assertThat(v1(r.withMarker("a/1"), keys).commonPrefixes()).isEmpty();
    assertThat(keysOf(v1(r.withMarker("a/1"), keys).contents())).containsExactly("b");
    assertThat(v1(r.withMarker("a/"), keys).commonPrefixes()).isEmpty();
    assertThat(keysOf(v1(r.withMarker("a/zzz"), keys).contents())).containsExactly("b");
    // a marker just before the prefix does not hide it
    assertThat(v1(r.withMarker("a"), keys).commonPrefixes()).containsExactly("a/");
    // under a prefix
    ListObjectsRequest under = req().withPrefix("p/").withDelimiter("/");
    String[] nested = {"p/a/1", "p/a/2", "p/b", "p/c/1", "q"};
    ListObjectsResult res = v1(under.withMarker("p/a/1"), nested);
    assertThat(keysOf(res.contents())).containsExactly("p/b");
    assertThat(res.commonPrefixes()).containsExactly("p/c/");
  }

  @Test
  void markerBeforeThePrefixIsIgnoredAndPastItGivesNothing() {
    String[] keys = {"a", "b1", "b2", "c"};
    ListObjectsResult before = v1(req().withPrefix("b").withMarker("a"), keys);
    assertThat(keysOf(before.contents())).containsExactly("b1", "b2");
    ListObjectsResult inside = v1(req().withPrefix("b").withMarker("b1"), keys);
    assertThat(keysOf(inside.contents())).containsExactly("b2");
    ListObjectsResult equalToPrefix = v1(req().withPrefix("b").withMarker("b"), keys);
    assertThat(keysOf(equalToPrefix.contents())).containsExactly("b1", "b2");
    ListObjectsResult past = v1(req().withPrefix("b").withMarker("c"), keys);
    assertThat(past.contents()).isEmpty();
    assertThat(past.truncated()).isFalse();
    ListObjectsResult pastWithDelimiter = v1(req().withPrefix("b").withDelimiter("/").withMarker("ba"), keys);
    assertThat(pastWithDelimiter.contents()).isEmpty();
    assertThat(pastWithDelimiter.truncated()).isFalse();
  }

  @Test
  void prefixBoundsTheScan() {
    ListObjectsResult r = v1(req().withPrefix("b"), "a", "b", "b/x", "ba", "c");
    assertThat(keysOf(r.contents())).containsExactly("b", "b/x", "ba");
    ListObjectsResult emoji = v1(req().withPrefix("\uFFFD"), "\uFFFD", "\uFFFDx", "\uD83D\uDE00");
    assertThat(keysOf(emoji.contents())).containsExactly("\uFFFD", "\uFFFDx");
  }

  @Test
  void keyEqualToACommonPrefixRollsUp() {
    ListObjectsResult r = v1(req().withDelimiter("/"), "a/", "a/x", "b");
    assertThat(r.commonPrefixes()).containsExactly("a/");
    assertThat(keysOf(r.contents())).containsExactly("b");
    ListObjectsResult alone = v1(req().withDelimiter("/"), "a/");
    assertThat(alone.commonPrefixes()).containsExactly("a/");
    assertThat(alone.contents()).isEmpty();
    ListObjectsResult underPrefix = v1(req().withPrefix("a/").withDelimiter("/"), "a/", "a/x", "a/y/z");
    assertThat(keysOf(underPrefix.contents())).containsExactly("a/", "a/x");
    assertThat(underPrefix.commonPrefixes()).containsExactly("a/y/");
  }

  @Test
  void delimiterAtTheFirstOccurrenceAfterThePrefix() {
    ListObjectsResult r = v1(req().withPrefix("a/").withDelimiter("/"), "a/b/c/d", "a/e");
    assertThat(r.commonPrefixes()).containsExactly("a/b/");
    assertThat(keysOf(r.contents())).containsExactly("a/e");
    ListObjectsResult multi = v1(req().withDelimiter("--"), "x--y--z", "x-y", "w");
    assertThat(multi.commonPrefixes()).containsExactly("x--");
    assertThat(keysOf(multi.contents())).containsExactly("w", "x-y");
    assertThat(ListingEngine.commonPrefix("a/b/c", "a/", "/")).isEqualTo("a/b/");
    assertThat(ListingEngine.commonPrefix("a/b/c", "", "/")).isEqualTo("a/");
    assertThat(ListingEngine.commonPrefix("abc", "", "/")).isNull();
    assertThat(ListingEngine.commonPrefix("a/", "a/", "/")).isNull();
    assertThat(ListingEngine.commonPrefix("a//b", "a/", "//")).isNull();
    assertThat(ListingEngine.commonPrefix("aXYb", "", "XY")).isEqualTo("aXY");
  }

  @Test
  void commonPrefixWithNoSuccessorEndsTheScan() {
    String max = "\uDBFF\uDFFF";
    String[] keys = {"a", max + "x", max + "y"};
    ListObjectsResult r = v1(req().withDelimiter(max), keys);
    assertThat(keysOf(r.contents())).containsExactly("a");
    assertThat(r.commonPrefixes()).containsExactly(max);
    assertThat(r.truncated()).isFalse();
    ListObjectsResult cut = v1(req().withDelimiter(max).withMaxKeys(1), keys);
    assertThat(cut.truncated()).isTrue();
    assertThat(cut.nextMarker()).isEqualTo("a");
    ListObjectsResult after = v1(req().withDelimiter(max).withMarker(max + "x"), keys);
    assertThat(after.contents()).isEmpty();
    assertThat(after.commonPrefixes()).isEmpty();
    assertThat(after.truncated()).isFalse();
  }

  @Test
  void keysBeforeTheSeekTargetThatACursorHandsBackAreNotListed() {
    // a cursor that ignores seeks: the engine must skip keys before the prefix, not stop
    List<ObjectVersion> all = List.of(object("a", nextRev(), false, 1), object("b", nextRev(), false, 1),
        object("b2", nextRev(), false, 1), object("c", nextRev(), false, 1));
    Cursor<ObjectVersion> lazy = new Cursor<>() {
      private final Iterator<ObjectVersion> it = all.iterator();

      @Override
      public ObjectVersion next() {
        return it.hasNext() ? it.next() : null;
      }

      @Override
      public void seek(String key) {}
    };
    ListObjectsResult r = Listings.v1(lazy, req().withPrefix("b"));
    assertThat(keysOf(r.contents())).containsExactly("b", "b2");
    assertThat(r.truncated()).isFalse();
  }

  // ---- V2

  private static final ContinuationToken TOKENS =
      ContinuationToken.forStore(java.util.UUID.fromString("6c1f6f8e-4d0a-4c3e-9a53-2f4d1b1e7c11"));
  private static final String BUCKET_ID = "bucket-id-1";

  private static ListObjectsV2Result v2(Cursor<ObjectVersion> c, ListObjectsV2Request r) {
    return Listings.v2(c, r, TOKENS, BUCKET_ID);
  }

  private static String token(ListObjectsV2Request r, String after) {
    return TOKENS.encode(ContinuationToken.Scope.of(BUCKET_ID, r), after);
  }

  @Test
  void v2ContinuationTokenResumesAfterTheLastKeyOrPrefix() {
    String[] keys = {"a", "b/1", "b/2", "c", "d"};
    ListObjectsV2Request r = ListObjectsV2Request.of("bucket").withDelimiter("/").withMaxKeys(2);
    ListObjectsV2Result p1 = v2(objects(keys), r);
    assertThat(keysOf(p1.contents())).containsExactly("a");
    assertThat(p1.commonPrefixes()).containsExactly("b/");
    assertThat(p1.keyCount()).isEqualTo(2);
    assertThat(p1.truncated()).isTrue();
    assertThat(p1.nextContinuationToken()).isEqualTo(token(r, "b/"));
    ListObjectsV2Result p2 = v2(objects(keys),
        r.withContinuationToken(p1.nextContinuationToken()).withStartAfter("zzz").withMaxKeys(5));
    assertThat(keysOf(p2.contents())).containsExactly("c", "d");
    assertThat(p2.truncated()).isFalse();
    assertThat(p2.nextContinuationToken()).isNull();
    assertThat(p2.keyCount()).isEqualTo(2);
    // without a token, start-after applies
    ListObjectsV2Result sa = v2(objects(keys), r.withStartAfter("c"));
    assertThat(keysOf(sa.contents())).containsExactly("d");
    // no delimiter: the token still comes when truncated
    ListObjectsV2Request plainReq = ListObjectsV2Request.of("bucket").withMaxKeys(1);
    ListObjectsV2Result plain = v2(objects(keys), plainReq);
    assertThat(plain.nextContinuationToken()).isEqualTo(token(plainReq, "a"));
  }

  @Test
  void badContinuationTokensAreRejected() {
    ContinuationToken.Scope scope = ContinuationToken.Scope.of(BUCKET_ID, ListObjectsV2Request.of("bucket"));
    String good = TOKENS.encode(scope, "a");
    byte[] raw = Base64.getUrlDecoder().decode(good.substring(1));
    raw[0] ^= 1;
    String flipped = "2" + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    List<String> bad = new ArrayList<>(List.of("", "1", "2", "2YQ", "x", "2!!!", "2a", good + "=",
        good + "A", good.substring(0, good.length() - 1), flipped,
        // the old format: base64 of the key alone, no MAC
        "1YQ",
        "2" + Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[40]),
        "2" + "A".repeat(ContinuationToken.MAX_LENGTH)));
    for (String t : bad) {
      invalid("continuationToken", () -> TOKENS.decode(scope, t));
      invalid("continuationToken", () -> v2(objects("a"),
          ListObjectsV2Request.of("bucket").withContinuationToken(t)));
    }
    invalid("continuationToken", () -> TOKENS.decode(scope, null));
  }

  @Test
  void aContinuationTokenIsBoundToItsListing() {
    ListObjectsV2Request r = ListObjectsV2Request.of("bucket").withPrefix("p/").withDelimiter("/");
    ContinuationToken.Scope scope = ContinuationToken.Scope.of(BUCKET_ID, r);
    String t = TOKENS.encode(scope, "p/a");
    assertThat(TOKENS.decode(scope, t)).isEqualTo("p/a");
    // max-keys and start-after are not part of the scope
    assertThat(TOKENS.decode(ContinuationToken.Scope.of(BUCKET_ID, r.withMaxKeys(3).withStartAfter("z")), t))
        .isEqualTo("p/a");
    for (ContinuationToken.Scope other : List.of(
        ContinuationToken.Scope.of("bucket-id-2", r),
        ContinuationToken.Scope.of(BUCKET_ID, r.withPrefix("p")),
        ContinuationToken.Scope.of(BUCKET_ID, r.withPrefix(null)),
        ContinuationToken.Scope.of(BUCKET_ID, r.withDelimiter(null)),
        ContinuationToken.Scope.of(BUCKET_ID, r.withDelimiter("-")),
        ContinuationToken.Scope.of(BUCKET_ID, r.withAsOf(java.time.Instant.EPOCH)))) {
      invalid("continuationToken", () -> TOKENS.decode(other, t));
    }
    // another store's key
    ContinuationToken otherStore = ContinuationToken.forStore(java.util.UUID.randomUUID());
    invalid("continuationToken", () -> otherStore.decode(scope, t));
    // the same store's key, derived again (another process of the deployment)
    ContinuationToken sameStore = ContinuationToken.forStore(
        java.util.UUID.fromString("6c1f6f8e-4d0a-4c3e-9a53-2f4d1b1e7c11"));
    assertThat(sameStore.decode(scope, t)).isEqualTo("p/a");
  }

  @Test
  void continuationTokenFormat() {
    ContinuationToken.Scope scope = ContinuationToken.Scope.of(BUCKET_ID, ListObjectsV2Request.of("bucket"));
    for (String k : List.of("a", "\uD83D\uDE00/\uFFFD", "\0", "???>>>~~~", "x".repeat(1024))) {
      String t = TOKENS.encode(scope, k);
      assertThat(t).startsWith("2").doesNotContain("+", "/", "=");
      assertThat(t.length()).isLessThanOrEqualTo(ContinuationToken.MAX_LENGTH);
      assertThat(TOKENS.decode(scope, t)).isEqualTo(k);
    }
    assertThat(TOKENS.encode(scope, "x".repeat(1024))).hasSize(ContinuationToken.MAX_LENGTH);
  }

  // ---- versions

  private static Map<String, List<ObjectVersion>> history() {
    Map<String, List<ObjectVersion>> m = new LinkedHashMap<>();
    m.put("a", List.of(object("a", new VersionId(5000, 0, 1), false, 1),
        marker("a", new VersionId(4000, 0, 1), false),
        object("a", new VersionId(3000, 0, 1), true, 2),
        object("a", new VersionId(2000, 0, 1), false, 3)));
    m.put("b", List.of(object("b", new VersionId(2500, 0, 1), false, 4),
        object("b", new VersionId(1500, 0, 1), false, 5)));
    m.put("c/1", List.of(object("c/1", new VersionId(2500, 0, 1), false, 4)));
    m.put("c/2", List.of(object("c/2", new VersionId(2500, 0, 1), false, 4)));
    m.put("d", List.of(marker("d", new VersionId(2500, 0, 1), true)));
    return m;
  }

  private static ListVersionsResult versions(ListVersionsRequest r) {
    return Listings.versions(Cursors.ofMap(ListingModel.map(history())), r);
  }

  private static List<String> ids(ListVersionsResult r) {
    return r.versions().stream().map(v -> v.key() + "@" + v.versionId()).toList();
  }

  private static String id(long millis) {
    return new VersionId(millis, 0, 1).encode();
  }

  @Test
  void versionsListNewestFirstWithLatestFlags() {
    ListVersionsResult r = versions(ListVersionsRequest.of("bucket"));
    assertThat(ids(r)).containsExactly("a@" + id(5000), "a@" + id(4000), "a@null", "a@" + id(2000),
        "b@" + id(2500), "b@" + id(1500), "c/1@" + id(2500), "c/2@" + id(2500), "d@null");
    assertThat(r.versions().stream().map(ObjectVersion::latest).toList())
        .containsExactly(true, false, false, false, true, false, true, true, true);
    assertThat(r.versions().get(1).deleteMarker()).isTrue();
    assertThat(r.truncated()).isFalse();
    assertThat(r.nextKeyMarker()).isNull();
    assertThat(r.nextVersionIdMarker()).isNull();
  }

  @Test
  void versionIdMarkerResumesAfterThatVersion() {
    ListVersionsRequest r = ListVersionsRequest.of("bucket").withKeyMarker("a").withMaxKeys(3);
    ListVersionsResult afterMarker = versions(r.withVersionIdMarker(id(4000)));
    assertThat(ids(afterMarker)).containsExactly("a@null", "a@" + id(2000), "b@" + id(2500));
    assertThat(afterMarker.truncated()).isTrue();
    assertThat(afterMarker.nextKeyMarker()).isEqualTo("b");
    assertThat(afterMarker.nextVersionIdMarker()).isEqualTo(id(2500));
    // the null version as the marker
    ListVersionsResult afterNull = versions(r.withVersionIdMarker("null"));
    assertThat(ids(afterNull)).containsExactly("a@" + id(2000), "b@" + id(2500), "b@" + id(1500));
    // a page ending on the null version hands out "null" as the marker
    ListVersionsResult endsOnNull = versions(r.withVersionIdMarker(id(5000)).withMaxKeys(2));
    assertThat(ids(endsOnNull)).containsExactly("a@" + id(4000), "a@null");
    assertThat(endsOnNull.nextKeyMarker()).isEqualTo("a");
    assertThat(endsOnNull.nextVersionIdMarker()).isEqualTo("null");
    // key marker alone skips every version of the key
    ListVersionsResult keyOnly = versions(r);
    assertThat(ids(keyOnly)).containsExactly("b@" + id(2500), "b@" + id(1500), "c/1@" + id(2500));
    // "null" marker on a key without a null version skips the whole key
    ListVersionsResult noNull = versions(r.withKeyMarker("b").withVersionIdMarker("null"));
    assertThat(ids(noNull)).containsExactly("c/1@" + id(2500), "c/2@" + id(2500), "d@null");
    assertThat(noNull.truncated()).isFalse();
    // the latest version as the marker: the rest of the key, with latest false
    ListVersionsResult afterLatest = versions(r.withKeyMarker("b").withVersionIdMarker(id(2500)));
    assertThat(ids(afterLatest)).startsWith("b@" + id(1500));
    assertThat(afterLatest.versions().get(0).latest()).isFalse();
  }

  @Test
  void versionsPageEndingOnACommonPrefixHasNoVersionIdMarker() {
    ListVersionsRequest r = ListVersionsRequest.of("bucket").withDelimiter("/").withKeyMarker("b")
        .withMaxKeys(1);
    ListVersionsResult res = versions(r);
    assertThat(res.versions()).isEmpty();
    assertThat(res.commonPrefixes()).containsExactly("c/");
    assertThat(res.truncated()).isTrue();
    assertThat(res.nextKeyMarker()).isEqualTo("c/");
    assertThat(res.nextVersionIdMarker()).isNull();
    ListVersionsResult next = versions(r.withKeyMarker("c/"));
    assertThat(ids(next)).containsExactly("d@null");
    assertThat(next.truncated()).isFalse();
  }

  @Test
  void versionIdMarkerRequiresAKeyMarkerAndAValidId() {
    invalid("versionIdMarker", () -> versions(ListVersionsRequest.of("bucket").withVersionIdMarker(id(4000))));
    invalid("versionIdMarker", () -> versions(ListVersionsRequest.of("bucket").withVersionIdMarker("null")));
    invalid("versionIdMarker", () -> versions(ListVersionsRequest.of("bucket").withKeyMarker("a")
        .withVersionIdMarker("not-a-version-id")));
    invalid("versionIdMarker", () -> versions(ListVersionsRequest.of("bucket").withKeyMarker("a")
        .withVersionIdMarker(id(4000).toLowerCase())));
  }

  // ---- uploads

  private static MultipartUpload upload(String key, long millis) {
    return new MultipartUpload(key, new VersionId(millis, 0, 1).encodeOldestFirst(),
        Instant.ofEpochMilli(millis), ObjectMetadata.builder().build());
  }

  @Test
  void uploadsListOldestFirstAndResumeAfterTheUploadIdMarker() {
    Map<String, List<MultipartUpload>> m = new LinkedHashMap<>();
    m.put("k", List.of(upload("k", 1000), upload("k", 2000), upload("k", 3000)));
    m.put("l", List.of(upload("l", 500)));
    java.util.TreeMap<String, List<MultipartUpload>> tm = new java.util.TreeMap<>(KeyOrder.UTF8);
    tm.putAll(m);
    Function<ListUploadsRequest, ListUploadsResult> list = r -> Listings.uploads(Cursors.ofMap(tm), r);
    ListUploadsRequest r = ListUploadsRequest.of("bucket").withMaxUploads(2);
    ListUploadsResult p1 = list.apply(r);
    assertThat(p1.uploads()).containsExactly(m.get("k").get(0), m.get("k").get(1));
    assertThat(p1.truncated()).isTrue();
    assertThat(p1.nextKeyMarker()).isEqualTo("k");
    assertThat(p1.nextUploadIdMarker()).isEqualTo(m.get("k").get(1).uploadId());
    ListUploadsResult p2 = list.apply(r.withKeyMarker(p1.nextKeyMarker())
        .withUploadIdMarker(p1.nextUploadIdMarker()));
    assertThat(p2.uploads()).containsExactly(m.get("k").get(2), m.get("l").get(0));
    assertThat(p2.truncated()).isFalse();
    assertThat(p2.nextKeyMarker()).isNull();
    assertThat(p2.nextUploadIdMarker()).isNull();
    ListUploadsResult keyOnly = list.apply(r.withKeyMarker("k"));
    assertThat(keyOnly.uploads()).containsExactly(m.get("l").get(0));
    invalid("uploadIdMarker", () -> list.apply(ListUploadsRequest.of("bucket")
        .withUploadIdMarker(m.get("k").get(0).uploadId())));
    invalid("uploadId", () -> list.apply(ListUploadsRequest.of("bucket").withKeyMarker("k")
        .withUploadIdMarker("bogus")));
  }
}
