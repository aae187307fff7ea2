package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.KeyTooLongException;
import io.objectmeta.api.error.MethodNotAllowedException;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.error.NoSuchKeyException;
import io.objectmeta.api.error.NoSuchVersionException;
import io.objectmeta.api.model.BatchEntry;
import io.objectmeta.api.model.DeleteResult;
import io.objectmeta.api.model.ObjectRef;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Batch reads and deletes: per-entry outcomes in request order, at most 1000 refs. */
public interface BatchContract extends StoreScenario {

  @Test
  default void aBatchGetAnswersEachRefInOrder() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion a1 = put(b, "a", "a1");
    put(b, "a", "a2");
    String marker = store().deleteObject(b, "c").versionId();
    List<ObjectRef> refs = List.of(ObjectRef.latest("a"), ObjectRef.latest("missing"),
        ObjectRef.version("a", a1.versionId()), ObjectRef.version("c", marker), ObjectRef.latest("c"),
        ObjectRef.version("a", "null"));
    List<BatchEntry<ObjectVersion>> got = store().getObjects(b, refs);
    assertThat(got).extracting(BatchEntry::ref).containsExactlyElementsOf(refs);
    assertThat(got.get(0).value().metadata().etag()).isEqualTo(Sample.md5Hex("a2"));
    assertThat(got.get(1).error()).isInstanceOf(NoSuchKeyException.class);
    assertThat(got.get(2).value().versionId()).isEqualTo(a1.versionId());
    assertThat(got.get(3).error()).isInstanceOf(MethodNotAllowedException.class);
    assertThat(got.get(4).error()).isInstanceOfSatisfying(NoSuchKeyException.class,
        e -> assertThat(e.deleteMarker()).isTrue());
    assertThat(got.get(5).error()).isInstanceOf(NoSuchVersionException.class);
  }

  @Test
  default void aBatchDeleteAppliesEachRefInOrder() {
    String b = newBucket(VersioningState.ENABLED);
    ObjectVersion x1 = put(b, "x", "x1");
    put(b, "y", "y1");
    List<ObjectRef> refs = List.of(ObjectRef.version("x", x1.versionId()), ObjectRef.latest("y"),
        ObjectRef.version("x", x1.versionId()));
    List<BatchEntry<DeleteResult>> got = store().deleteObjects(b, refs);
    assertThat(got).extracting(BatchEntry::ref).containsExactlyElementsOf(refs);
    assertThat(got.get(0).value()).isEqualTo(new DeleteResult("x", x1.versionId(), false));
    assertThat(got.get(1).value().deleteMarker()).isTrue();
    assertThat(got.get(2).error()).as("the same version again, already gone")
        .isInstanceOf(NoSuchVersionException.class);
    assertThat(currentKeys(b)).isEmpty();
  }

  @Test
  default void aBatchDeleteInAnUnversionedBucketReportsAbsentKeys() {
    String b = newBucket();
    put(b, "x", "x1");
    List<BatchEntry<DeleteResult>> got = store().deleteObjects(b,
        List.of(ObjectRef.latest("x"), ObjectRef.latest("nope")));
    assertThat(got.get(0).ok()).isTrue();
    assertThat(got.get(1).error()).isInstanceOf(NoSuchKeyException.class);
    assertThat(gcQueue(b)).hasSize(1);
  }

  @Test
  default void aThousandRefsAreAllowed() {
    String b = newBucket();
    List<ObjectRef> refs = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      refs.add(ObjectRef.latest("k" + i));
    }
    assertThat(store().getObjects(b, refs)).hasSize(1000).allMatch(e -> !e.ok());
  }

  @Test
  default void moreThanAThousandRefsAreInvalidAndNothingIsDeleted() {
    String b = newBucket();
    put(b, "k0", "v");
    List<ObjectRef> refs = new ArrayList<>();
    for (int i = 0; i < 1001; i++) {
      refs.add(ObjectRef.latest("k" + i));
    }
    assertRefusedAndUnchanged(InvalidArgumentException.class, () -> store().deleteObjects(b, refs));
    assertRefusedAndUnchanged(InvalidArgumentException.class, () -> store().getObjects(b, refs));
  }

  @Test
  default void anEmptyBatchIsInvalid() {
    String b = newBucket();
    assertRefusedAndUnchanged(InvalidArgumentException.class, () -> store().deleteObjects(b, List.of()));
    assertRefusedAndUnchanged(InvalidArgumentException.class, () -> store().getObjects(b, List.of()));
  }

  @Test
  default void oneInvalidRefRejectsTheWholeBatchBeforeAnyDelete() {
    String b = newBucket();
    put(b, "ok", "v");
    assertRefusedAndUnchanged(InvalidArgumentException.class, () -> store().deleteObjects(b,
        List.of(ObjectRef.latest("ok"), ObjectRef.version("ok", "malformed"))));
    assertRefusedAndUnchanged(InvalidArgumentException.class, () -> store().deleteObjects(b,
        List.of(ObjectRef.latest("ok"), ObjectRef.latest(""))));
    assertRefusedAndUnchanged(KeyTooLongException.class, () -> store().deleteObjects(b,
        List.of(ObjectRef.latest("ok"), ObjectRef.latest("x".repeat(1025)))));
  }

  @Test
  default void aBatchOnAMissingBucketFailsAsAWhole() {
    String missing = BucketNames.next();
    assertRefusedAndUnchanged(NoSuchBucketException.class,
        () -> store().deleteObjects(missing, List.of(ObjectRef.latest("a"), ObjectRef.latest("b"))));
  }
}
