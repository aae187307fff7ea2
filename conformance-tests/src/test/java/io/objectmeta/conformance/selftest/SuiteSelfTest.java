package io.objectmeta.conformance.selftest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.objectmeta.api.Capability;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.error.BucketAlreadyExistsException;
import io.objectmeta.api.error.NoSuchKeyException;
import io.objectmeta.api.error.NotImplementedException;
import io.objectmeta.api.listing.ListObjectsRequest;
import io.objectmeta.api.listing.ListObjectsResult;
import io.objectmeta.api.listing.ListObjectsV2Request;
import io.objectmeta.api.listing.ListObjectsV2Result;
import io.objectmeta.api.listing.ListVersionsResult;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.WriteCondition;
import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.Walks;
import io.objectmeta.memory.MemoryMetadataStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Tests of the suite itself: it reports what a store lacks as skipped with the reason (and fails
 * nothing), and it catches stores that break a rule of the contract.
 */
class SuiteSelfTest {

  static TestExecutionSummary run(Class<?> suite) {
    Launcher launcher = LauncherFactory.create();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(suite)).build(), listener);
    return listener.getSummary();
  }

  static ConformanceFixture fixture(String name, Function<MetadataStore, MetadataStore> wrap,
      Map<Capability, String> unsupported) {
    return new ConformanceFixture() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public MetadataStore open() {
        return wrap.apply(new MemoryMetadataStore());
      }

      @Override
      public Map<Capability, String> unsupported() {
        return unsupported;
      }
    };
  }

  /** The memory store without any optional capability, refusing those calls as the SPI says. */
  static MetadataStore lacking(MetadataStore real) {
    Map<String, Decorated.Override> o = new HashMap<>();
    Decorated.Override refuse = (r, a) -> {
      throw new NotImplementedException("not in this backend");
    };
    for (String m : List.of("initiateMultipartUpload", "putPart", "completeMultipartUpload",
        "abortMultipartUpload", "listParts", "listMultipartUploads", "listCurrentOlderThan",
        "listNonCurrentVersions", "listOrphanDeleteMarkers", "restoreUpload")) {
      o.put(m, refuse);
    }
    o.put("capabilities", (r, a) -> EnumSet.noneOf(Capability.class));
    o.put("listObjects", (r, a) -> {
      if (a[0] != null && ((ListObjectsRequest) a[0]).asOf() != null) {
        throw new NotImplementedException("no point-in-time listing");
      }
      return r.listObjects((ListObjectsRequest) a[0]);
    });
    o.put("listObjectsV2", (r, a) -> {
      if (a[0] != null && ((ListObjectsV2Request) a[0]).asOf() != null) {
        throw new NotImplementedException("no point-in-time listing");
      }
      return r.listObjectsV2((ListObjectsV2Request) a[0]);
    });
    return Decorated.store(real, o);
  }

  @Test
  void aStoreLackingCapabilitiesIsReportedAsSkippedNotFailed() {
    Map<Capability, String> reasons = Map.of(
        Capability.MULTIPART_UPLOADS, "uploads live elsewhere",
        Capability.POINT_IN_TIME_LISTING, "no revisions kept",
        Capability.LIFECYCLE_LISTINGS, "no lifecycle scans");
    SelfTestSuite.current = fixture("lacking", SuiteSelfTest::lacking, reasons);
    TestExecutionSummary s = run(SelfTestSuite.class);
    assertThat(s.getFailures()).as("failures of a store that lacks capabilities but declares them")
        .extracting(f -> f.getTestIdentifier().getDisplayName() + ": " + f.getException())
        .isEmpty();
    assertThat(s.getTestsAbortedCount()).isGreaterThanOrEqualTo(22 + 10 + 11);
    assertThat(s.getTestsSucceededCount()).isGreaterThan(250);
  }

  @Test
  void aStoreLackingACapabilityItDoesNotDeclareFails() {
    SelfTestSuite.current = fixture("undeclared", SuiteSelfTest::lacking, Map.of());
    TestExecutionSummary s = run(SelfTestSuite.class);
    assertThat(s.getTotalFailureCount()).isGreaterThan(40);
  }

  @Test
  void aStoreThatAnswersInsteadOfRefusingAnUnsupportedCallFails() {
    Function<MetadataStore, MetadataStore> silent = real -> Decorated.store(real,
        Map.of("capabilities", (r, a) -> EnumSet.noneOf(Capability.class)));
    SelfTestSuite.current = fixture("silent", silent, Map.of(
        Capability.MULTIPART_UPLOADS, "x", Capability.POINT_IN_TIME_LISTING, "y",
        Capability.LIFECYCLE_LISTINGS, "z"));
    TestExecutionSummary s = run(SelfTestSuite.class);
    assertThat(s.getTotalFailureCount()).isGreaterThan(40);
  }

  /** Stores that each break one rule; the suite must catch every one. */
  @SuppressWarnings("unchecked")
  static Stream<Arguments> brokenStores() {
    Map<String, Map<String, Decorated.Override>> mutants = new java.util.LinkedHashMap<>();
    mutants.put("V1 listings never say they are truncated", Map.of("listObjects", (r, a) -> {
      ListObjectsResult x = r.listObjects((ListObjectsRequest) a[0]);
      return new ListObjectsResult(x.contents(), x.commonPrefixes(), false, null);
    }));
    mutants.put("V2 listings order keys as Java strings", Map.of("listObjectsV2", (r, a) -> {
      ListObjectsV2Result x = r.listObjectsV2((ListObjectsV2Request) a[0]);
      List<ObjectVersion> sorted = new ArrayList<>(x.contents());
      sorted.sort((p, q) -> p.key().compareTo(q.key()));
      return new ListObjectsV2Result(sorted, x.commonPrefixes(), x.truncated(), x.nextContinuationToken(), x.keyCount());
    }));
    mutants.put("write conditions are ignored", Map.of("putObject/4", (r, a) ->
        r.putObject((String) a[0], (String) a[1], (io.objectmeta.api.model.ObjectMetadata) a[2], WriteCondition.none())));
    mutants.put("the GC grace period is ignored", Map.of("claimGarbage", (r, a) ->
        r.claimGarbage((Integer) a[0], Duration.ZERO, (Duration) a[2])));
    mutants.put("a delete marker on top is not reported", Map.of("getObject", (r, a) -> {
      try {
        return r.getObject((String) a[0], (String) a[1]);
      } catch (NoSuchKeyException e) {
        throw new NoSuchKeyException(e.getMessage());
      }
    }));
    mutants.put("a non-empty bucket can be deleted", Map.of("deleteBucket", (r, a) -> {
      String b = (String) a[0];
      try {
        for (ObjectVersion v : Walks.allVersions(r, b)) {
          r.deleteObjectVersion(b, v.key(), v.versionId());
        }
      } catch (RuntimeException ignored) {
        // a missing bucket: let deleteBucket say so
      }
      r.deleteBucket(b);
      return null;
    }));
    mutants.put("a second create of a bucket silently succeeds", Map.of("createBucket", (r, a) -> {
      try {
        return r.createBucket((String) a[0], (String) a[1], (com.fasterxml.jackson.databind.node.ObjectNode) a[2]);
      } catch (BucketAlreadyExistsException e) {
        return r.getBucket((String) a[0]);
      }
    }));
    mutants.put("the next version-id marker is dropped", Map.of("listObjectVersions", (r, a) -> {
      ListVersionsResult x = r.listObjectVersions((io.objectmeta.api.listing.ListVersionsRequest) a[0]);
      return new ListVersionsResult(x.versions(), x.commonPrefixes(), x.truncated(), x.nextKeyMarker(), null);
    }));
    mutants.put("usage counters are not kept", Map.of("bucketUsage", (r, a) -> {
      r.bucketUsage((String) a[0]);
      return Usage.ZERO;
    }));
    mutants.put("a delete of an absent unversioned key succeeds", Map.of("deleteObject", (r, a) -> {
      try {
        return r.deleteObject((String) a[0], (String) a[1]);
      } catch (NoSuchKeyException e) {
        return new io.objectmeta.api.model.DeleteResult((String) a[1], null, false);
      }
    }));
    mutants.put("restored GC records are added again by a second restore", Map.of("restoreGarbage",
        (r, a) -> {
          List<io.objectmeta.api.gc.GarbageRecord> fresh = new ArrayList<>();
          for (io.objectmeta.api.gc.GarbageRecord g : (List<io.objectmeta.api.gc.GarbageRecord>) a[0]) {
            fresh.add(new io.objectmeta.api.gc.GarbageRecord(g.id() + "-" + java.util.UUID.randomUUID(),
                g.kind(), g.bucket(), g.bucketId(), g.key(), g.versionId(), g.partNumber(), g.size(),
                g.dataLocations(), g.deletedAt()));
          }
          return r.restoreGarbage(fresh);
        }));
    mutants.put("a restored bucket starts unversioned", Map.of("restoreBucket", (r, a) -> {
      io.objectmeta.api.model.Bucket b = (io.objectmeta.api.model.Bucket) a[0];
      return r.restoreBucket(b.withVersioning(io.objectmeta.api.model.VersioningState.UNVERSIONED));
    }));
    return mutants.entrySet().stream().map(e -> Arguments.of(e.getKey(), e.getValue()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("brokenStores")
  void theSuiteCatchesABrokenStore(String broken, Map<String, Decorated.Override> overrides) {
    SelfTestSuite.current = fixture(broken, real -> Decorated.store(real, overrides), Map.of());
    TestExecutionSummary s = run(SelfTestSuite.class);
    assertThat(s.getTotalFailureCount()).as("failures the suite reports for a store where %s", broken)
        .isPositive();
  }

  @Test
  void theDifferentialTestCatchesABrokenListing() {
    Map<String, Decorated.Override> o = Map.of("listObjects", (r, a) -> {
      ListObjectsResult x = r.listObjects((ListObjectsRequest) a[0]);
      return new ListObjectsResult(x.contents(), x.commonPrefixes(), false, null);
    });
    SelfTestDifferential.current = fixture("broken", real -> Decorated.store(real, o), Map.of());
    TestExecutionSummary s = run(SelfTestDifferential.class);
    assertThat(s.getTestsFoundCount()).isEqualTo(1);
    assertThat(s.getTotalFailureCount()).isEqualTo(1);
  }

  @Test
  void theDifferentialTestCatchesIgnoredConditions() {
    Map<String, Decorated.Override> o = Map.of("putObject/4", (r, a) ->
        r.putObject((String) a[0], (String) a[1], (io.objectmeta.api.model.ObjectMetadata) a[2], WriteCondition.none()));
    SelfTestDifferential.current = fixture("broken", real -> Decorated.store(real, o), Map.of());
    TestExecutionSummary s = run(SelfTestDifferential.class);
    assertThat(s.getTotalFailureCount()).isEqualTo(1);
  }
}
