package io.objectmeta.api.listing;

import static io.objectmeta.api.listing.ListingModel.marker;
import static io.objectmeta.api.listing.ListingModel.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.model.NonCurrentVersion;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.version.VersionId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CursorsTest {

  private static VersionId at(long millis) {
    return new VersionId(millis, 0, 1);
  }

  private static Instant t(long millis) {
    return Instant.ofEpochMilli(millis);
  }

  private static <E> List<E> drain(Cursor<E> c) {
    List<E> out = new ArrayList<>();
    E e;
    while ((e = c.next()) != null) {
      out.add(e);
    }
    return out;
  }

  /**
   * k: object@3000, marker@2000, object@1000 (null version); m: marker@1500 alone;
   * n: object@2500 alone; o: marker@500, object@400.
   */
  private static Map<String, List<ObjectVersion>> data() {
    Map<String, List<ObjectVersion>> m = new LinkedHashMap<>();
    m.put("k", List.of(object("k", at(3000), false, 30).withLatest(false), marker("k", at(2000), false),
        object("k", at(1000), true, 10)));
    m.put("m", List.of(marker("m", at(1500), false).withLatest(false)));
    m.put("n", List.of(object("n", at(2500), false, 25).withLatest(false)));
    m.put("o", List.of(marker("o", at(500), false), object("o", at(400), false, 4)));
    return m;
  }

  private static Cursor<ObjectVersion> scan() {
    return Cursors.ofMap(ListingModel.map(data()));
  }

  private static List<String> keyAt(List<ObjectVersion> vs) {
    return vs.stream().map(v -> v.key() + "@" + v.revision().millis()).toList();
  }

  @Test
  void ofMapReadsInOrderAndSeeks() {
    Cursor<ObjectVersion> c = scan();
    assertThat(keyAt(drain(c))).containsExactly("k@3000", "k@2000", "k@1000", "m@1500", "n@2500",
        "o@500", "o@400");
    assertThat(c.next()).isNull();
    c.seek("m");
    assertThat(c.next().key()).isEqualTo("m");
    c.seek("l");
    assertThat(c.next().key()).isEqualTo("m");
    c.seek("");
    assertThat(c.next().revision().millis()).isEqualTo(3000);
    assertThat(c.next().revision().millis()).isEqualTo(2000);
    c.seek("k");
    assertThat(c.next().revision().millis()).isEqualTo(3000);
    c.seek("p");
    assertThat(c.next()).isNull();
    c.close();
  }

  @Test
  void withLatestFlagsMarksTheNewestOfEachKey() {
    List<ObjectVersion> vs = drain(Cursors.withLatestFlags(scan()));
    assertThat(vs.stream().map(ObjectVersion::latest).toList())
        .containsExactly(true, false, false, true, true, true, false);
    assertThat(keyAt(vs)).containsExactly("k@3000", "k@2000", "k@1000", "m@1500", "n@2500", "o@500", "o@400");
    Cursor<ObjectVersion> c = Cursors.withLatestFlags(scan());
    assertThat(c.next().key()).isEqualTo("k");
    c.seek("n");
    ObjectVersion n = c.next();
    assertThat(n.key()).isEqualTo("n");
    assertThat(n.latest()).isTrue();
    ObjectVersion o = c.next();
    assertThat(o.key()).isEqualTo("o");
    assertThat(o.latest()).isTrue();
    assertThat(c.next().latest()).isFalse();
    assertThat(c.next()).isNull();
  }

  @Test
  void asOfIsTheNewestVersionAtOrBeforeTheInstantUnlessAMarker() {
    assertThat(keyAt(drain(Cursors.asOf(scan(), t(399))))).isEmpty();
    assertThat(keyAt(drain(Cursors.asOf(scan(), t(400))))).containsExactly("o@400");
    assertThat(keyAt(drain(Cursors.asOf(scan(), t(999))))).isEmpty();
    assertThat(keyAt(drain(Cursors.asOf(scan(), t(1000))))).containsExactly("k@1000");
    assertThat(keyAt(drain(Cursors.asOf(scan(), t(1999))))).containsExactly("k@1000");
    assertThat(keyAt(drain(Cursors.asOf(scan(), t(2000))))).isEmpty();
    assertThat(keyAt(drain(Cursors.asOf(scan(), t(2500))))).containsExactly("n@2500");
    assertThat(keyAt(drain(Cursors.asOf(scan(), t(2999))))).containsExactly("n@2500");
    List<ObjectVersion> now = drain(Cursors.asOf(scan(), t(3000)));
    assertThat(keyAt(now)).containsExactly("k@3000", "n@2500");
    assertThat(now).allMatch(ObjectVersion::latest);
    assertThat(drain(Cursors.asOf(scan(), t(1000)))).allMatch(ObjectVersion::latest);
  }

  @Test
  void asOfListsThroughV1() {
    ListObjectsResult r = Listings.v1(Cursors.asOf(scan(), t(2600)), ListObjectsRequest.of("b"));
    assertThat(keyAt(r.contents())).containsExactly("n@2500");
    ListObjectsResult r2 = Listings.v1(Cursors.asOf(scan(), t(1200)), ListObjectsRequest.of("b"));
    assertThat(keyAt(r2.contents())).containsExactly("k@1000");
  }

  @Test
  void nonCurrentCarriesTheTimeTheNextNewerVersionWasWritten() {
    List<NonCurrentVersion> all = drain(Cursors.nonCurrent(scan(), null));
    assertThat(all.stream().map(n -> n.version().key() + "@" + n.version().revision().millis()
        + "<" + n.staleSince().toEpochMilli()).toList())
        .containsExactly("k@2000<3000", "k@1000<2000", "o@400<500");
    assertThat(all).allMatch(n -> !n.version().latest());
    assertThat(all.get(0).version().deleteMarker()).isTrue();
    // before: stale strictly before it
    assertThat(drain(Cursors.nonCurrent(scan(), t(2000))).stream().map(n -> n.version().key()).toList())
        .containsExactly("o");
    assertThat(drain(Cursors.nonCurrent(scan(), t(2001))).stream()
        .map(n -> n.staleSince().toEpochMilli()).toList()).containsExactly(2000L, 500L);
    assertThat(drain(Cursors.nonCurrent(scan(), t(3000))).stream()
        .map(n -> n.staleSince().toEpochMilli()).toList()).containsExactly(2000L, 500L);
    assertThat(drain(Cursors.nonCurrent(scan(), t(3001)))).hasSize(3);
    assertThat(drain(Cursors.nonCurrent(scan(), t(500)))).isEmpty();
  }

  @Test
  void orphanDeleteMarkersAreMarkersWithNothingUnderThem() {
    List<ObjectVersion> all = drain(Cursors.orphanDeleteMarkers(scan(), null));
    assertThat(keyAt(all)).containsExactly("m@1500");
    assertThat(all.get(0).latest()).isTrue();
    assertThat(drain(Cursors.orphanDeleteMarkers(scan(), t(1500)))).isEmpty();
    assertThat(keyAt(drain(Cursors.orphanDeleteMarkers(scan(), t(1501))))).containsExactly("m@1500");
  }

  @Test
  void filterKeepsOnlyMatchingEntriesAndDelegatesSeekAndClose() {
    AtomicInteger closed = new AtomicInteger();
    Cursor<ObjectVersion> base = scan();
    Cursor<ObjectVersion> counting = new Cursor<>() {
      @Override
      public ObjectVersion next() {
        return base.next();
      }

      @Override
      public void seek(String key) {
        base.seek(key);
      }

      @Override
      public void close() {
        closed.incrementAndGet();
      }
    };
    Cursor<ObjectVersion> f = Cursors.filter(counting, v -> !v.deleteMarker());
    assertThat(keyAt(drain(f))).containsExactly("k@3000", "k@1000", "n@2500", "o@400");
    f.seek("n");
    assertThat(f.next().key()).isEqualTo("n");
    f.close();
    assertThat(closed).hasValue(1);
    Cursors.withLatestFlags(counting).close();
    assertThat(closed).hasValue(2);
  }

  // ---- lifecycle listings

  private static void invalid(String field, Runnable r) {
    InvalidArgumentException e = catchThrowableOfType(InvalidArgumentException.class, r::run);
    assertThat(e).isNotNull();
    assertThat(e.field()).isEqualTo(field);
  }

  @Test
  void currentOlderThan() {
    Cursor<ObjectVersion> current = Cursors.ofMap(ListingModel.map(Map.of(
        "a", List.of(object("a", at(100), false, 1)),
        "b", List.of(object("b", at(200), false, 1)),
        "c", List.of(object("c", at(300), false, 1)))));
    LifecyclePage<ObjectVersion> p = Listings.currentOlderThan(current,
        LifecycleRequest.of("b").withBefore(t(300)));
    assertThat(keyAt(p.entries())).containsExactly("a@100", "b@200");
    assertThat(p.truncated()).isFalse();
    assertThat(p.nextKeyMarker()).isNull();
    assertThat(p.nextVersionIdMarker()).isNull();
    current.seek("");
    LifecyclePage<ObjectVersion> cut = Listings.currentOlderThan(current,
        LifecycleRequest.of("b").withMaxKeys(1));
    assertThat(keyAt(cut.entries())).containsExactly("a@100");
    assertThat(cut.truncated()).isTrue();
    assertThat(cut.nextKeyMarker()).isEqualTo("a");
    assertThat(cut.nextVersionIdMarker()).isNull();
    LifecyclePage<ObjectVersion> next = Listings.currentOlderThan(current,
        LifecycleRequest.of("b").withMaxKeys(1).withKeyMarker("a").withPrefix("b"));
    assertThat(keyAt(next.entries())).containsExactly("b@200");
    assertThat(next.truncated()).isFalse();
    invalid("versionIdMarker", () -> Listings.currentOlderThan(current,
        LifecycleRequest.of("b").withKeyMarker("a").withVersionIdMarker(at(1).encode())));
  }

  @Test
  void nonCurrentListingPagesWithVersionMarkers() {
    LifecycleRequest r = LifecycleRequest.of("b").withMaxKeys(1);
    LifecyclePage<NonCurrentVersion> p1 = Listings.nonCurrent(scan(), r);
    assertThat(p1.entries()).hasSize(1);
    assertThat(p1.entries().get(0).version().revision().millis()).isEqualTo(2000);
    assertThat(p1.truncated()).isTrue();
    assertThat(p1.nextKeyMarker()).isEqualTo("k");
    assertThat(p1.nextVersionIdMarker()).isEqualTo(at(2000).encode());
    LifecyclePage<NonCurrentVersion> p2 = Listings.nonCurrent(scan(),
        r.withKeyMarker("k").withVersionIdMarker(p1.nextVersionIdMarker()));
    assertThat(p2.entries().get(0).version().versionId()).isEqualTo("null");
    assertThat(p2.nextVersionIdMarker()).isEqualTo("null");
    LifecyclePage<NonCurrentVersion> p3 = Listings.nonCurrent(scan(),
        r.withKeyMarker("k").withVersionIdMarker("null").withMaxKeys(5));
    assertThat(p3.entries()).hasSize(1);
    assertThat(p3.entries().get(0).version().key()).isEqualTo("o");
    assertThat(p3.truncated()).isFalse();
    assertThat(p3.nextKeyMarker()).isNull();
    assertThat(p3.nextVersionIdMarker()).isNull();
    LifecyclePage<NonCurrentVersion> before = Listings.nonCurrent(scan(),
        LifecycleRequest.of("b").withBefore(t(2500)));
    assertThat(before.entries().stream().map(n -> n.staleSince().toEpochMilli()).toList())
        .containsExactly(2000L, 500L);
    invalid("versionIdMarker", () -> Listings.nonCurrent(scan(),
        LifecycleRequest.of("b").withVersionIdMarker("null")));
  }

  @Test
  void orphanDeleteMarkerListing() {
    LifecyclePage<ObjectVersion> p = Listings.orphanDeleteMarkers(scan(), LifecycleRequest.of("b"));
    assertThat(keyAt(p.entries())).containsExactly("m@1500");
    assertThat(p.truncated()).isFalse();
    LifecyclePage<ObjectVersion> none = Listings.orphanDeleteMarkers(scan(),
        LifecycleRequest.of("b").withBefore(t(1000)));
    assertThat(none.entries()).isEmpty();
    LifecyclePage<ObjectVersion> zero = Listings.orphanDeleteMarkers(scan(),
        LifecycleRequest.of("b").withMaxKeys(0));
    assertThat(zero.entries()).isEmpty();
    assertThat(zero.truncated()).isFalse();
    invalid("versionIdMarker", () -> Listings.orphanDeleteMarkers(scan(),
        LifecycleRequest.of("b").withKeyMarker("m").withVersionIdMarker("null")));
  }

  @Test
  void listingHelpers() {
    assertThat(Listings.prefix(null)).isEqualTo("");
    assertThat(Listings.prefix("p")).isEqualTo("p");
    assertThat(Listings.delimiter(null)).isNull();
    assertThat(Listings.delimiter("")).isNull();
    assertThat(Listings.delimiter("/")).isEqualTo("/");
  }

  @Test
  void aUnionMergesTwoScansInOrderKeepingOneCopyOfWhatBothHaveAndSeeksBoth() {
    java.util.TreeMap<String, List<String>> a = new java.util.TreeMap<>(KeyOrder.UTF8);
    java.util.TreeMap<String, List<String>> b = new java.util.TreeMap<>(KeyOrder.UTF8);
    for (String k : List.of("a", "c", "e", "\uFFFF")) {
      a.put(k, List.of(k));
    }
    for (String k : List.of("b", "c", "d", "\uD83D\uDE00")) {
      b.put(k, List.of(k));
    }
    Cursor<String> u = Cursors.union(Cursors.ofMap(a), Cursors.ofMap(b), KeyOrder.UTF8);
    assertThat(drain(u)).containsExactly("a", "b", "c", "d", "e", "\uFFFF", "\uD83D\uDE00");
    u.seek("c");
    assertThat(u.next()).isEqualTo("c");
    assertThat(u.next()).isEqualTo("d");
    u.seek("\uFFFF");
    assertThat(drain(u)).containsExactly("\uFFFF", "\uD83D\uDE00");
    Cursor<String> onlyOne = Cursors.union(Cursors.ofMap(a), Cursors.ofMap(new java.util.TreeMap<>()),
        KeyOrder.UTF8);
    assertThat(drain(onlyOne)).containsExactly("a", "c", "e", "\uFFFF");
  }
}
