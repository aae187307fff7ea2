package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.objectmeta.api.MetadataStore;
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
      test.accept(peer.get());
    } finally {
      if (peer.get() != store()) {
        peer.get().close();
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
      ObjectVersion added = other.putObject(b, "k", Sample.object("after"));

      assertThat(added.versionId()).as("a put after versioning was enabled elsewhere")
          .isNotEqualTo("null");
      assertThat(versionIdsOf(b, "k")).containsExactly(added.versionId(), "null");
      assertThat(gcQueue(b)).as("the null version's data is kept, not queued").isEmpty();
    });
  }

  @Test
  default void versioningSuspendedThroughOneStoreMakesTheNextPutOfAnotherReplaceTheNullVersion() {
    withPeer(other -> {
      String b = newBucket(VersioningState.ENABLED);
      ObjectVersion v1 = other.putObject(b, "k", Sample.object("v1"));

      setVersioning(b, VersioningState.SUSPENDED);
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

      ObjectVersion put = other.putObject(b, "new", Sample.object("new"));
      assertThat(put.versionId()).as("the new bucket is versioned").isNotEqualTo("null");
      assertThat(store().getBucket(b).id()).isNotEqualTo(oldId);
      assertThat(currentKeys(b)).containsExactly("new");
      assertThat(other.getObject(b, "new").versionId()).isEqualTo(put.versionId());
    });
  }
}
