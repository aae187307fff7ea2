package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectmeta.api.Capability;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.error.ServiceUnavailableException;
import io.objectmeta.api.gc.GarbagePage;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.listing.ListPartsRequest;
import io.objectmeta.api.listing.ListPartsResult;
import io.objectmeta.api.listing.ListUploadsRequest;
import io.objectmeta.api.listing.ListVersionsRequest;
import io.objectmeta.api.migrate.MigrationCheckpoint;
import io.objectmeta.api.migrate.MigrationPhase;
import io.objectmeta.api.migrate.MigrationProgress;
import io.objectmeta.api.migrate.MigrationRefusedException;
import io.objectmeta.api.migrate.MigrationReport;
import io.objectmeta.api.migrate.Mismatch;
import io.objectmeta.api.migrate.StoreMigration;
import io.objectmeta.api.migrate.VerificationReport;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectMetadataUpdate;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Part;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The migration of one backend into another ({@link StoreMigration}), through the public SPI:
 * a realistic store ({@link MigrationScenario}) copied whole, verified, and equal as a client
 * reads it; interrupted and resumed; refused where it must be; a difference found by the
 * verification. A pair of backends runs it by extending this class:
 *
 * <pre>{@code
 * class MemoryToPostgresMigrationTest extends MigrationConformance {
 *   protected ConformanceFixture source() { return new MemoryFixture(); }
 *   protected ConformanceFixture target() { return new PostgresFixture(); }
 * }
 * }</pre>
 *
 * The two fixtures must give two distinct stores.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
public abstract class MigrationConformance {

  /** A small batch, so that the scenario spans many pages and checkpoints. */
  protected static final int BATCH = 5;

  private ConformanceFixture sourceFixture;
  private ConformanceFixture targetFixture;
  protected MetadataStore source;
  protected MetadataStore target;

  @TempDir
  protected Path dir;

  /** The backend migrated from. */
  protected abstract ConformanceFixture source();

  /** The backend migrated to. */
  protected abstract ConformanceFixture target();

  @BeforeEach
  protected void openStores() {
    sourceFixture = source();
    targetFixture = target();
    source = sourceFixture.open();
    target = targetFixture.open();
    MigrationScenario.populate(source);
  }

  @AfterEach
  protected void closeStores() {
    if (source != null) {
      sourceFixture.close(source);
    }
    if (target != null) {
      targetFixture.close(target);
    }
  }

  protected StoreMigration.Builder migration(MetadataStore to) {
    return StoreMigration.builder(source, to).batchSize(BATCH).checkpoint(dir.resolve("checkpoint.json"));
  }

  // ------------------------------------------------------------------------------------- tests

  @Test
  public void everythingIsCopiedVerifiedAndReadsTheSame() {
    List<MigrationProgress> seen = Collections.synchronizedList(new ArrayList<>());
    MigrationReport report = migration(target).progress(seen::add).build().run();

    assertThat(report.finished()).isTrue();
    assertThat(report.resumed()).isFalse();
    assertThat(report.verification().mismatches()).isEmpty();
    assertThat(report.verified()).isTrue();
    assertThat(report.source()).isEqualTo(source.getUUID());
    assertThat(report.copied().buckets()).isEqualTo(3);
    assertThat(report.copied().keys()).isEqualTo(keys(source));
    assertThat(report.copied().versions() + report.copied().deleteMarkers())
        .isEqualTo(allVersions(source).size());
    assertThat(report.copied().garbage()).isEqualTo(garbage(source).size()).isPositive();
    assertSameAsSource(target);

    assertThat(seen).extracting(MigrationProgress::phase).contains(MigrationPhase.KEYS,
        MigrationPhase.GARBAGE, MigrationPhase.VERIFY, MigrationPhase.DONE);
    assertThat(seen).filteredOn(p -> p.phase() == MigrationPhase.KEYS)
        .extracting(MigrationProgress::bucket).contains(MigrationScenario.VERSIONED);
    assertThat(seen).allSatisfy(p -> assertThat(p.recordsPerSecond()).isNotNegative());
    assertThat(seen.get(seen.size() - 1).copied()).isEqualTo(report.copied());
    assertThat(MigrationCheckpoint.read(dir.resolve("checkpoint.json")).phase())
        .isEqualTo(MigrationPhase.DONE);
  }

  @ParameterizedTest(name = "a failure of {0}")
  @ValueSource(strings = {"restoreKey", "restoreUpload", "restoreGarbage", "restoreBucket"})
  public void anInterruptedMigrationResumesWhereItStopped(String failing) {
    if (failing.equals("restoreUpload")) {
      org.junit.jupiter.api.Assumptions.assumeTrue(
          source.capabilities().contains(Capability.MULTIPART_UPLOADS), "the source keeps no uploads");
    }
    int after = failing.equals("restoreKey") ? 17 : 1;
    MetadataStore flaky = intercepted(target, (method, calls) -> {
      if (method.equals(failing) && calls.incrementAndGet() > after) {
        throw new ServiceUnavailableException("the connection dropped (" + failing + " #"
            + calls.get() + ")");
      }
    });
    assertThatThrownBy(() -> migration(flaky).build().run())
        .isInstanceOf(ServiceUnavailableException.class).hasMessageContaining(failing);
    MigrationCheckpoint stoppedAt = MigrationCheckpoint.read(dir.resolve("checkpoint.json"));
    assertThat(stoppedAt.phase()).isNotEqualTo(MigrationPhase.DONE);

    AtomicInteger restoredKeys = new AtomicInteger();
    MetadataStore counted = counting(target, "restoreKey"::equals, restoredKeys);
    MigrationReport report = migration(counted).build().run();
    assertThat(report.resumed()).isTrue();
    assertThat(report.verification().mismatches()).isEmpty();
    assertThat(report.verified()).isTrue();
    assertThat(report.copied().keys()).as("each key counted once across the two runs")
        .isEqualTo(keys(source));
    assertThat(report.copied().garbage()).isEqualTo(garbage(source).size());
    if (failing.equals("restoreKey")) {
      assertThat(restoredKeys.get()).as("keys restored again after the interruption")
          .isLessThan((int) keys(source) - 10);
    }
    assertSameAsSource(target);
  }

  @Test
  public void aStoppedMigrationResumesAndAFinishedOneOnlyVerifies() {
    StoreMigration[] running = new StoreMigration[1];
    running[0] = migration(target).progress(p -> {
      if (p.phase() == MigrationPhase.KEYS) {
        running[0].stop();
      }
    }).build();
    MigrationReport stopped = running[0].run();
    assertThat(stopped.finished()).isFalse();
    assertThat(stopped.verification()).isNull();
    assertThat(stopped.copied().versions() + stopped.copied().deleteMarkers())
        .isBetween((long) BATCH, (long) BATCH + MigrationScenario.MANY);

    MigrationReport resumed = migration(target).build().run();
    assertThat(resumed.resumed()).isTrue();
    assertThat(resumed.verified()).isTrue();

    AtomicInteger writes = new AtomicInteger();
    MetadataStore watched = counting(target, method -> method.startsWith("restore"), writes);
    MigrationReport again = migration(watched).build().run();
    assertThat(again.verified()).isTrue();
    assertThat(again.copied()).isEqualTo(resumed.copied());
    assertThat(writes.get()).as("restore calls of a run whose checkpoint says done").isZero();
  }

  @Test
  public void theVerificationNamesAVersionWhoseMetadataDiffers() {
    assertThat(migration(target).build().run().verified()).isTrue();
    ObjectVersion v = allVersions(target).stream()
        .filter(x -> x.key().equals(MigrationScenario.MANY_KEY)).skip(7).findFirst().orElseThrow();
    target.updateObjectMetadata(MigrationScenario.VERSIONED, v.key(), v.versionId(),
        ObjectMetadataUpdate.tags(Map.of("changed", "in the target")));

    VerificationReport r = StoreMigration.verify(source, target);
    assertThat(r.matches()).isFalse();
    assertThat(r.mismatches()).extracting(Mismatch::bucket).containsOnly(MigrationScenario.VERSIONED);
    assertThat(r.mismatches()).extracting(Mismatch::what).contains("versions digest")
        .anySatisfy(w -> assertThat(w).contains(v.versionId()).endsWith("metadata"));
    assertThat(r.mismatches()).filteredOn(m -> m.what().endsWith("metadata")).singleElement()
        .satisfies(m -> assertThat(m.target()).contains("in the target"));
    assertThat(r.buckets()).filteredOn(c -> !c.matches()).extracting(c -> c.source().name())
        .containsExactly(MigrationScenario.VERSIONED);
  }

  @Test
  public void theVerificationFindsMissingAndExtraRecords() {
    assertThat(migration(target).build().run().verified()).isTrue();
    target.deleteObjectVersion(MigrationScenario.PLAIN, "p3", "null");
    target.createBucket("only-in-target", "owner-1", null);
    VerificationReport r = StoreMigration.verify(source, target);
    assertThat(r.onlyInTarget()).containsExactly("only-in-target");
    assertThat(r.mismatches()).extracting(Mismatch::what)
        .contains("keys", "versions", "usage", "versions digest", "key \"p3\"", "GC records");
    assertThat(r.mismatches()).filteredOn(m -> m.what().equals("key \"p3\"")).singleElement()
        .satisfies(m -> assertThat(m.target()).isNull());
  }

  @Test
  public void aTargetHoldingABucketOfTheSourceIsRefused() {
    target.createBucket(MigrationScenario.PLAIN, "someone", null);
    assertThatThrownBy(() -> migration(target).build().run())
        .isInstanceOf(MigrationRefusedException.class).hasMessageContaining(MigrationScenario.PLAIN);
    assertThat(target.listBuckets(io.objectmeta.api.listing.ListBucketsRequest.all()).buckets())
        .extracting(Bucket::name).containsExactly(MigrationScenario.PLAIN);
    assertThat(Files.exists(dir.resolve("checkpoint.json"))).isFalse();
    assertThatThrownBy(() -> StoreMigration.builder(source, source).build().run())
        .isInstanceOf(MigrationRefusedException.class).hasMessageContaining("same store");
  }

  @Test
  public void aCheckpointOfAnotherMigrationIsRefused() throws Exception {
    MigrationCheckpoint other = new MigrationCheckpoint(1, java.util.UUID.randomUUID(),
        target.getUUID(), MigrationPhase.GARBAGE, null, null, null, null, null, null, null, null, null);
    Files.write(dir.resolve("checkpoint.json"), io.objectmeta.api.model.Json.MAPPER.writeValueAsBytes(other));
    assertThatThrownBy(() -> migration(target).build().run())
        .isInstanceOf(MigrationRefusedException.class).hasMessageContaining(other.source().toString());
    assertThat(target.listBuckets(io.objectmeta.api.listing.ListBucketsRequest.all()).buckets()).isEmpty();
  }

  @Test
  public void theMigrationStreamsPageByPageAndNeverReadsABucketWhole() {
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    MetadataStore watchedSource = intercepted(source, (method, calls) -> events.add("read:" + method));
    MetadataStore watchedTarget = intercepted(target, (method, calls) -> events.add("write:" + method));
    List<Integer> asked = Collections.synchronizedList(new ArrayList<>());
    MetadataStore sizing = intercepting(watchedSource, (method, args) -> {
      Object a = args.length > 0 ? args[0] : null;
      if (a instanceof ListVersionsRequest r) {
        asked.add(r.maxKeys());
      } else if (a instanceof ListUploadsRequest r) {
        asked.add(r.maxUploads());
      } else if (a instanceof ListPartsRequest r) {
        asked.add(r.maxParts());
      } else if (method.equals("listGarbage")) {
        asked.add((Integer) args[1]);
      }
    });
    assertThat(StoreMigration.builder(sizing, watchedTarget).batchSize(BATCH).build().run().verified())
        .isTrue();
    assertThat(asked).as("entries asked of each listing call").isNotEmpty().allMatch(n -> n <= BATCH);
    int firstWrite = events.indexOf("write:restoreKey");
    int secondPage = events.subList(events.indexOf("read:listObjectVersions") + 1, events.size())
        .indexOf("read:listObjectVersions") + events.indexOf("read:listObjectVersions") + 1;
    assertThat(firstWrite).as("the first key is restored before the second page is read")
        .isPositive().isLessThan(secondPage);
  }

  // ------------------------------------------------------------------------------ comparisons

  /** Asserts that a client reads the target as it reads the source (GC record ids aside). */
  protected void assertSameAsSource(MetadataStore copy) {
    StoreSnapshot s = StoreSnapshot.of(source);
    StoreSnapshot t = StoreSnapshot.of(copy);
    assertThat(t.buckets()).hasSameSizeAs(s.buckets());
    for (int i = 0; i < s.buckets().size(); i++) {
      StoreSnapshot.BucketState a = s.buckets().get(i);
      StoreSnapshot.BucketState b = t.buckets().get(i);
      assertThat(millis(b.bucket())).isEqualTo(millis(a.bucket()));
      assertThat(b.versions()).as("versions of %s", a.bucket().name()).isEqualTo(a.versions());
      assertThat(b.uploads()).as("uploads of %s", a.bucket().name()).isEqualTo(a.uploads());
      assertThat(b.usage()).as("usage of %s", a.bucket().name()).isEqualTo(a.usage());
      for (MultipartUpload u : a.uploads()) {
        assertThat(parts(copy, a.bucket().name(), u)).isEqualTo(parts(source, a.bucket().name(), u));
      }
      assertThat(Walks.allCurrent(copy, a.bucket().name()))
          .isEqualTo(Walks.allCurrent(source, a.bucket().name()));
    }
    assertThat(t.usage()).isEqualTo(s.usage());
    assertThat(garbage(copy)).as("GC records but their ids")
        .containsExactlyInAnyOrderElementsOf(garbage(source));
  }

  private static Bucket millis(Bucket b) {
    return new Bucket(b.name(), b.id(), b.owner(), b.created().truncatedTo(ChronoUnit.MILLIS),
        b.versioning(), b.attributes());
  }

  private static List<Part> parts(MetadataStore store, String bucket, MultipartUpload u) {
    List<Part> all = new ArrayList<>();
    ListPartsRequest r = ListPartsRequest.of(bucket, u.key(), u.uploadId());
    while (true) {
      ListPartsResult page = store.listParts(r);
      page.parts().forEach(p -> all.add(p.withLastModified(
          p.lastModified().truncatedTo(ChronoUnit.MILLIS))));
      if (!page.truncated()) {
        return all;
      }
      r = r.withPartNumberMarker(page.nextPartNumberMarker());
    }
  }

  /** The GC queue, ids left out and times in milliseconds, read without claiming. */
  protected static List<GarbageRecord> garbage(MetadataStore store) {
    List<GarbageRecord> all = new ArrayList<>();
    String after = null;
    do {
      GarbagePage page = store.listGarbage(after, 1000);
      for (GarbageRecord r : page.records()) {
        all.add(new GarbageRecord("-", r.kind(), r.bucket(), r.bucketId(), r.key(), r.versionId(),
            r.partNumber(), r.size(), r.dataLocations(), r.deletedAt().truncatedTo(ChronoUnit.MILLIS)));
      }
      after = page.next();
    } while (after != null);
    return all;
  }

  private static List<ObjectVersion> allVersions(MetadataStore store) {
    List<ObjectVersion> all = new ArrayList<>();
    for (String b : List.of(MigrationScenario.VERSIONED, MigrationScenario.SUSPENDED,
        MigrationScenario.PLAIN)) {
      all.addAll(Walks.allVersions(store, b));
    }
    return all;
  }

  /** Keys with a version or marker, over the scenario's buckets. */
  private static long keys(MetadataStore store) {
    long n = 0;
    for (String b : List.of(MigrationScenario.VERSIONED, MigrationScenario.SUSPENDED,
        MigrationScenario.PLAIN)) {
      n += Walks.allVersions(store, b).stream().map(ObjectVersion::key).distinct().count();
    }
    return n;
  }

  // ----------------------------------------------------------------------------- interception

  /** Sees each call's method name with a counter per store; may throw to fail the call. */
  protected interface CallObserver {
    void before(String method, AtomicInteger calls);
  }

  /** Sees each call's method name and arguments. */
  protected interface ArgumentObserver {
    void before(String method, Object[] args);
  }

  /** A store that calls {@code observer} before each of its calls, then the real store. */
  protected static MetadataStore intercepted(MetadataStore real, CallObserver observer) {
    AtomicInteger calls = new AtomicInteger();
    return intercepting(real, (method, args) -> observer.before(method, calls));
  }

  /** A store that counts its calls of the methods named. */
  protected static MetadataStore counting(MetadataStore real,
      java.util.function.Predicate<String> methods, AtomicInteger count) {
    return intercepting(real, (method, args) -> {
      if (methods.test(method)) {
        count.incrementAndGet();
      }
    });
  }

  protected static MetadataStore intercepting(MetadataStore real, ArgumentObserver observer) {
    return (MetadataStore) Proxy.newProxyInstance(MetadataStore.class.getClassLoader(),
        new Class<?>[] {MetadataStore.class}, (proxy, method, args) -> {
          Object[] a = args == null ? new Object[0] : args;
          if (method.isDefault()) {
            return java.lang.reflect.InvocationHandler.invokeDefault(proxy, method, args);
          }
          observer.before(method.getName(), a);
          try {
            return method.invoke(real, a);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }
}
