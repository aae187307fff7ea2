package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.error.PreconditionFailedException;
import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.WriteCondition;
import java.time.Duration;
import java.util.List;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Two stores opened separately on one database, as two processes of a deployment: a call through
 * one that begins after a call through the other returned sees its effect, bucket state included
 * (MetadataStore, "Several stores on one database").
 */
public interface SharedStoreContract extends StoreScenario {

  /** Runs {@code test} with a peer of the store under test (closed after, unless it is the store). */
  private void withPeer(Consumer<MetadataStore> test) {
    Optional<MetadataStore> peer = fixture().openPeer(store());
    assumeThat(peer).as("%s opens no second store on its database", fixture().name()).isPresent();
    try {
      assertThat(peer.get().bucketStateWindow().isNegative()).as("a negative bucket state window").isFalse();
      test.accept(peer.get());
    } finally {
      if (peer.get() != store()) {
        peer.get().close();
      }
    }
  }

  /**
   * Lets the window the other store declares for bucket state pass (none by default): a call after
   * it must follow a bucket change made through this store.
   */
  private static void waitOutWindow(MetadataStore other) {
    Duration w = other.bucketStateWindow();
    if (!w.isZero()) {
      try {
        Thread.sleep(w.toMillis() + 20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  @Test
  default void versioningEnabledThroughOneStoreMakesTheNextPutOfAnotherAddAVersion() {
    withPeer(other -> {
      String b = newBucket();
      other.getBucket(b); // the other store has looked at the bucket (and may remember it)
      ObjectVersion nullVersion = other.putObject(b, "k", Sample.object("before"));
      assertThat(nullVersion.versionId()).isEqualTo("null");

      setVersioning(b, VersioningState.ENABLED);
      waitOutWindow(other);
      ObjectVersion added = other.putObject(b, "k", Sample.object("after"));

      assertThat(added.versionId()).as("a put after versioning was enabled elsewhere")
          .isNotEqualTo("null");
      assertThat(versionIdsOf(b, "k")).containsExactly(added.versionId(), "null");
      assertThat(gcQueue(b)).as("the null version's data is kept, not queued").isEmpty();
    });
  }

  @Test
  default void versioningEnabledThroughOneStoreMakesAnotherStoresPutOfANewKeyAVersion() {
    withPeer(other -> {
      String b = newBucket();
      other.putObject(b, "seen", Sample.object("seen")); // the other store has written there

      setVersioning(b, VersioningState.ENABLED);
      waitOutWindow(other);
      ObjectVersion fresh = other.putObject(b, "fresh", Sample.object("fresh"));

      assertThat(fresh.versionId()).as("a new key's put after versioning was enabled elsewhere")
          .isNotEqualTo("null");
      assertThat(versionIdsOf(b, "fresh")).containsExactly(fresh.versionId());
      assertThat(store().getObject(b, "fresh").versionId()).isEqualTo(fresh.versionId());
    });
  }

  @Test
  default void versioningSuspendedThroughOneStoreMakesTheNextPutOfAnotherReplaceTheNullVersion() {
    withPeer(other -> {
      String b = newBucket(VersioningState.ENABLED);
      ObjectVersion v1 = other.putObject(b, "k", Sample.object("v1"));

      setVersioning(b, VersioningState.SUSPENDED);
      waitOutWindow(other);
      ObjectVersion n1 = other.putObject(b, "k", Sample.object("n1"));
      ObjectVersion n2 = other.putObject(b, "k", Sample.object("n2"));

      assertThat(n1.versionId()).isEqualTo("null");
      assertThat(n2.versionId()).isEqualTo("null");
      assertThat(versionIdsOf(b, "k")).containsExactly("null", v1.versionId());
      assertThat(gcQueue(b)).as("n1, replaced by n2").hasSize(1);
    });
  }

  @Test
  default void aBucketDeletedAndCreatedAgainThroughOneStoreIsTheNewOneForAnother() {
    withPeer(other -> {
      String b = newBucket();
      other.putObject(b, "old", Sample.object("old"));
      String oldId = other.getBucket(b).id();

      store().deleteObject(b, "old");
      store().deleteBucket(b);
      store().createBucket(b, OWNER, null);
      setVersioning(b, VersioningState.ENABLED);
      waitOutWindow(other);

      ObjectVersion put = other.putObject(b, "new", Sample.object("new"));
      assertThat(put.versionId()).as("the new bucket is versioned").isNotEqualTo("null");
      assertThat(store().getBucket(b).id()).isNotEqualTo(oldId);
      assertThat(currentKeys(b)).containsExactly("new");
      assertThat(other.getObject(b, "new").versionId()).isEqualTo(put.versionId());
    });
  }

  @Test
  default void aConditionalWriteThroughOneStoreSeesTheWritesOfAnother() {
    withPeer(other -> {
      String b = newBucket(VersioningState.ENABLED);
      ObjectVersion v1 = put(b, "k", "v1");
      assertThatThrownBy(() -> other.putObject(b, "k", Sample.object("lost"),
          WriteCondition.createOnly()))
          .as("if-none-match through another store, after a put here")
          .isInstanceOf(PreconditionFailedException.class);
      ObjectVersion v2 = other.putObject(b, "k", Sample.object("v2"),
          WriteCondition.ifMatchVersionId(v1.versionId()));
      assertThatThrownBy(() -> store().putObject(b, "k", Sample.object("stale"),
          WriteCondition.ifMatchVersionId(v1.versionId())))
          .as("if-match on a version another store replaced")
          .isInstanceOf(PreconditionFailedException.class);
      assertThat(versionIdsOf(b, "k")).containsExactly(v2.versionId(), v1.versionId());
    });
  }

  @Test
  default void aGarbageClaimMadeThroughOneStoreIsHonouredByAnother() {
    withPeer(other -> {
      String b = queueGarbage(3);
      GarbageClaim mine = store().claimGarbage(10, Duration.ZERO, Duration.ofMinutes(5));
      assertThat(mine.records()).hasSize(3);
      assertThat(other.claimGarbage(10, Duration.ZERO, Duration.ofMinutes(5)).records())
          .as("records under another store's live lease").isEmpty();
      List<String> ids = mine.records().stream().map(GarbageRecord::id).toList();
      assertThat(other.acknowledgeGarbage(mine.claimId(), ids))
          .as("the claim's own acknowledgement, through either store").isEqualTo(3);
      assertThat(gcQueue(b)).isEmpty();
      assertThat(other.claimGarbage(10, Duration.ZERO, Duration.ofMinutes(5)).records()).isEmpty();
    });
  }
}
