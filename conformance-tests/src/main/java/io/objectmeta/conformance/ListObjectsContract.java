package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.listing.ListObjectsRequest;
import io.objectmeta.api.listing.ListObjectsResult;
import io.objectmeta.api.listing.ListObjectsV2Request;
import io.objectmeta.api.listing.ListObjectsV2Result;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ListObjects V1 and V2: prefix, delimiter, markers, max keys, truncation, as S3 answers. */
public interface ListObjectsContract extends StoreScenario {

  /** A bucket with keys a, b/1, b/2, b/c/3, c, d/4. */
  default String tree() {
    String b = newBucket();
    for (String k : List.of("a", "b/1", "b/2", "b/c/3", "c", "d/4")) {
      put(b, k, k);
    }
    return b;
  }

  default List<String> keys(ListObjectsResult r) {
    return r.contents().stream().map(ObjectVersion::key).toList();
  }

  default List<String> keys(ListObjectsV2Result r) {
    return r.contents().stream().map(ObjectVersion::key).toList();
  }

  @Test
  default void aListingReturnsEveryCurrentObjectInKeyOrder() {
    String b = tree();
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b));
    assertThat(keys(r)).containsExactly("a", "b/1", "b/2", "b/c/3", "c", "d/4");
    assertThat(r.commonPrefixes()).isEmpty();
    assertThat(r.truncated()).isFalse();
    assertThat(r.nextMarker()).isNull();
    assertThat(r.contents()).allSatisfy(v -> assertThat(v.latest()).isTrue());
  }

  @Test
  default void listedObjectsCarryTheirMetadata() {
    String b = newBucket();
    ObjectVersion v = put(b, "k", "v1", 33);
    assertThat(store().listObjects(ListObjectsRequest.of(b)).contents()).containsExactly(v);
  }

  @Test
  default void aPrefixSelectsKeysStartingWithIt() {
    String b = tree();
    assertThat(keys(store().listObjects(ListObjectsRequest.of(b).withPrefix("b/"))))
        .containsExactly("b/1", "b/2", "b/c/3");
    assertThat(keys(store().listObjects(ListObjectsRequest.of(b).withPrefix("zz")))).isEmpty();
  }

  @Test
  default void aDelimiterRollsKeysUpIntoCommonPrefixes() {
    String b = tree();
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b).withDelimiter("/"));
    assertThat(keys(r)).containsExactly("a", "c");
    assertThat(r.commonPrefixes()).containsExactly("b/", "d/");
  }

  @Test
  default void prefixAndDelimiterListOneLevel() {
    String b = tree();
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b).withPrefix("b/").withDelimiter("/"));
    assertThat(keys(r)).containsExactly("b/1", "b/2");
    assertThat(r.commonPrefixes()).containsExactly("b/c/");
  }

  @Test
  default void anEmptyDelimiterMeansNone() {
    String b = tree();
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b).withDelimiter(""));
    assertThat(r.commonPrefixes()).isEmpty();
    assertThat(keys(r)).hasSize(6);
  }

  @Test
  default void aMultiCharacterDelimiterWorks() {
    String b = newBucket();
    for (String k : List.of("x--1", "x--2", "x-3", "y")) {
      put(b, k, k);
    }
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b).withDelimiter("--"));
    assertThat(r.commonPrefixes()).containsExactly("x--");
    assertThat(keys(r)).containsExactly("x-3", "y");
  }

  @Test
  default void theMarkerListsKeysAfterIt() {
    String b = tree();
    assertThat(keys(store().listObjects(ListObjectsRequest.of(b).withMarker("b/2"))))
        .containsExactly("b/c/3", "c", "d/4");
    assertThat(keys(store().listObjects(ListObjectsRequest.of(b).withMarker("b"))))
        .containsExactly("b/1", "b/2", "b/c/3", "c", "d/4");
  }

  @Test
  default void aMarkerInsideACommonPrefixSkipsThatWholePrefix() {
    String b = tree();
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b).withDelimiter("/").withMarker("b/1"));
    assertThat(r.commonPrefixes()).containsExactly("d/");
    assertThat(keys(r)).containsExactly("c");
  }

  @Test
  default void aMarkerPastThePrefixGivesAnEmptyPage() {
    String b = tree();
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b).withPrefix("b/").withMarker("c"));
    assertThat(r.contents()).isEmpty();
    assertThat(r.truncated()).isFalse();
  }

  @Test
  default void aMarkerBeforeThePrefixIsIgnored() {
    String b = tree();
    assertThat(keys(store().listObjects(ListObjectsRequest.of(b).withPrefix("b/").withMarker("a"))))
        .containsExactly("b/1", "b/2", "b/c/3");
  }

  @Test
  default void maxKeysZeroGivesAnEmptyPageThatIsNotTruncated() {
    String b = tree();
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b).withMaxKeys(0));
    assertThat(r.contents()).isEmpty();
    assertThat(r.commonPrefixes()).isEmpty();
    assertThat(r.truncated()).isFalse();
    assertThat(r.nextMarker()).isNull();
  }

  @Test
  default void maxKeysCutsThePageAndSaysItIsTruncated() {
    String b = tree();
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b).withMaxKeys(2));
    assertThat(keys(r)).containsExactly("a", "b/1");
    assertThat(r.truncated()).isTrue();
    assertThat(r.nextMarker()).as("NextMarker is only given with a delimiter").isNull();
  }

  @Test
  default void aPageEndingOnTheLastKeyIsNotTruncated() {
    String b = tree();
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b).withMaxKeys(6));
    assertThat(keys(r)).hasSize(6);
    assertThat(r.truncated()).isFalse();
  }

  @Test
  default void aCommonPrefixCountsOneTowardMaxKeys() {
    String b = tree();
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b).withDelimiter("/").withMaxKeys(2));
    assertThat(keys(r)).containsExactly("a");
    assertThat(r.commonPrefixes()).containsExactly("b/");
    assertThat(r.truncated()).isTrue();
    assertThat(r.nextMarker()).isEqualTo("b/");
  }

  @Test
  default void nextMarkerWithADelimiterIsTheLastKeyOfThePage() {
    String b = tree();
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b).withDelimiter("/").withMaxKeys(1));
    assertThat(keys(r)).containsExactly("a");
    assertThat(r.nextMarker()).isEqualTo("a");
  }

  @Test
  default void nextMarkerIsAbsentWhenNotTruncatedEvenWithADelimiter() {
    String b = tree();
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b).withDelimiter("/"));
    assertThat(r.truncated()).isFalse();
    assertThat(r.nextMarker()).isNull();
  }

  @Test
  default void walkingV1PagesWithNextMarkerGivesTheFullListing() {
    String b = tree();
    List<String> seen = new ArrayList<>();
    ListObjectsRequest r = ListObjectsRequest.of(b).withDelimiter("/").withMaxKeys(1);
    for (int i = 0; i < 20; i++) {
      ListObjectsResult page = store().listObjects(r);
      seen.addAll(keys(page));
      seen.addAll(page.commonPrefixes());
      if (!page.truncated()) {
        break;
      }
      r = r.withMarker(page.nextMarker());
    }
    assertThat(seen).containsExactly("a", "b/", "c", "d/");
  }

  @Test
  default void deleteMarkedKeysAreNotListed() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "a", "a");
    put(b, "b", "b");
    store().deleteObject(b, "a");
    assertThat(currentKeys(b)).containsExactly("b");
    assertThat(keys(store().listObjects(ListObjectsRequest.of(b)))).containsExactly("b");
  }

  @Test
  default void aPrefixWhoseEveryKeyIsDeleteMarkedIsNotACommonPrefix() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "gone/1", "x");
    put(b, "gone/2", "y");
    put(b, "kept/1", "z");
    store().deleteObject(b, "gone/1");
    store().deleteObject(b, "gone/2");
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b).withDelimiter("/"));
    assertThat(r.commonPrefixes()).containsExactly("kept/");
    ListObjectsV2Result r2 = store().listObjectsV2(ListObjectsV2Request.of(b).withDelimiter("/"));
    assertThat(r2.commonPrefixes()).containsExactly("kept/");
  }

  @Test
  default void truncationIgnoresDeleteMarkedKeysAfterThePage() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "a", "a");
    put(b, "b", "b");
    store().deleteObject(b, "b");
    store().deleteObject(b, "c");
    ListObjectsResult r = store().listObjects(ListObjectsRequest.of(b).withMaxKeys(1));
    assertThat(keys(r)).containsExactly("a");
    assertThat(r.truncated()).as("nothing eligible follows").isFalse();
  }

  @Test
  default void aListingOfAnEmptyBucketIsEmpty() {
    String b = newBucket();
    ListObjectsV2Result r = store().listObjectsV2(ListObjectsV2Request.of(b));
    assertThat(r.contents()).isEmpty();
    assertThat(r.keyCount()).isZero();
    assertThat(r.truncated()).isFalse();
    assertThat(r.nextContinuationToken()).isNull();
  }

  @Test
  default void v2ListsTheSameAsV1() {
    String b = tree();
    ListObjectsV2Result r = store().listObjectsV2(ListObjectsV2Request.of(b).withDelimiter("/"));
    assertThat(keys(r)).containsExactly("a", "c");
    assertThat(r.commonPrefixes()).containsExactly("b/", "d/");
    assertThat(r.keyCount()).isEqualTo(4);
  }

  @Test
  default void v2StartAfterListsKeysAfterIt() {
    String b = tree();
    assertThat(keys(store().listObjectsV2(ListObjectsV2Request.of(b).withStartAfter("b/c/3"))))
        .containsExactly("c", "d/4");
  }

  @Test
  default void v2ContinuationTokensWalkPageByPage() {
    String b = tree();
    ListObjectsV2Request r = ListObjectsV2Request.of(b).withMaxKeys(2);
    List<List<String>> pages = new ArrayList<>();
    List<Integer> counts = new ArrayList<>();
    while (true) {
      ListObjectsV2Result page = store().listObjectsV2(r);
      pages.add(keys(page));
      counts.add(page.keyCount());
      if (!page.truncated()) {
        assertThat(page.nextContinuationToken()).isNull();
        break;
      }
      assertThat(page.nextContinuationToken()).isNotBlank();
      r = r.withContinuationToken(page.nextContinuationToken());
    }
    assertThat(pages).containsExactly(List.of("a", "b/1"), List.of("b/2", "b/c/3"), List.of("c", "d/4"));
    assertThat(counts).containsExactly(2, 2, 2);
  }

  @Test
  default void v2ContinuationTokensWalkCommonPrefixes() {
    String b = tree();
    ListObjectsV2Request r = ListObjectsV2Request.of(b).withDelimiter("/").withMaxKeys(1);
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      ListObjectsV2Result page = store().listObjectsV2(r);
      assertThat(page.keyCount()).isEqualTo(page.contents().size() + page.commonPrefixes().size());
      seen.addAll(keys(page));
      seen.addAll(page.commonPrefixes());
      if (!page.truncated()) {
        break;
      }
      r = r.withContinuationToken(page.nextContinuationToken());
    }
    assertThat(seen).containsExactly("a", "b/", "c", "d/");
  }

  @Test
  default void v2ContinuationTokenTakesPrecedenceOverStartAfter() {
    String b = tree();
    ListObjectsV2Result first = store().listObjectsV2(ListObjectsV2Request.of(b).withMaxKeys(3));
    ListObjectsV2Result second = store().listObjectsV2(ListObjectsV2Request.of(b)
        .withStartAfter("a").withContinuationToken(first.nextContinuationToken()));
    assertThat(keys(second)).containsExactly("b/c/3", "c", "d/4");
  }

  @Test
  default void v2MaxKeysZeroIsEmptyAndNotTruncated() {
    String b = tree();
    ListObjectsV2Result r = store().listObjectsV2(ListObjectsV2Request.of(b).withMaxKeys(0));
    assertThat(r.contents()).isEmpty();
    assertThat(r.truncated()).isFalse();
    assertThat(r.keyCount()).isZero();
  }

  @Test
  default void aBadContinuationTokenIsInvalidArgument() {
    String b = tree();
    assertThatThrownBy(() -> store().listObjectsV2(ListObjectsV2Request.of(b).withContinuationToken("garbage!")))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> store().listObjectsV2(ListObjectsV2Request.of(b).withContinuationToken("")))
        .isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  default void aContinuationTokenServesOnlyTheListingThatIssuedIt() {
    String b = tree();
    String other = tree();
    ListObjectsV2Request r = ListObjectsV2Request.of(b).withPrefix("b").withMaxKeys(1);
    String token = store().listObjectsV2(r).nextContinuationToken();
    assertThat(token).isNotNull();
    // the same listing with another page size resumes where the token says
    assertThat(keys(store().listObjectsV2(r.withMaxKeys(5).withContinuationToken(token))))
        .containsExactly("b/2", "b/c/3");
    for (ListObjectsV2Request wrong : List.of(
        ListObjectsV2Request.of(other).withPrefix("b").withContinuationToken(token),
        r.withPrefix("b/").withContinuationToken(token),
        r.withPrefix(null).withContinuationToken(token),
        r.withDelimiter("/").withContinuationToken(token),
        // a byte changed
        r.withContinuationToken(token.substring(0, token.length() - 1)
            + (token.endsWith("A") ? "B" : "A")),
        // the old unsigned format, with a key longer than any key may be
        r.withContinuationToken("1" + java.util.Base64.getUrlEncoder().withoutPadding()
            .encodeToString("b".repeat(5000).getBytes(java.nio.charset.StandardCharsets.UTF_8))))) {
      assertThatThrownBy(() -> store().listObjectsV2(wrong))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("continuationToken");
    }
  }

  @Test
  default void aContinuationTokenDiesWithItsBucketIncarnation() {
    String b = newBucket();
    for (String k : List.of("a", "b", "c")) {
      put(b, k, k);
    }
    String token = store().listObjectsV2(ListObjectsV2Request.of(b).withMaxKeys(1))
        .nextContinuationToken();
    for (String k : List.of("a", "b", "c")) {
      store().deleteObject(b, k);
    }
    store().deleteBucket(b);
    store().createBucket(b, OWNER, null);
    put(b, "z", "z");
    assertThatThrownBy(() -> store().listObjectsV2(
        ListObjectsV2Request.of(b).withMaxKeys(1).withContinuationToken(token)))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("continuationToken");
  }

  @Test
  default void aListingSeesAnOverwriteOnlyOnce() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "k", "v1");
    ObjectVersion v2 = put(b, "k", "v2");
    assertThat(store().listObjects(ListObjectsRequest.of(b)).contents()).containsExactly(v2);
  }
}
