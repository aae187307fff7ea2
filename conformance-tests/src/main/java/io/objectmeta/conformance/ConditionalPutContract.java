package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.NoSuchKeyException;
import io.objectmeta.api.error.PreconditionFailedException;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.model.WriteCondition;
import org.junit.jupiter.api.Test;

/** Conditional puts: create-only, if-match etag, if-match version id; a failed one changes nothing. */
public interface ConditionalPutContract extends StoreScenario {

  @Test
  default void createOnlySucceedsOnAnAbsentKey() {
    String b = newBucket();
    ObjectVersion v = store().putObject(b, "k", Sample.object("v1"), WriteCondition.createOnly());
    assertThat(store().getObject(b, "k")).isEqualTo(v);
  }

  @Test
  default void createOnlyFailsOnAnExistingKeyAndChangesNothing() {
    String b = newBucket();
    put(b, "k", "v1");
    assertRefusedAndUnchanged(PreconditionFailedException.class,
        () -> store().putObject(b, "k", Sample.object("v2"), WriteCondition.createOnly()));
  }

  @Test
  default void createOnlyFailsInAVersionedBucketWithoutANewVersion() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "k", "v1");
    assertRefusedAndUnchanged(PreconditionFailedException.class,
        () -> store().putObject(b, "k", Sample.object("v2"), WriteCondition.createOnly()));
  }

  @Test
  default void aDeleteMarkerOnTopCountsAsAbsentForCreateOnly() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "k", "v1");
    store().deleteObject(b, "k");
    ObjectVersion v = store().putObject(b, "k", Sample.object("v2"), WriteCondition.createOnly());
    assertThat(store().getObject(b, "k").versionId()).isEqualTo(v.versionId());
    assertThat(versionsOf(b, "k")).hasSize(3);
  }

  @Test
  default void ifMatchEtagSucceedsOnTheCurrentEtag() {
    String b = newBucket();
    put(b, "k", "v1");
    store().putObject(b, "k", Sample.object("v2"), WriteCondition.ifMatchEtag(Sample.md5Hex("v1")));
    assertThat(store().getObject(b, "k").metadata().etag()).isEqualTo(Sample.md5Hex("v2"));
  }

  @Test
  default void ifMatchEtagFailsOnAnotherEtagAndQueuesNothing() {
    String b = newBucket();
    put(b, "k", "v1");
    assertRefusedAndUnchanged(PreconditionFailedException.class,
        () -> store().putObject(b, "k", Sample.object("v2"), WriteCondition.ifMatchEtag(Sample.md5Hex("zz"))));
    assertThat(gcQueue(b)).isEmpty();
  }

  @Test
  default void ifMatchEtagComparesWithTheLatestNotAnOlderVersion() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "k", "v1");
    put(b, "k", "v2");
    assertRefusedAndUnchanged(PreconditionFailedException.class,
        () -> store().putObject(b, "k", Sample.object("v3"), WriteCondition.ifMatchEtag(Sample.md5Hex("v1"))));
  }

  @Test
  default void ifMatchOnAnAbsentKeyFailsWithNoSuchKey() {
    String b = newBucket();
    assertRefusedAndUnchanged(NoSuchKeyException.class,
        () -> store().putObject(b, "k", Sample.object("v1"), WriteCondition.ifMatchEtag(Sample.md5Hex("v0"))));
  }

  @Test
  default void ifMatchOnADeleteMarkedKeyFailsWithNoSuchKey() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "k", "v1");
    store().deleteObject(b, "k");
    assertRefusedAndUnchanged(NoSuchKeyException.class,
        () -> store().putObject(b, "k", Sample.object("v2"), WriteCondition.ifMatchEtag(Sample.md5Hex("v1"))));
  }

  @Test
  default void ifMatchVersionIdSucceedsOnTheCurrentVersion() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    ObjectVersion v2 = store().putObject(b, "k", Sample.object("v2"),
        WriteCondition.ifMatchVersionId(v1.versionId()));
    assertThat(store().getObject(b, "k").versionId()).isEqualTo(v2.versionId());
  }

  @Test
  default void ifMatchVersionIdFailsOnAnOlderVersion() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion v1 = put(b, "k", "v1");
    put(b, "k", "v2");
    assertRefusedAndUnchanged(PreconditionFailedException.class,
        () -> store().putObject(b, "k", Sample.object("v3"), WriteCondition.ifMatchVersionId(v1.versionId())));
  }

  @Test
  default void ifMatchVersionIdNullMatchesTheNullVersion() {
    String b = newBucket();
    put(b, "k", "v1");
    store().putObject(b, "k", Sample.object("v2"), WriteCondition.ifMatchVersionId("null"));
    assertThat(store().getObject(b, "k").metadata().etag()).isEqualTo(Sample.md5Hex("v2"));
  }

  @Test
  default void ifMatchVersionIdNullFailsWhenTheCurrentVersionIsNotNull() {
    String b = newBucket(VersioningState.ENABLED);
    put(b, "k", "v1");
    assertRefusedAndUnchanged(PreconditionFailedException.class,
        () -> store().putObject(b, "k", Sample.object("v2"), WriteCondition.ifMatchVersionId("null")));
  }

  @Test
  default void aMalformedIfMatchVersionIdIsInvalidArgument() {
    String b = newBucket();
    put(b, "k", "v1");
    assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().putObject(b, "k", Sample.object("v2"), WriteCondition.ifMatchVersionId("bogus")));
  }

  @Test
  default void twoConditionsAtOnceAreInvalidArgument() {
    String b = newBucket();
    put(b, "k", "v1");
    assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().putObject(b, "k", Sample.object("v2"),
            new WriteCondition(true, Sample.md5Hex("v1"), null)));
  }

  @Test
  default void aFailedConditionalPutInASuspendedBucketKeepsTheNullVersion() {
    String b = newBucket(VersioningState.SUSPENDED);
    put(b, "k", "n1");
    assertRefusedAndUnchanged(PreconditionFailedException.class,
        () -> store().putObject(b, "k", Sample.object("n2"), WriteCondition.ifMatchEtag("other")));
  }
}
