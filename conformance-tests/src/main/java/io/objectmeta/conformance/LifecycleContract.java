package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.Capability;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.listing.LifecyclePage;
import io.objectmeta.api.listing.LifecycleRequest;
import io.objectmeta.api.model.NonCurrentVersion;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Lifecycle listings (capability LIFECYCLE_LISTINGS). */
public interface LifecycleContract extends StoreScenario {

  @BeforeEach
  default void requireLifecycle() {
    String b = newBucket();
    requireCapability(Capability.LIFECYCLE_LISTINGS,
        () -> store().listCurrentOlderThan(LifecycleRequest.of(b)));
  }

  @Test
  default void currentObjectsOlderThanAnInstantAreListed() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion a = put(b, "a", "a");
    Polling.clockPast(a.lastModified());
    Instant t = Instant.now();
    Polling.clockPast(t);
    put(b, "b", "b");
    store().deleteObject(b, "zz");
    assertThat(store().listCurrentOlderThan(LifecycleRequest.of(b).withBefore(t)).entries())
        .extracting(ObjectVersion::key).containsExactly("a");
    assertThat(store().listCurrentOlderThan(LifecycleRequest.of(b)).entries())
        .extracting(ObjectVersion::key).containsExactly("a", "b");
  }

  @Test
  default void aDeleteMarkedKeyIsNoCurrentObjectForLifecycle() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "a", "a");
    store().deleteObject(b, "a");
    assertThat(store().listCurrentOlderThan(LifecycleRequest.of(b)).entries()).isEmpty();
  }

  @Test
  default void nonCurrentVersionsAreStaleSinceTheNextNewerVersionWasWritten() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    ObjectVersion v2 = put(b, "k", "v2");
    String marker = store().deleteObject(b, "k").versionId();
    ObjectVersion m = versionsOf(b, "k").get(0);
    List<NonCurrentVersion> got = store().listNonCurrentVersions(LifecycleRequest.of(b)).entries();
    assertThat(got).extracting(n -> n.version().versionId())
        .containsExactly(v2.versionId(), v1.versionId());
    assertThat(got.get(0).staleSince()).isEqualTo(m.lastModified());
    assertThat(got.get(1).staleSince()).isEqualTo(v2.lastModified());
    assertThat(got).allSatisfy(n -> assertThat(n.version().latest()).isFalse());
    assertThat(marker).isEqualTo(m.versionId());
  }

  @Test
  default void nonCurrentDeleteMarkersAreListedToo() {
    String b = newBucket(VersioningState.ENABLED);
    String marker = store().deleteObject(b, "k").versionId();
    put(b, "k", "v2");
    assertThat(store().listNonCurrentVersions(LifecycleRequest.of(b)).entries())
        .singleElement().satisfies(n -> {
          assertThat(n.version().versionId()).isEqualTo(marker);
          assertThat(n.version().deleteMarker()).isTrue();
        });
  }

  @Test
  default void nonCurrentVersionsFilterByStaleSince() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "k", "v1");
    ObjectVersion v2 = put(b, "k", "v2");
    Polling.clockPast(v2.lastModified());
    Instant t = Instant.now();
    Polling.clockPast(t);
    put(b, "k", "v3");
    List<NonCurrentVersion> old = store().listNonCurrentVersions(LifecycleRequest.of(b).withBefore(t)).entries();
    assertThat(old).singleElement().satisfies(n -> assertThat(n.staleSince()).isEqualTo(v2.lastModified()));
  }

  @Test
  default void nonCurrentVersionsPageWithKeyAndVersionIdMarkers() {
    String b = newBucket(VersioningState.ENABLED);
    for (int i = 0; i < 4; i++) {
      put(b, "a", "a" + i);
    }
    for (int i = 0; i < 3; i++) {
      put(b, "b", "b" + i);
    }
    List<String> full = store().listNonCurrentVersions(LifecycleRequest.of(b)).entries().stream()
        .map(n -> n.version().key() + "@" + n.version().versionId()).toList();
    assertThat(full).hasSize(5);
    List<String> walked = new ArrayList<>();
    LifecycleRequest r = LifecycleRequest.of(b).withMaxKeys(2);
    for (int i = 0; i < 10; i++) {
      LifecyclePage<NonCurrentVersion> page = store().listNonCurrentVersions(r);
      page.entries().forEach(n -> walked.add(n.version().key() + "@" + n.version().versionId()));
      if (!page.truncated()) {
        assertThat(page.nextKeyMarker()).isNull();
        break;
      }
      r = r.withKeyMarker(page.nextKeyMarker()).withVersionIdMarker(page.nextVersionIdMarker());
    }
    assertThat(walked).isEqualTo(full);
  }

  @Test
  default void orphanDeleteMarkersAreMarkersWithNothingBelow() {
    String b = newBucket(VersioningState.ENABLED);
    store().deleteObject(b, "orphan");
    put(b, "hidden", "h");
    store().deleteObject(b, "hidden");
    put(b, "live", "l");
    assertThat(store().listOrphanDeleteMarkers(LifecycleRequest.of(b)).entries())
        .singleElement().satisfies(v -> {
          assertThat(v.key()).isEqualTo("orphan");
          assertThat(v.deleteMarker()).isTrue();
          assertThat(v.latest()).isTrue();
        });
  }

  @Test
  default void aMarkerBecomesAnOrphanWhenTheVersionsBelowAreRemoved() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v = put(b, "k", "v");
    store().deleteObject(b, "k");
    assertThat(store().listOrphanDeleteMarkers(LifecycleRequest.of(b)).entries()).isEmpty();
    store().deleteObjectVersion(b, "k", v.versionId());
    assertThat(store().listOrphanDeleteMarkers(LifecycleRequest.of(b)).entries())
        .extracting(ObjectVersion::key).containsExactly("k");
  }

  @Test
  default void lifecycleListingsTakeAPrefix() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "logs/1", "1");
    put(b, "data/1", "2");
    assertThat(store().listCurrentOlderThan(LifecycleRequest.of(b).withPrefix("logs/")).entries())
        .extracting(ObjectVersion::key).containsExactly("logs/1");
  }

  @Test
  default void currentOlderThanPagesByKeyMarker() {
    String b = newBucket();
    for (String k : List.of("a", "b", "c")) {
      put(b, k, k);
    }
    LifecyclePage<ObjectVersion> first = store().listCurrentOlderThan(LifecycleRequest.of(b).withMaxKeys(2));
    assertThat(first.entries()).extracting(ObjectVersion::key).containsExactly("a", "b");
    assertThat(first.truncated()).isTrue();
    assertThat(first.nextKeyMarker()).isEqualTo("b");
    LifecyclePage<ObjectVersion> second = store().listCurrentOlderThan(
        LifecycleRequest.of(b).withMaxKeys(2).withKeyMarker(first.nextKeyMarker()));
    assertThat(second.entries()).extracting(ObjectVersion::key).containsExactly("c");
    assertThat(second.truncated()).isFalse();
  }

  @Test
  default void aVersionIdMarkerOnlyFitsTheNonCurrentListing() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v = put(b, "a", "a");
    assertRefusedAndUnchanged(InvalidArgumentException.class, () -> store().listCurrentOlderThan(
        LifecycleRequest.of(b).withKeyMarker("a").withVersionIdMarker(v.versionId())));
    assertRefusedAndUnchanged(InvalidArgumentException.class, () -> store().listOrphanDeleteMarkers(
        LifecycleRequest.of(b).withKeyMarker("a").withVersionIdMarker(v.versionId())));
  }
}
