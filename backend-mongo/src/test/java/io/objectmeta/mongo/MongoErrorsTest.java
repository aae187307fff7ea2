package io.objectmeta.mongo;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.MongoCredential;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.ServerAddress;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.error.ServiceUnavailableException;
import io.objectmeta.api.error.StoreConfigurationException;
import org.junit.jupiter.api.Test;

/** A refused login is fixed by the configuration, a lost socket by trying again. */
class MongoErrorsTest {

  @Test
  void refusedCredentialsAreAConfigurationErrorAndALostConnectionIsRetryable() {
    MetadataException login = MongoMetadataStore.unavailable(new MongoSecurityException(
        MongoCredential.createScramSha256Credential("alice", "admin", "pw".toCharArray()),
        "Exception authenticating"));
    assertThat(login).isInstanceOf(StoreConfigurationException.class);
    assertThat(login.isRetryable()).isFalse();
    assertThat(login.getMessage()).doesNotContain("pw");

    MetadataException lost = MongoMetadataStore.unavailable(
        new MongoSocketReadException("Prematurely reached end of stream", new ServerAddress()));
    assertThat(lost).isInstanceOf(ServiceUnavailableException.class);
    assertThat(lost.isRetryable()).isTrue();
  }

  @Test
  void aServerLostInTheMiddleOfUseIsServiceUnavailableOnEveryCallNeverADriverException() {
    de.bwaldvogel.mongo.MongoServer server =
        new de.bwaldvogel.mongo.MongoServer(new de.bwaldvogel.mongo.backend.memory.MemoryBackend());
    String uri = server.bindAndGetConnectionString();
    try (io.objectmeta.api.MetadataStore store = io.objectmeta.api.MetadataStores.open(
        uri + "/lost?serverSelectionTimeoutMS=300&connectTimeoutMS=300&repair=false")) {
      store.createBucket("lost", "o", null);
      store.putObject("lost", "k", io.objectmeta.api.model.ObjectMetadata.builder().size(1).build());
      server.shutdownNow();
      for (org.assertj.core.api.ThrowableAssert.ThrowingCallable call : java.util.List.<
          org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
          () -> store.getObject("lost", "k"),
          () -> store.putObject("lost", "k2", io.objectmeta.api.model.ObjectMetadata.builder().size(1).build()),
          () -> store.listObjectsV2(io.objectmeta.api.listing.ListObjectsV2Request.of("lost")),
          () -> store.claimGarbage(10, java.time.Duration.ZERO, java.time.Duration.ofMinutes(1)))) {
        org.assertj.core.api.Assertions.assertThatThrownBy(call)
            .isInstanceOf(ServiceUnavailableException.class);
      }
    } finally {
      server.shutdownNow();
    }
  }
}
