package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.Capability;
import io.objectmeta.api.MetadataStore;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

/**
 * The conformance suite: every rule of the {@link MetadataStore} contract, checked through the
 * public interface only. A backend's test class extends this and supplies its fixture:
 *
 * <pre>{@code
 * class PostgresConformanceTest extends MetadataStoreConformance {
 *   protected ConformanceFixture fixture() { return new PostgresFixture(); }
 * }
 * }</pre>
 *
 * Each scenario group is an interface of default test methods ({@link BucketContract},
 * {@link ListObjectsContract}, ...); the nested classes below run them all over a fresh store per
 * test, so that one subclass runs everything.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public abstract class MetadataStoreConformance {

  private ConformanceFixture fixture;
  private MetadataStore store;

  /** The backend under test. Called once per test; may return a shared instance. */
  protected abstract ConformanceFixture fixture();

  @BeforeEach
  protected void openStore() {
    fixture = fixture();
    store = fixture.open();
  }

  @AfterEach
  protected void closeStore() {
    if (store != null) {
      fixture.close(store);
    }
  }

  /** The store of the current test. */
  protected final MetadataStore store() {
    return store;
  }

  @Test
  public void everyCapabilityTheStoreLacksIsDeclaredWithAReason() {
    Set<Capability> lacking = EnumSet.allOf(Capability.class);
    lacking.removeAll(store.capabilities());
    assertThat(fixture.unsupported().keySet())
        .as("capabilities %s declares unsupported must be exactly those the store lacks", fixture.name())
        .containsExactlyInAnyOrderElementsOf(lacking);
    assertThat(fixture.unsupported().values()).allSatisfy(reason -> assertThat(reason).isNotBlank());
  }

  /** The base of the nested groups: the outer test's store and fixture. */
  abstract class Scenarios implements StoreScenario {
    @Override
    public MetadataStore store() {
      return store;
    }

    @Override
    public ConformanceFixture fixture() {
      return fixture;
    }
  }

  @Nested
  @DisplayName("buckets")
  class Buckets extends Scenarios implements BucketContract {}

  @Nested
  @DisplayName("objects in an unversioned bucket")
  class Unversioned extends Scenarios implements UnversionedObjectContract {}

  @Nested
  @DisplayName("objects in a versioned bucket")
  class Versioned extends Scenarios implements VersionedObjectContract {}

  @Nested
  @DisplayName("suspended versioning and transitions")
  class Suspended extends Scenarios implements SuspendedVersioningContract {}

  @Nested
  @DisplayName("several stores on one database")
  class SharedStores extends Scenarios implements SharedStoreContract {}

  @Nested
  @DisplayName("conditional puts")
  class ConditionalPuts extends Scenarios implements ConditionalPutContract {}

  @Nested
  @DisplayName("metadata updates")
  class MetadataUpdates extends Scenarios implements MetadataUpdateContract {}

  @Nested
  @DisplayName("batch calls")
  class Batches extends Scenarios implements BatchContract {}
  @Nested
  @DisplayName("multipart uploads")
  class Multipart extends Scenarios implements MultipartContract {}

  @Nested
  @DisplayName("listing current objects (V1, V2)")
  class ListingObjects extends Scenarios implements ListObjectsContract {}

  @Nested
  @DisplayName("listing versions")
  class ListingVersions extends Scenarios implements ListVersionsContract {}

  @Nested
  @DisplayName("keys and UTF-8 order")
  class Keys extends Scenarios implements KeyContract {}
  @Nested
  @DisplayName("point-in-time listings")
  class PointInTime extends Scenarios implements PointInTimeContract {}

  @Nested
  @DisplayName("lifecycle listings")
  class Lifecycle extends Scenarios implements LifecycleContract {}

  @Nested
  @DisplayName("UUID and usage")
  class UsageCounters extends Scenarios implements UsageContract {}

  @Nested
  @DisplayName("GC queue")
  class GcQueue extends Scenarios implements GcQueueContract {}

  @Nested
  @DisplayName("GC runner")
  class GcRunnerOverTheStore extends Scenarios implements GcRunnerContract {}

  @Nested
  @DisplayName("restores of buckets, histories and uploads")
  class Restores extends Scenarios implements RestoreContract {}

  @Nested
  @DisplayName("GC queue listing and restores")
  class GarbageRestores extends Scenarios implements GarbageRestoreContract {}

  @Nested
  @DisplayName("bad input")
  class BadInput extends Scenarios implements ValidationContract {}

  @Nested
  @DisplayName("concurrency")
  class Concurrency extends Scenarios implements ConcurrencyContract {}
  @Nested
  @DisplayName("S3 errors and defaults")
  class Errors extends Scenarios implements ErrorContract {}
}
