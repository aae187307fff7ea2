package io.objectmeta.mongo;

import io.objectmeta.api.spi.StepHook;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.model.Filters;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.MetadataStores;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.ServiceUnavailableException;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.Json;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.conformance.Polling;
import io.objectmeta.conformance.Recount;
import io.objectmeta.conformance.Sample;
import io.objectmeta.conformance.Walks;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What only the MongoDB backend has: its documents, layouts, escaping, repair queue and options. */
class MongoBackendTest {

  private static MongoMetadataStore open(String layout, String format) {
    return new MongoFixture(layout, format).openStore();
  }

  private static void drop(MongoMetadataStore s) {
    s.close();
    s.database().drop();
  }

  @ParameterizedTest
  @ValueSource(strings = {"collection-per-bucket", "shared"})
  void noUserMetadataNameCanActAsAnOperatorAndEveryNameRoundTrips(String layout) {
    MongoMetadataStore s = open(layout, "v1");
    try {
      s.createBucket("bkt", "owner", Json.object("{\"$set\": {\"a.b\": 1}, \"%24x\": \"y\"}"));
      Map<String, String> meta = new LinkedHashMap<>();
      meta.put("$where", "function() { return true; }");
      meta.put("$set", "x");
      meta.put("a.b.c", "dotted");
      meta.put("%24where", "already escaped-looking");
      meta.put("100%", "percent");
      meta.put("plain", "value");
      ObjectMetadata m = Sample.object("inj").toBuilder().userMetadata(meta)
          .tags(Map.of("$inc", "1", "x.y", "2"))
          .attributes(Json.object("{\"$unset\": {\"deleted\": \"\"}, \"k.e.y\": [1, {\"$gt\": 2}]}"))
          .build();
      s.putObject("bkt", "k", m);
      ObjectVersion got = s.getObject("bkt", "k");
      assertThat(got.metadata()).isEqualTo(m);
      assertThat(got.metadata().userMetadata()).containsExactlyEntriesOf(meta);
      assertThat(s.getBucket("bkt").attributes()).isEqualTo(Json.object("{\"$set\": {\"a.b\": 1}, \"%24x\": \"y\"}"));
      assertThat(Walks.allCurrent(s, "bkt").get(0).metadata()).isEqualTo(m);
      // nothing stored has a field name an operator or a path could be read from
      for (String c : s.database().listCollectionNames()) {
        for (BsonDocument d : s.database().getCollection(c, BsonDocument.class).find()) {
          assertNoOperatorNames(c, d);
        }
      }
    } finally {
      drop(s);
    }
  }

  private static void assertNoOperatorNames(String where, BsonValue v) {
    if (v.isDocument()) {
      for (Map.Entry<String, BsonValue> e : v.asDocument().entrySet()) {
        assertThat(e.getKey()).as(where).doesNotStartWith("$").doesNotContain(".");
        assertNoOperatorNames(where + "." + e.getKey(), e.getValue());
      }
    } else if (v.isArray()) {
      for (BsonValue e : v.asArray()) {
        assertNoOperatorNames(where, e);
      }
    }
  }

  @Test
  void escapedKeysKeepUtf8OrderWhateverTheServerCompares() {
    List<String> keys = new ArrayList<>(List.of("a", "a\0", "a\0b", "a\u0001", "a\u007f", "\u007fMx",
        "\uD7FE", "\uD7FF", "\uE000", "\uFFFF", "\uD83D\uDE00", "z", "%", "a\0\0", ""));
    keys.remove("");
    List<String> escaped = keys.stream().map(Ids::escape).toList();
    List<String> byUtf8 = new ArrayList<>(keys);
    byUtf8.sort(io.objectmeta.api.listing.KeyOrder.UTF8);
    List<String> byEscapedUtf16 = new ArrayList<>(keys);
    byEscapedUtf16.sort((x, y) -> Ids.escape(x).compareTo(Ids.escape(y)));
    assertThat(byEscapedUtf16).isEqualTo(byUtf8);
    for (int i = 0; i < keys.size(); i++) {
      String e = escaped.get(i);
      assertThat(Ids.unescape(e, 0, e.length())).isEqualTo(keys.get(i));
      assertThat(e.chars().allMatch(c -> c <= Ids.ESC)).isTrue();
    }
  }

  @Test
  void collectionsAndIndexesPerBucketInEachLayout() {
    Map<String, String> report = new LinkedHashMap<>();
    for (String layout : List.of("collection-per-bucket", "shared")) {
      MongoMetadataStore s = open(layout, "v1");
      try {
        s.createBucket("first", "owner", null);
        s.putObject("first", "k", Sample.object("k"));
        int[] before = census(s);
        for (int i = 0; i < 5; i++) {
          s.createBucket("bucket-" + i, "owner", null);
          s.putObject("bucket-" + i, "k", Sample.object("k"));
        }
        int[] after = census(s);
        double collections = (after[0] - before[0]) / 5.0;
        double indexes = (after[1] - before[1]) / 5.0;
        report.put(layout, collections + " collections, " + indexes + " indexes per bucket");
        if (layout.equals("shared")) {
          assertThat(collections).isZero();
          assertThat(indexes).isZero();
        } else {
          assertThat(collections).isEqualTo(1.0);
          assertThat(indexes).isGreaterThanOrEqualTo(1.0);
        }
      } finally {
        drop(s);
      }
    }
    System.out.println("per-bucket cost on " + MongoTestServer.kind() + ": " + report);
  }

  private static int[] census(MongoMetadataStore s) {
    int collections = 0;
    int indexes = 0;
    for (String c : s.database().listCollectionNames()) {
      collections++;
      for (BsonDocument ignored : s.database().getCollection(c).listIndexes(BsonDocument.class)) {
        indexes++;
      }
    }
    return new int[] {collections, indexes};
  }

  @Test
  void aDatabaseKeepsTheLayoutItWasFirstUsedWith() {
    MongoMetadataStore s = open("shared", "v1");
    try {
      MongoConfig other = MongoFixture.config(s.config().database(), "collection-per-bucket", "v1");
      assertThatThrownBy(() -> new MongoMetadataStore(MongoFixture.client(), false, other))
          .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("layout")
          .hasMessageContaining("shared");
    } finally {
      drop(s);
    }
  }

  @Test
  void optionsAreTypedAndTheRestGoToTheDriver() {
    MongoConfig c = MongoConfig.from(URI.create(
        "mongodb://h1:1,h2:2/meta?layout=shared&keyFormat=v0&replicaSet=rs0&intentLeaseMs=500"), Map.of());
    assertThat(c.database()).isEqualTo("meta");
    assertThat(c.layout()).isEqualTo(MongoConfig.Layout.SHARED);
    assertThat(c.keyFormat()).isEqualTo(KeyFormat.V0);
    assertThat(c.intentLease()).isEqualTo(Duration.ofMillis(500));
    assertThat(c.connection()).isEqualTo("mongodb://h1:1,h2:2/?replicaSet=rs0");
    assertThat(MongoConfig.from(URI.create("mongodb://h/"), Map.of()).database()).isEqualTo("objectmeta");
    assertThatThrownBy(() -> MongoConfig.from(URI.create("mongodb://h/?layout=tree"), Map.of()))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("layout");
    assertThatThrownBy(() -> MongoConfig.from(URI.create("mongodb://h/?keyFormat=v2"), Map.of()))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("keyFormat");
    assertThatThrownBy(() -> MongoConfig.from(URI.create("mongodb://h/?intentLeaseMs=-1"), Map.of()))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("intentLeaseMs");
    assertThatThrownBy(() -> MongoConfig.from(URI.create("mongodb://h/bad.name"), Map.of()))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("database");
  }

  @Test
  void anUnreachableServerIsAServiceUnavailableWithinSeconds() {
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> {
      try (MetadataStore s = MetadataStores.open("mongodb://127.0.0.1:1/x?serverSelectionTimeoutMS=500")) {
        s.getUUID();
      }
    }).isInstanceOf(ServiceUnavailableException.class).hasMessageContaining("mongodb");
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(30));
  }

  @Test
  void theProviderOpensAStoreByUriAndItsScratchSpacesAreDropped() {
    String uri = MongoTestServer.uri() + "om_provider_" + ProcessHandle.current().pid();
    try (MetadataStore s = MetadataStores.open(uri)) {
      s.createBucket("via-uri", "owner", null);
      assertThat(s.getBucket("via-uri").name()).isEqualTo("via-uri");
      assertThat(s.getUUID()).isEqualTo(s.getUUID());
    } finally {
      MongoFixture.client().getDatabase("om_provider_" + ProcessHandle.current().pid()).drop();
    }
    Set<String> names;
    try (var space = MetadataStores.scratch(uri, Map.of())) {
      MetadataStore a = space.open();
      MetadataStore b = space.open();
      a.createBucket("only-in-a", "owner", null);
      assertThat(b.listBuckets(io.objectmeta.api.listing.ListBucketsRequest.all()).buckets()).isEmpty();
      names = new TreeSet<>();
      MongoFixture.client().listDatabaseNames().into(names);
      assertThat(names.stream().filter(n -> n.startsWith("om_provider_" + ProcessHandle.current().pid() + "_s")))
          .isNotEmpty();
    }
    names = new TreeSet<>();
    MongoFixture.client().listDatabaseNames().into(names);
    assertThat(names.stream().filter(n -> n.startsWith("om_provider_" + ProcessHandle.current().pid() + "_s")))
        .isEmpty();
  }

  @Test
  void aScratchRunWhoseLeaseIsGoneOrPastIsRemovedByTheNextAndALiveOneIsNot() {
    String db = "om_sweep_" + ProcessHandle.current().pid();
    var client = MongoFixture.client();
    java.util.function.BiConsumer<String, java.time.Instant> lease = (run, until) ->
        client.getDatabase(db + "_s" + run + "_lease").getCollection("lease").insertOne(
            new org.bson.Document("_id", "lease").append("until", java.util.Date.from(until)));
    java.util.function.Consumer<String> namespace = name ->
        client.getDatabase(name).getCollection("x").insertOne(new org.bson.Document("a", 1));
    namespace.accept(db + "_sdeadbeef_1");                       // killed before leases existed
    namespace.accept(db + "_scafebabe_1");                       // killed: its lease ran out
    lease.accept("cafebabe", java.time.Instant.now().minusSeconds(60));
    namespace.accept(db + "_s0badf00d_1");                       // alive elsewhere
    lease.accept("0badf00d", java.time.Instant.now().plusSeconds(60));
    java.util.function.Supplier<Set<String>> left = () -> {
      Set<String> names = new TreeSet<>();
      client.listDatabaseNames().into(names);
      names.removeIf(n -> !n.startsWith(db + "_s"));
      return names;
    };
    try (var space = (io.objectmeta.api.spi.SweepingScratchSpace)
        MetadataStores.scratch(MongoTestServer.uri() + db, Map.of())) {
      space.open().close();
      assertThat(space.removedRuns()).isEqualTo(2);
      assertThat(left.get()).noneMatch(n -> n.contains("deadbeef") || n.contains("cafebabe"))
          .contains(db + "_s0badf00d_1", db + "_s0badf00d_lease")
          .anyMatch(n -> n.endsWith("_lease") && !n.contains("0badf00d"));
    }
    assertThat(left.get()).containsExactlyInAnyOrder(db + "_s0badf00d_1", db + "_s0badf00d_lease");
    client.getDatabase(db + "_s0badf00d_1").drop();
    client.getDatabase(db + "_s0badf00d_lease").drop();
  }

  @Test
  void theBackgroundDrainRollsForwardAWriteLeftByADeadProcess() {
    MongoMetadataStore crashed = open("collection-per-bucket", "v1");
    MongoMetadataStore next = null;
    try {
      crashed.createBucket("bkt", "owner", null);
      crashed.putObject("bkt", "k", Sample.object("one"));
      crashed.setStepHook(step -> {
        if (step.equals("put version")) {
          throw new IllegalStateException("the process dies");
        }
      });
      assertThatThrownBy(() -> crashed.putObject("bkt", "k", Sample.object("two")));
      crashed.close();
      // a reader may see the old object until the intent is rolled forward; GC holds the record
      assertThat(crashed.database().getCollection(MongoMetadataStore.GC).countDocuments()).isZero();
      MongoConfig fast = crashed.config().withLease(Duration.ofMillis(200), Duration.ofMillis(50));
      next = new MongoMetadataStore(MongoFixture.client(), false, fast);
      MongoMetadataStore n = next;
      Polling.until("the background drain completes the overwrite",
          () -> n.getObject("bkt", "k").metadata().etag().equals(Sample.object("two").etag()));
      Polling.until("the replaced version is queued and claimable", () -> {
        GarbageClaim c = n.claimGarbage(10, Duration.ZERO, Duration.ofMinutes(1));
        n.releaseGarbage(c.claimId(), c.records().stream().map(r -> r.id()).toList());
        return c.records().size() == 1;
      });
      assertThat(Recount.withoutUploads(n.bucketUsage("bkt"))).isEqualTo(Recount.versions(n, "bkt"));
    } finally {
      if (next != null) {
        next.close();
      }
      crashed.database().drop();
    }
  }

  @Test
  void aWriterThatMeetsAStaleIntentRollsItForwardBeforeItsOwnWrite() {
    MongoMetadataStore crashed = open("shared", "v1");
    MongoMetadataStore next = null;
    try {
      crashed.createBucket("bkt", "owner", null);
      crashed.updateBucket("bkt", new BucketUpdate(VersioningState.ENABLED, null, null));
      crashed.putObject("bkt", "k", Sample.object("one"));
      crashed.setStepHook(step -> {
        if (step.equals("commit")) {
          throw new IllegalStateException("the process dies");
        }
      });
      assertThatThrownBy(() -> crashed.putObject("bkt", "k", Sample.object("two")));
      crashed.close();
      MongoConfig noDrain = crashed.config().withLease(Duration.ofMillis(1), Duration.ofHours(1));
      next = new MongoMetadataStore(MongoFixture.client(), false, noDrain);
      Polling.clockPast(java.time.Instant.now().plusMillis(2));
      next.putObject("bkt", "k", Sample.object("three"));
      assertThat(Walks.allVersions(next, "bkt")).extracting(v -> v.metadata().etag()).containsExactly(
          Sample.object("three").etag(), Sample.object("two").etag(), Sample.object("one").etag());
      assertThat(Recount.withoutUploads(next.bucketUsage("bkt"))).isEqualTo(Recount.versions(next, "bkt"));
    } finally {
      if (next != null) {
        next.close();
      }
      crashed.database().drop();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"v0", "v1"})
  void racingRemovalsOfTheLatestAndPutsLeaveTheMasterEqualToTheNewestVersion(String format)
      throws Exception {
    MongoMetadataStore s = open("collection-per-bucket", format);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      s.createBucket("bkt", "owner", null);
      s.updateBucket("bkt", new BucketUpdate(VersioningState.ENABLED, null, null));
      s.putObject("bkt", "hot", Sample.object("seed"));
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int id = t;
        fs.add(pool.submit(() -> {
          for (int i = 0; i < 25; i++) {
            if (id % 2 == 0) {
              s.putObject("bkt", "hot", Sample.object("t" + id + "-" + i));
            } else if (i % 5 == 4) {
              s.deleteObject("bkt", "hot");
            } else {
              try {
                List<ObjectVersion> vs = Walks.allVersions(s, "bkt");
                if (!vs.isEmpty()) {
                  s.deleteObjectVersion("bkt", "hot", vs.get(0).versionId());
                }
              } catch (io.objectmeta.api.error.NoSuchVersionException raced) {
                // another thread removed it first
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get(100, TimeUnit.SECONDS);
      }
      List<ObjectVersion> vs = Walks.allVersions(s, "bkt");
      Namespace ns = s.ns(s.getBucket("bkt"), KeyFormat.of(format));
      BsonDocument master = ns.coll().find(Filters.eq("_id", ns.ids().master("hot"))).first();
      boolean expectMaster = !vs.isEmpty() && (format.equals("v0") || !vs.get(0).deleteMarker());
      if (expectMaster) {
        assertThat(master).as("the master").isNotNull();
        assertThat(master.containsKey("phd")).as("no placeholder left").isFalse();
        assertThat(master.getString("v").getValue()).isEqualTo(vs.get(0).revision().encode());
      } else {
        assertThat(master).as("no master while the latest is a delete marker or nothing").isNull();
      }
      assertThat(Recount.withoutUploads(s.bucketUsage("bkt"))).isEqualTo(Recount.versions(s, "bkt"));
    } finally {
      pool.shutdownNow();
      drop(s);
    }
  }

  /**
   * A key whose versions are there without their lock (as a reader sees one that another writer
   * is emptying): every attempt of a write is lost, and the write ends in the retryable
   * ServiceUnavailable once the store's {@code maxRetries} are spent, saying so; nothing changed.
   * (Before the shared protocol, MongoDB's loops had no such bound.)
   */
  @Test
  void aSteadyConflictEndsInServiceUnavailableWithinTheRetryBudget() {
    String db = "om_test_" + ProcessHandle.current().pid() + "_steady";
    MongoMetadataStore s = new MongoMetadataStore(MongoFixture.client(), false, MongoConfig.from(
        URI.create(MongoTestServer.uri() + db), Map.of("layout", "collection-per-bucket",
            "keyFormat", "v1", "maxRetries", "3")));
    try {
      var b = s.createBucket("steady", "owner", null);
      ObjectVersion v1 = s.putObject("steady", "k", ObjectMetadata.builder().size(1).etag("e").build());
      Namespace ns = s.ns(b, KeyFormat.V1);
      ns.coll().deleteOne(Filters.eq("_id", ns.ids().lock("k")));
      long t0 = System.nanoTime();
      assertThatThrownBy(() -> s.putObject("steady", "k",
          ObjectMetadata.builder().size(2).etag("f").build()))
          .isInstanceOf(ServiceUnavailableException.class)
          .hasMessageStartingWith("mongodb: the key kept changing after 4 attempts in ")
          .hasMessageContaining("(maxRetries 3)");
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
      assertThat(s.getObject("steady", "k").versionId()).isEqualTo(v1.versionId());
    } finally {
      drop(s);
    }
  }
}
