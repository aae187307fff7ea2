package io.objectmeta.api.versioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.objectmeta.api.error.BucketAlreadyExistsException;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.Json;
import io.objectmeta.api.model.VersioningState;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class BucketRulesTest {
  private static final VersioningState U = VersioningState.UNVERSIONED;
  private static final VersioningState E = VersioningState.ENABLED;
  private static final VersioningState S = VersioningState.SUSPENDED;

  private static Bucket bucket(VersioningState state) {
    return new Bucket("photos", "id-1", "alice", Instant.ofEpochSecond(1000), state, Json.object("{\"a\":1}"));
  }

  private static Bucket apply(VersioningState from, VersioningState to) {
    return BucketRules.apply(bucket(from), BucketUpdate.versioning(to));
  }

  @Test
  void allowedVersioningTransitions() {
    assertThat(apply(U, U).versioning()).isEqualTo(U);
    assertThat(apply(U, E).versioning()).isEqualTo(E);
    assertThat(apply(U, S).versioning()).isEqualTo(S);
    assertThat(apply(E, E).versioning()).isEqualTo(E);
    assertThat(apply(E, S).versioning()).isEqualTo(S);
    assertThat(apply(S, E).versioning()).isEqualTo(E);
    assertThat(apply(S, S).versioning()).isEqualTo(S);
    Bucket b = apply(U, E);
    assertThat(b.name()).isEqualTo("photos");
    assertThat(b.id()).isEqualTo("id-1");
    assertThat(b.owner()).isEqualTo("alice");
    assertThat(b.created()).isEqualTo(Instant.ofEpochSecond(1000));
    assertThat(b.attributes()).isEqualTo(Json.object("{\"a\":1}"));
  }

  @Test
  void aVersionedBucketNeverReturnsToUnversioned() {
    for (VersioningState from : new VersioningState[] {E, S}) {
      InvalidArgumentException e = catchThrowableOfType(InvalidArgumentException.class, () -> apply(from, U));
      assertThat(e).as("from " + from).isNotNull();
      assertThat(e.field()).isEqualTo("versioning");
      assertThat(e.getMessage()).startsWith("versioning: ");
    }
    assertThat(U.versioned()).isFalse();
    assertThat(E.versioned()).isTrue();
    assertThat(S.versioned()).isTrue();
  }

  @Test
  void ownerAndAttributesReplaceNullFieldsAreLeft() {
    Bucket b = bucket(E);
    Bucket owned = BucketRules.apply(b, BucketUpdate.owner("bob"));
    assertThat(owned.owner()).isEqualTo("bob");
    assertThat(owned.versioning()).isEqualTo(E);
    assertThat(owned.attributes()).isEqualTo(Json.object("{\"a\":1}"));
    Bucket attrs = BucketRules.apply(b, BucketUpdate.attributes(Json.object("{\"b\":2}")));
    assertThat(attrs.attributes()).isEqualTo(Json.object("{\"b\":2}"));
    assertThat(attrs.owner()).isEqualTo("alice");
    assertThat(attrs.versioning()).isEqualTo(E);
    Bucket none = BucketRules.apply(b, new BucketUpdate(null, null, null));
    assertThat(none).isEqualTo(b);
    Bucket all = BucketRules.apply(b, new BucketUpdate(S, "carol", Json.object("{}")));
    assertThat(all.versioning()).isEqualTo(S);
    assertThat(all.owner()).isEqualTo("carol");
    assertThat(all.attributes()).isEqualTo(Json.object("{}"));
    assertThat(all.id()).isEqualTo("id-1");
  }

  @Test
  void aRestoreCreatesTheBucketAsGivenOrBringsTheSameIncarnationToIt() {
    Bucket given = new Bucket("photos", "id-1", "bob", Instant.ofEpochSecond(2000), S, Json.object("{\"b\":2}"));
    assertThat(BucketRules.restore(null, given)).isEqualTo(given);
    Bucket same = BucketRules.restore(bucket(E), given);
    assertThat(same.owner()).isEqualTo("bob");
    assertThat(same.versioning()).isEqualTo(S);
    assertThat(same.attributes()).isEqualTo(Json.object("{\"b\":2}"));
    assertThat(same.created()).as("an incarnation keeps its creation time").isEqualTo(Instant.ofEpochSecond(1000));
    assertThat(BucketRules.restore(given, given)).isEqualTo(given);
  }

  @Test
  void aRestoreRefusesAnotherIncarnationAndAReturnToUnversioned() {
    Bucket other = new Bucket("photos", "id-2", "alice", Instant.ofEpochSecond(1000), E, null);
    assertThat(catchThrowableOfType(BucketAlreadyExistsException.class,
        () -> BucketRules.restore(bucket(E), other))).hasMessageContaining("id-1");
    Bucket unversioned = new Bucket("photos", "id-1", "alice", Instant.ofEpochSecond(1000), U, null);
    assertThat(catchThrowableOfType(InvalidArgumentException.class,
        () -> BucketRules.restore(bucket(S), unversioned)).field()).isEqualTo("versioning");
  }
}
