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
}
