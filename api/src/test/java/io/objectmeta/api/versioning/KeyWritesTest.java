package io.objectmeta.api.versioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.MethodNotAllowedException;
import io.objectmeta.api.error.NoSuchKeyException;
import io.objectmeta.api.error.NoSuchVersionException;
import io.objectmeta.api.error.PreconditionFailedException;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectMetadataUpdate;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.model.WriteCondition;
import io.objectmeta.api.version.VersionId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyWritesTest {
  private static final String K = "photos/cat.jpg";
  private static final VersioningState UNVERSIONED = VersioningState.UNVERSIONED;
  private static final VersioningState ENABLED = VersioningState.ENABLED;
  private static final VersioningState SUSPENDED = VersioningState.SUSPENDED;

  private static VersionId r(long millis) {
    return new VersionId(millis, 0, 7);
  }

  private static ObjectMetadata m(long size, String etag) {
    return ObjectMetadata.builder().size(size).etag(etag).build();
  }

  private static ObjectVersion obj(long millis, boolean isNull, long size) {
    return new ObjectVersion(K, r(millis), isNull, false, false, m(size, "etag" + millis));
  }

  private static ObjectVersion dm(long millis, boolean isNull) {
    return new ObjectVersion(K, r(millis), isNull, true, false, null);
  }

  private static KeyHistory h(ObjectVersion... vs) {
    return new KeyHistory(K, List.of(vs));
  }

  private static List<Long> millis(KeyHistory h) {
    return h.versions().stream().map(v -> v.revision().millis()).toList();
  }

  private static List<Boolean> latest(KeyHistory h) {
    return h.versions().stream().map(ObjectVersion::latest).toList();
  }

  // ---- KeyHistory

  @Test
  void historyIsSortedNewestFirstWithTheLatestFlagOnTheFirst() {
    KeyHistory h = h(obj(1000, false, 1), obj(3000, false, 3), dm(2000, true));
    assertThat(millis(h)).containsExactly(3000L, 2000L, 1000L);
    assertThat(latest(h)).containsExactly(true, false, false);
    assertThat(h.latest().revision().millis()).isEqualTo(3000);
    assertThat(h.current().revision().millis()).isEqualTo(3000);
    assertThat(h.nullVersion().revision().millis()).isEqualTo(2000);
    assertThat(h.find("null").revision().millis()).isEqualTo(2000);
    assertThat(h.find(r(1000).encode()).revision().millis()).isEqualTo(1000);
    assertThat(h.find(r(2000).encode())).isNull();
    assertThat(h.isEmpty()).isFalse();
    KeyHistory e = KeyHistory.empty(K);
    assertThat(e.isEmpty()).isTrue();
    assertThat(e.latest()).isNull();
    assertThat(e.current()).isNull();
    assertThat(e.nullVersion()).isNull();
    assertThat(h(dm(5, false), obj(4, false, 1)).current()).isNull();
    assertThat(h(obj(4, false, 1)).nullVersion()).isNull();
  }

  // ---- put

  @Test
  void unversionedPutReplacesEverything() {
    KeyChange first = KeyWrites.put(KeyHistory.empty(K), UNVERSIONED, m(10, "a"), WriteCondition.none(), r(1000));
    assertThat(first.after().versions()).hasSize(1);
    ObjectVersion v = first.subject();
    assertThat(v).isEqualTo(first.after().latest());
    assertThat(v.key()).isEqualTo(K);
    assertThat(v.nullVersion()).isTrue();
    assertThat(v.versionId()).isEqualTo("null");
    assertThat(v.deleteMarker()).isFalse();
    assertThat(v.latest()).isTrue();
    assertThat(v.metadata()).isEqualTo(m(10, "a"));
    assertThat(v.revision()).isEqualTo(r(1000));
    assertThat(first.removed()).isEmpty();
    assertThat(first.usageDelta()).isEqualTo(new Usage(1, 10, 0, 0, 0, 0, 0));

    KeyChange second = KeyWrites.put(first.after(), UNVERSIONED, m(4, "b"), null, r(2000));
    assertThat(millis(second.after())).containsExactly(2000L);
    assertThat(second.removed()).containsExactly(first.subject());
    assertThat(second.garbage()).containsExactly(first.subject());
    assertThat(second.before()).isEqualTo(first.after());
    assertThat(second.usageDelta()).isEqualTo(new Usage(0, -6, 0, 0, 0, 0, 0));
  }

  @Test
  void enabledPutKeepsEveryVersion() {
    KeyHistory before = h(obj(1000, true, 10));
    KeyChange c = KeyWrites.put(before, ENABLED, m(7, "n"), WriteCondition.none(), r(2000));
    assertThat(millis(c.after())).containsExactly(2000L, 1000L);
    assertThat(latest(c.after())).containsExactly(true, false);
    assertThat(c.subject().nullVersion()).isFalse();
    assertThat(c.subject().versionId()).isEqualTo(r(2000).encode());
    assertThat(c.subject().latest()).isTrue();
    assertThat(c.after().versions().get(1).nullVersion()).isTrue();
    assertThat(c.removed()).isEmpty();
    assertThat(c.garbage()).isEmpty();
    assertThat(c.usageDelta()).isEqualTo(new Usage(0, -3, 1, 10, 0, 0, 0));
  }

  @Test
  void suspendedPutReplacesOnlyTheNullVersionWhereverItStands() {
    KeyHistory before = h(obj(3000, false, 30), obj(2000, true, 20), obj(1000, false, 10));
    KeyChange c = KeyWrites.put(before, SUSPENDED, m(5, "s"), WriteCondition.none(), r(4000));
    assertThat(millis(c.after())).containsExactly(4000L, 3000L, 1000L);
    assertThat(latest(c.after())).containsExactly(true, false, false);
    assertThat(c.subject().nullVersion()).isTrue();
    assertThat(c.subject().versionId()).isEqualTo("null");
    assertThat(c.removed()).hasSize(1);
    assertThat(c.removed().get(0).revision()).isEqualTo(r(2000));
    assertThat(c.garbage()).hasSize(1);
    // before: current 30, non-current 20+10; after: current 5, non-current 30+10
    assertThat(c.usageDelta()).isEqualTo(new Usage(0, -25, 0, 10, 0, 0, 0));

    KeyHistory noNull = h(obj(3000, false, 30), obj(1000, false, 10));
    KeyChange kept = KeyWrites.put(noNull, SUSPENDED, m(5, "s"), null, r(4000));
    assertThat(millis(kept.after())).containsExactly(4000L, 3000L, 1000L);
    assertThat(kept.removed()).isEmpty();
  }

  @Test
  void suspendedPutReplacesANullDeleteMarkerWhichIsNoGarbage() {
    KeyHistory before = h(dm(2000, true), obj(1000, false, 10));
    KeyChange c = KeyWrites.put(before, SUSPENDED, m(5, "s"), null, r(3000));
    assertThat(millis(c.after())).containsExactly(3000L, 1000L);
    assertThat(c.removed()).hasSize(1);
    assertThat(c.removed().get(0).deleteMarker()).isTrue();
    assertThat(c.garbage()).isEmpty();
    assertThat(c.usageDelta()).isEqualTo(new Usage(1, 5, 0, 0, -1, 0, 0));
  }

  // ---- delete

  @Test
  void unversionedDelete() {
    NoSuchKeyException e = catchThrowableOfType(NoSuchKeyException.class,
        () -> KeyWrites.delete(KeyHistory.empty(K), UNVERSIONED, r(1)));
    assertThat(e).isNotNull();
    assertThat(e.getMessage()).startsWith("key: ");
    assertThat(e.deleteMarker()).isFalse();
    assertThat(e.versionId()).isNull();

    KeyHistory before = h(obj(1000, true, 10));
    KeyChange c = KeyWrites.delete(before, UNVERSIONED, r(2000));
    assertThat(c.after().isEmpty()).isTrue();
    assertThat(c.after().key()).isEqualTo(K);
    assertThat(c.subject().revision()).isEqualTo(r(1000));
    assertThat(c.removed()).hasSize(1);
    assertThat(c.garbage()).hasSize(1);
    assertThat(c.usageDelta()).isEqualTo(new Usage(-1, -10, 0, 0, 0, 0, 0));
  }

  @Test
  void enabledDeleteAddsADeleteMarker() {
    KeyHistory before = h(obj(1000, false, 10));
    KeyChange c = KeyWrites.delete(before, ENABLED, r(2000));
    ObjectVersion marker = c.subject();
    assertThat(marker.deleteMarker()).isTrue();
    assertThat(marker.metadata()).isNull();
    assertThat(marker.nullVersion()).isFalse();
    assertThat(marker.versionId()).isEqualTo(r(2000).encode());
    assertThat(marker.latest()).isTrue();
    assertThat(millis(c.after())).containsExactly(2000L, 1000L);
    assertThat(c.after().current()).isNull();
    assertThat(c.removed()).isEmpty();
    assertThat(c.usageDelta()).isEqualTo(new Usage(-1, -10, 1, 10, 1, 0, 0));

    // a key that does not exist still gets a marker (S3 does the same)
    KeyChange onEmpty = KeyWrites.delete(KeyHistory.empty(K), ENABLED, r(3000));
    assertThat(onEmpty.after().versions()).hasSize(1);
    assertThat(onEmpty.subject().deleteMarker()).isTrue();
    assertThat(onEmpty.usageDelta()).isEqualTo(new Usage(0, 0, 0, 0, 1, 0, 0));
  }

  @Test
  void suspendedDeleteAddsANullMarkerReplacingTheNullVersion() {
    KeyHistory before = h(obj(2000, true, 20), obj(1000, false, 10));
    KeyChange c = KeyWrites.delete(before, SUSPENDED, r(3000));
    assertThat(c.subject().deleteMarker()).isTrue();
    assertThat(c.subject().nullVersion()).isTrue();
    assertThat(c.subject().versionId()).isEqualTo("null");
    assertThat(millis(c.after())).containsExactly(3000L, 1000L);
    assertThat(c.removed()).hasSize(1);
    assertThat(c.removed().get(0).revision()).isEqualTo(r(2000));
    assertThat(c.garbage()).hasSize(1);
    assertThat(c.usageDelta()).isEqualTo(new Usage(-1, -20, 0, 0, 1, 0, 0));

    KeyHistory enabledOnly = h(obj(1000, false, 10));
    KeyChange kept = KeyWrites.delete(enabledOnly, SUSPENDED, r(3000));
    assertThat(millis(kept.after())).containsExactly(3000L, 1000L);
    assertThat(kept.removed()).isEmpty();
  }

  @Test
  void deleteVersionPromotesTheNext() {
    KeyHistory before = h(obj(3000, false, 30), obj(2000, true, 20), dm(1500, false), obj(1000, false, 10));
    KeyChange top = KeyWrites.deleteVersion(before, r(3000).encode());
    assertThat(millis(top.after())).containsExactly(2000L, 1500L, 1000L);
    assertThat(latest(top.after())).containsExactly(true, false, false);
    assertThat(top.after().current().versionId()).isEqualTo("null");
    assertThat(top.subject().revision()).isEqualTo(r(3000));
    assertThat(top.removed()).containsExactly(top.subject());
    assertThat(top.garbage()).hasSize(1);
    assertThat(top.usageDelta()).isEqualTo(new Usage(0, -10, -1, -20, 0, 0, 0));

    KeyChange nul = KeyWrites.deleteVersion(before, "null");
    assertThat(millis(nul.after())).containsExactly(3000L, 1500L, 1000L);
    assertThat(nul.subject().nullVersion()).isTrue();

    KeyChange marker = KeyWrites.deleteVersion(h(dm(2000, false), obj(1000, false, 10)), r(2000).encode());
    assertThat(marker.after().current().revision()).isEqualTo(r(1000));
    assertThat(marker.after().current().latest()).isTrue();
    assertThat(marker.garbage()).isEmpty();
    assertThat(marker.removed()).hasSize(1);
    assertThat(marker.usageDelta()).isEqualTo(new Usage(1, 10, -1, -10, -1, 0, 0));

    Throwable missing = catchThrowable(() -> KeyWrites.deleteVersion(before, r(999).encode()));
    assertThat(missing).isInstanceOf(NoSuchVersionException.class);
    assertThat(missing.getMessage()).startsWith("versionId: ");
    assertThat(catchThrowable(() -> KeyWrites.deleteVersion(h(obj(1, false, 1)), "null")))
        .isInstanceOf(NoSuchVersionException.class);
  }

  // ---- update

  @Test
  void updateInPlaceKeepsTheVersionId() {
    KeyHistory before = h(obj(2000, false, 20), obj(1000, true, 10));
    KeyChange c = KeyWrites.update(before, null, ObjectMetadataUpdate.tags(Map.of("t", "v")));
    assertThat(c.subject().versionId()).isEqualTo(r(2000).encode());
    assertThat(c.subject().revision()).isEqualTo(r(2000));
    assertThat(c.subject().latest()).isTrue();
    assertThat(c.subject().metadata().tags()).isEqualTo(Map.of("t", "v"));
    assertThat(c.subject().metadata().size()).isEqualTo(20);
    assertThat(c.subject().metadata().etag()).isEqualTo("etag2000");
    assertThat(millis(c.after())).containsExactly(2000L, 1000L);
    assertThat(c.after().versions().get(1).metadata().tags()).isEmpty();
    assertThat(c.removed()).isEmpty();
    assertThat(c.usageDelta()).isEqualTo(Usage.ZERO);

    KeyChange old = KeyWrites.update(before, "null", ObjectMetadataUpdate.replicationStatus("COMPLETED"));
    assertThat(old.subject().versionId()).isEqualTo("null");
    assertThat(old.subject().latest()).isFalse();
    assertThat(old.subject().metadata().replicationStatus()).isEqualTo("COMPLETED");
    assertThat(old.after().latest().metadata().replicationStatus()).isNull();
    assertThat(latest(old.after())).containsExactly(true, false);
  }

  @Test
  void updateRefusals() {
    NoSuchKeyException hidden = catchThrowableOfType(NoSuchKeyException.class,
        () -> KeyWrites.update(h(dm(2000, false), obj(1000, false, 1)), null, ObjectMetadataUpdate.tags(Map.of())));
    assertThat(hidden).isNotNull();
    assertThat(hidden.deleteMarker()).isTrue();
    assertThat(hidden.versionId()).isEqualTo(r(2000).encode());
    assertThat(hidden.getMessage()).startsWith("key: ");
    NoSuchKeyException absent = catchThrowableOfType(NoSuchKeyException.class,
        () -> KeyWrites.update(KeyHistory.empty(K), null, ObjectMetadataUpdate.tags(Map.of())));
    assertThat(absent.deleteMarker()).isFalse();
    assertThat(absent.versionId()).isNull();
    Throwable marker = catchThrowable(() -> KeyWrites.update(h(dm(2000, false), obj(1000, false, 1)),
        r(2000).encode(), ObjectMetadataUpdate.tags(Map.of())));
    assertThat(marker).isInstanceOf(MethodNotAllowedException.class);
    assertThat(marker.getMessage()).startsWith("versionId: ");
    assertThat(catchThrowable(() -> KeyWrites.update(h(obj(1000, false, 1)), r(5).encode(),
        ObjectMetadataUpdate.tags(Map.of())))).isInstanceOf(NoSuchVersionException.class);
    // a non-latest version under a marker can still be updated by id
    KeyChange under = KeyWrites.update(h(dm(2000, false), obj(1000, false, 1)), r(1000).encode(),
        ObjectMetadataUpdate.tags(Map.of("a", "b")));
    assertThat(under.subject().metadata().tags()).containsEntry("a", "b");
  }

  @Test
  void currentAndVersionLookups() {
    ObjectVersion cur = KeyWrites.current(h(obj(2000, false, 1), obj(1000, false, 1)));
    assertThat(cur.revision()).isEqualTo(r(2000));
    ObjectVersion v = KeyWrites.version(h(dm(2000, false), obj(1000, false, 1)), r(1000).encode());
    assertThat(v.revision()).isEqualTo(r(1000));
    assertThat(catchThrowable(() -> KeyWrites.version(h(obj(1000, false, 1)), "null")))
        .isInstanceOf(NoSuchVersionException.class).hasMessageStartingWith("versionId: ");
  }

  // ---- conditions

  @Test
  void createOnly() {
    assertThatCode(() -> KeyWrites.check(KeyHistory.empty(K), WriteCondition.createOnly())).doesNotThrowAnyException();
    // a delete marker on top counts as no object
    KeyChange c = KeyWrites.put(h(dm(2000, false), obj(1000, false, 1)), ENABLED, m(1, "x"),
        WriteCondition.createOnly(), r(3000));
    assertThat(c.after().current().revision()).isEqualTo(r(3000));
    Throwable e = catchThrowable(() -> KeyWrites.put(h(obj(1000, false, 1)), ENABLED, m(1, "x"),
        WriteCondition.createOnly(), r(3000)));
    assertThat(e).isInstanceOf(PreconditionFailedException.class).hasMessageStartingWith("ifNoneMatch: ");
  }

  @Test
  void ifMatchEtag() {
    KeyHistory h = h(obj(2000, false, 1), obj(1000, false, 1));
    assertThatCode(() -> KeyWrites.check(h, WriteCondition.ifMatchEtag("etag2000"))).doesNotThrowAnyException();
    assertThat(catchThrowable(() -> KeyWrites.check(h, WriteCondition.ifMatchEtag("etag1000"))))
        .isInstanceOf(PreconditionFailedException.class).hasMessageStartingWith("ifMatchEtag: ");
    assertThat(catchThrowable(() -> KeyWrites.put(h, ENABLED, m(1, "x"), WriteCondition.ifMatchEtag("nope"), r(3000))))
        .isInstanceOf(PreconditionFailedException.class);
    Throwable absent = catchThrowable(() -> KeyWrites.check(KeyHistory.empty(K), WriteCondition.ifMatchEtag("e")));
    assertThat(absent).isInstanceOf(NoSuchKeyException.class).hasMessageStartingWith("ifMatch: ");
    Throwable hidden = catchThrowable(() -> KeyWrites.check(h(dm(3000, false), obj(2000, false, 1)),
        WriteCondition.ifMatchEtag("etag2000")));
    assertThat(hidden).isInstanceOf(NoSuchKeyException.class);
  }

  @Test
  void ifMatchVersionId() {
    KeyHistory nullOnTop = h(obj(2000, true, 1), obj(1000, false, 1));
    assertThatCode(() -> KeyWrites.check(nullOnTop, WriteCondition.ifMatchVersionId("null"))).doesNotThrowAnyException();
    assertThat(catchThrowable(() -> KeyWrites.check(nullOnTop, WriteCondition.ifMatchVersionId(r(2000).encode()))))
        .isInstanceOf(PreconditionFailedException.class).hasMessageStartingWith("ifMatchVersionId: ");
    KeyHistory enabled = h(obj(2000, false, 1), obj(1000, true, 1));
    assertThatCode(() -> KeyWrites.check(enabled, WriteCondition.ifMatchVersionId(r(2000).encode())))
        .doesNotThrowAnyException();
    assertThat(catchThrowable(() -> KeyWrites.check(enabled, WriteCondition.ifMatchVersionId("null"))))
        .isInstanceOf(PreconditionFailedException.class);
    assertThat(catchThrowable(() -> KeyWrites.check(KeyHistory.empty(K), WriteCondition.ifMatchVersionId("null"))))
        .isInstanceOf(NoSuchKeyException.class);
    KeyChange c = KeyWrites.put(enabled, ENABLED, m(9, "x"), WriteCondition.ifMatchVersionId(r(2000).encode()), r(3000));
    assertThat(c.after().versions()).hasSize(3);
  }

  @Test
  void noConditionNeverFails() {
    assertThatCode(() -> KeyWrites.check(KeyHistory.empty(K), null)).doesNotThrowAnyException();
    assertThatCode(() -> KeyWrites.check(KeyHistory.empty(K), WriteCondition.none())).doesNotThrowAnyException();
    assertThatCode(() -> KeyWrites.check(h(obj(1, false, 1)), new WriteCondition(false, null, null)))
        .doesNotThrowAnyException();
    assertThat(WriteCondition.none().isNone()).isTrue();
    assertThat(WriteCondition.createOnly().isNone()).isFalse();
    assertThat(WriteCondition.ifMatchEtag("e").isNone()).isFalse();
    assertThat(WriteCondition.ifMatchVersionId("null").isNone()).isFalse();
  }

  // ---- usage

  @Test
  void usageOfAHistory() {
    assertThat(KeyWrites.usage(KeyHistory.empty(K))).isEqualTo(Usage.ZERO);
    assertThat(KeyWrites.usage(h(obj(3000, false, 30), dm(2000, false), obj(1000, true, 10))))
        .isEqualTo(new Usage(1, 30, 1, 10, 1, 0, 0));
    assertThat(KeyWrites.usage(h(dm(3000, false), obj(2000, false, 20), obj(1000, true, 10))))
        .isEqualTo(new Usage(0, 0, 2, 30, 1, 0, 0));
    assertThat(KeyWrites.usage(h(dm(3000, false), dm(2000, true)))).isEqualTo(new Usage(0, 0, 0, 0, 2, 0, 0));
  }

  // ---- restore

  @Test
  void aRestoreReplacesTheWholeHistoryAndFreesNothing() {
    KeyHistory before = h(obj(3000, false, 30), obj(2000, true, 20), obj(1000, false, 10));
    List<ObjectVersion> given = List.of(dm(4000, false), obj(2000, true, 25), obj(500, false, 5));
    KeyChange c = KeyWrites.restore(before, SUSPENDED, given);
    assertThat(millis(c.after())).containsExactly(4000L, 2000L, 500L);
    assertThat(latest(c.after())).containsExactly(true, false, false);
    assertThat(c.after().versions().get(1).metadata().size()).as("kept as given").isEqualTo(25);
    assertThat(c.removed()).extracting(v -> v.revision().millis()).containsExactly(3000L, 1000L);
    assertThat(c.garbage()).as("a restore frees no data").isEmpty();
    assertThat(c.subject().revision().millis()).isEqualTo(4000);
    assertThat(c.usageDelta()).isEqualTo(KeyWrites.usage(c.after()).minus(KeyWrites.usage(before)));
  }

  @Test
  void aRestoreOfTheSameHistoryChangesNothing() {
    List<ObjectVersion> given = List.of(obj(2000, false, 20), dm(1000, true));
    KeyChange first = KeyWrites.restore(KeyHistory.empty(K), ENABLED, given);
    KeyChange again = KeyWrites.restore(first.after(), ENABLED, given);
    assertThat(again.after()).isEqualTo(first.after());
    assertThat(again.removed()).isEmpty();
    assertThat(again.usageDelta()).isEqualTo(Usage.ZERO);
  }

  @Test
  void anUnversionedBucketRestoresOnlyOneNullObject() {
    KeyChange ok = KeyWrites.restore(KeyHistory.empty(K), UNVERSIONED, List.of(obj(1000, true, 10)));
    assertThat(ok.usageDelta()).isEqualTo(new Usage(1, 10, 0, 0, 0, 0, 0));
    assertThat(catchThrowableOfType(InvalidArgumentException.class, () -> KeyWrites.restore(
        KeyHistory.empty(K), UNVERSIONED, List.of(obj(2000, true, 1), obj(1000, false, 1))))
        .field()).isEqualTo("versions");
    assertThat(catchThrowableOfType(InvalidArgumentException.class, () -> KeyWrites.restore(
        KeyHistory.empty(K), UNVERSIONED, List.of(obj(2000, false, 1)))).field())
        .isEqualTo("versions[0].nullVersion");
    assertThat(catchThrowableOfType(InvalidArgumentException.class, () -> KeyWrites.restore(
        KeyHistory.empty(K), UNVERSIONED, List.of(dm(2000, true)))).field())
        .isEqualTo("versions[0].deleteMarker");
    assertThatCode(() -> KeyWrites.restore(KeyHistory.empty(K), SUSPENDED,
        List.of(dm(2000, true), obj(1000, false, 1)))).doesNotThrowAnyException();
  }

  @Test
  void everyOtherWriteFreesTheDataItRemoves() {
    KeyChange put = KeyWrites.put(h(obj(1000, true, 10)), UNVERSIONED, m(1, "x"), WriteCondition.none(), r(2000));
    assertThat(put.freesData()).isTrue();
    assertThat(put.garbage()).hasSize(1);
  }
}
