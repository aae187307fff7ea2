package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.listing.ListVersionsRequest;
import io.objectmeta.api.listing.ListVersionsResult;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ListObjectVersions: keys in order, newest first, markers included, key + version-id markers. */
public interface ListVersionsContract extends StoreScenario {

  /** A bucket with history: a (null, v, marker), b/x (v, v), b/y (marker), c (v). */
  default String history() {
    String b = newBucket();
    put(b, "a", "a0");
    setVersioning(b, VersioningState.ENABLED);
    put(b, "a", "a1");
    store().deleteObject(b, "a");
    put(b, "b/x", "x1");
    put(b, "b/x", "x2");
    store().deleteObject(b, "b/y");
    put(b, "c", "c1");
    return b;
  }

  default List<String> ids(List<ObjectVersion> vs) {
    return vs.stream().map(ObjectVersion::versionId).toList();
  }

  @Test
  default void versionsAreListedByKeyNewestFirstWithMarkersAndLatestFlags() {
    String b = history();
    List<ObjectVersion> vs = store().listObjectVersions(ListVersionsRequest.of(b)).versions();
    assertThat(vs).extracting(ObjectVersion::key, ObjectVersion::deleteMarker, ObjectVersion::latest,
        ObjectVersion::nullVersion).containsExactly(
            tuple("a", true, true, false), tuple("a", false, false, false), tuple("a", false, false, true),
            tuple("b/x", false, true, false), tuple("b/x", false, false, false),
            tuple("b/y", true, true, false),
            tuple("c", false, true, false));
    assertThat(vs.get(2).versionId()).isEqualTo("null");
  }

  @Test
  default void aKeyMarkerAloneSkipsEveryVersionOfThatKey() {
    String b = history();
    ListVersionsResult r = store().listObjectVersions(ListVersionsRequest.of(b).withKeyMarker("a"));
    assertThat(r.versions()).extracting(ObjectVersion::key).containsExactly("b/x", "b/x", "b/y", "c");
  }

  @Test
  default void aVersionIdMarkerResumesAfterThatVersion() {
    String b = history();
    List<ObjectVersion> all = versions(b);
    ListVersionsResult r = store().listObjectVersions(ListVersionsRequest.of(b)
        .withKeyMarker("a").withVersionIdMarker(all.get(0).versionId()));
    assertThat(ids(r.versions())).isEqualTo(ids(all.subList(1, all.size())));
  }

  @Test
  default void aNullVersionIdMarkerResumesAfterTheNullVersion() {
    String b = history();
    List<ObjectVersion> all = versions(b);
    ListVersionsResult r = store().listObjectVersions(ListVersionsRequest.of(b)
        .withKeyMarker("a").withVersionIdMarker("null"));
    assertThat(ids(r.versions())).isEqualTo(ids(all.subList(3, all.size())));
  }

  @Test
  default void aVersionIdMarkerWithoutKeyMarkerIsInvalidArgument() {
    String b = history();
    String id = versions(b).get(0).versionId();
    assertThatThrownBy(() -> store().listObjectVersions(ListVersionsRequest.of(b).withVersionIdMarker(id)))
        .isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  default void aMalformedVersionIdMarkerIsInvalidArgument() {
    String b = history();
    assertThatThrownBy(() -> store().listObjectVersions(ListVersionsRequest.of(b)
        .withKeyMarker("a").withVersionIdMarker("nope")))
        .isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  default void aTruncatedPageEndingOnAVersionGivesBothMarkers() {
    String b = history();
    List<ObjectVersion> all = versions(b);
    ListVersionsResult r = store().listObjectVersions(ListVersionsRequest.of(b).withMaxKeys(2));
    assertThat(r.truncated()).isTrue();
    assertThat(r.nextKeyMarker()).isEqualTo("a");
    assertThat(r.nextVersionIdMarker()).isEqualTo(all.get(1).versionId());
  }

  @Test
  default void nextMarkersAreAbsentWhenNotTruncated() {
    String b = history();
    ListVersionsResult r = store().listObjectVersions(ListVersionsRequest.of(b));
    assertThat(r.truncated()).isFalse();
    assertThat(r.nextKeyMarker()).isNull();
    assertThat(r.nextVersionIdMarker()).isNull();
  }

  @Test
  default void aPageEndingOnACommonPrefixOmitsTheVersionIdMarker() {
    String b = history();
    ListVersionsResult r = store().listObjectVersions(ListVersionsRequest.of(b).withDelimiter("/").withMaxKeys(4));
    assertThat(r.versions()).extracting(ObjectVersion::key).containsExactly("a", "a", "a");
    assertThat(r.commonPrefixes()).containsExactly("b/");
    assertThat(r.truncated()).isTrue();
    assertThat(r.nextKeyMarker()).isEqualTo("b/");
    assertThat(r.nextVersionIdMarker()).isNull();
  }

  @Test
  default void aDeleteMarkedPrefixIsACommonPrefixOfTheVersionListing() {
    String b = newBucket(VersioningState.ENABLED);
    store().deleteObject(b, "gone/1");
    ListVersionsResult r = store().listObjectVersions(ListVersionsRequest.of(b).withDelimiter("/"));
    assertThat(r.commonPrefixes()).containsExactly("gone/");
  }

  @Test
  default void aPrefixSelectsTheVersionsOfMatchingKeys() {
    String b = history();
    assertThat(store().listObjectVersions(ListVersionsRequest.of(b).withPrefix("b/")).versions())
        .extracting(ObjectVersion::key).containsExactly("b/x", "b/x", "b/y");
  }

  @Test
  default void walkingPageByPageEqualsTheFullListing() {
    String b = history();
    List<ObjectVersion> full = store().listObjectVersions(ListVersionsRequest.of(b)).versions();
    for (int max = 1; max <= 4; max++) {
      List<ObjectVersion> walked = Walks.allVersions(store(), ListVersionsRequest.of(b).withMaxKeys(max));
      assertThat(walked).as("walk with maxKeys %d", max).isEqualTo(full);
    }
  }

  @Test
  default void walkingWithADelimiterPageByPageSeesEachPrefixOnce() {
    String b = history();
    List<String> seen = new ArrayList<>();
    ListVersionsRequest r = ListVersionsRequest.of(b).withDelimiter("/").withMaxKeys(1);
    for (int i = 0; i < 20; i++) {
      ListVersionsResult page = store().listObjectVersions(r);
      page.versions().forEach(v -> seen.add(v.key() + "@" + v.versionId()));
      seen.addAll(page.commonPrefixes());
      if (!page.truncated()) {
        break;
      }
      r = r.withKeyMarker(page.nextKeyMarker()).withVersionIdMarker(page.nextVersionIdMarker());
    }
    List<ObjectVersion> all = versions(b);
    assertThat(seen).containsExactly(
        "a@" + all.get(0).versionId(), "a@" + all.get(1).versionId(), "a@null", "b/",
        "c@" + all.get(6).versionId());
  }

  @Test
  default void maxKeysZeroGivesAnEmptyVersionPage() {
    String b = history();
    ListVersionsResult r = store().listObjectVersions(ListVersionsRequest.of(b).withMaxKeys(0));
    assertThat(r.versions()).isEmpty();
    assertThat(r.truncated()).isFalse();
  }

  @Test
  default void anUnversionedBucketListsItsNullVersions() {
    String b = newBucket();
    put(b, "k", "v");
    assertThat(versions(b)).singleElement().satisfies(v -> {
      assertThat(v.versionId()).isEqualTo("null");
      assertThat(v.latest()).isTrue();
    });
  }

  @Test
  default void aNullMarkerOnAKeyWithoutANullVersionSkipsTheWholeKey() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "a", "a1");
    put(b, "a", "a2");
    put(b, "b", "b1");
    ListVersionsResult r = store().listObjectVersions(ListVersionsRequest.of(b)
        .withKeyMarker("a").withVersionIdMarker("null"));
    assertThat(r.versions()).extracting(ObjectVersion::key).containsExactly("b");
  }
}
