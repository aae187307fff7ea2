package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.objectmeta.api.Capability;
import io.objectmeta.api.error.BucketAlreadyExistsException;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.error.NoSuchKeyException;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.listing.ListPartsRequest;
import io.objectmeta.api.listing.ListUploadsRequest;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.CompletedPart;
import io.objectmeta.api.model.Json;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.VersioningState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Restores of buckets, key histories and uploads as another store reports them: kept as given,
 * idempotent, nothing queued for GC, usage as if written, later writes following the rules.
 * Each test copies buckets written by the ordinary calls into new buckets of the same store and
 * compares what a client reads of the two.
 */
public interface RestoreContract extends StoreScenario {

  /** A time with no digits below the millisecond: every backend keeps it exactly. */
  Instant CREATED = Instant.ofEpochMilli(1_700_000_000_123L);

  /** A bucket to restore under a fresh name and id. */
  default Bucket bucketToRestore(VersioningState state) {
    return new Bucket(BucketNames.next(), UUID.randomUUID().toString(), OWNER, CREATED, state,
        Json.object("{\"team\":\"storage\",\"n\":[1,2]}"));
  }

  /**
   * A bucket in {@code state} holding every kind of history it allows: overwritten keys and keys
   * of any character; versions, delete markers on top, a marker alone, a version removed from the
   * middle; null versions on top of and among other versions, and a null delete marker.
   */
  default String writtenHistories(VersioningState state) {
    String b = newBucket();
    put(b, "plain", "p1", 3);
    put(b, "plain", "p2", 4);
    put(b, "a\u0000nul", "nul", 5);
    put(b, "\u00fc/\uD83D\uDE00", "emoji", 6);
    put(b, "mid", "m0", 7);
    if (state == VersioningState.UNVERSIONED) {
      return b;
    }
    setVersioning(b, VersioningState.ENABLED);
    put(b, "mid", "m1", 8);
    put(b, "mid", "m2", 9);
    put(b, "marked", "k1", 10);
    store().deleteObject(b, "marked");
    store().deleteObject(b, "only-marker");
    ObjectVersion first = put(b, "holey", "h1", 11);
    put(b, "holey", "h2", 12);
    put(b, "holey", "h3", 13);
    store().deleteObjectVersion(b, "holey", first.versionId());
    put(b, "top", "t1", 14);
    put(b, "sdm", "s1", 15);
    if (state == VersioningState.SUSPENDED) {
      setVersioning(b, VersioningState.SUSPENDED);
      put(b, "top", "t2", 16);
      store().deleteObject(b, "sdm");
    }
    return b;
  }

  /** The bucket's versions grouped by key, in listing order. */
  default Map<String, List<ObjectVersion>> histories(String bucket) {
    Map<String, List<ObjectVersion>> byKey = new LinkedHashMap<>();
    for (ObjectVersion v : versions(bucket)) {
      byKey.computeIfAbsent(v.key(), k -> new ArrayList<>()).add(v);
    }
    return byKey;
  }

  /** Restores a copy of {@code source} (settings and every key's history) under a new name. */
  default String copyOf(String source) {
    Bucket src = store().getBucket(source);
    Bucket copy = bucketToRestore(src.versioning());
    store().restoreBucket(copy);
    histories(source).forEach((key, history) -> store().restoreKey(copy.name(), key, history));
    return copy.name();
  }

  /** Asserts that a client reads the same objects, versions and usage in both buckets. */
  default void assertSameContents(String copy, String source) {
    assertThat(versions(copy)).as("every version and marker of the copy").isEqualTo(versions(source));
    assertThat(Walks.allCurrent(store(), copy)).as("current objects").isEqualTo(Walks.allCurrent(store(), source));
    for (Map.Entry<String, List<ObjectVersion>> e : histories(source).entrySet()) {
      String key = e.getKey();
      ObjectVersion latest = e.getValue().get(0);
      if (latest.deleteMarker()) {
        NoSuchKeyException gone = catchThrowableOfType(NoSuchKeyException.class,
            () -> store().getObject(copy, key));
        assertThat(gone).as("a marker on top of %s", key).isNotNull();
        assertThat(gone.deleteMarker()).isTrue();
        assertThat(gone.versionId()).isEqualTo(latest.versionId());
      } else {
        assertThat(store().getObject(copy, key)).isEqualTo(latest);
      }
      for (ObjectVersion v : e.getValue()) {
        if (!v.deleteMarker()) {
          assertThat(store().getObjectVersion(copy, key, v.versionId())).isEqualTo(v);
        }
      }
    }
    assertThat(Recount.withoutUploads(store().bucketUsage(copy))).as("usage of the copy")
        .isEqualTo(Recount.withoutUploads(store().bucketUsage(source)))
        .isEqualTo(Recount.versions(store(), copy));
  }

  // ------------------------------------------------------------------------------------ buckets

  @Test
  default void aRestoredBucketIsTheBucketAsGiven() {
    for (VersioningState state : VersioningState.values()) {
      Bucket given = bucketToRestore(state);
      assertThat(store().restoreBucket(given)).isEqualTo(given);
      assertThat(store().getBucket(given.name())).as("restored %s", state).isEqualTo(given);
      assertThat(store().bucketUsage(given.name())).isEqualTo(Usage.ZERO);
    }
  }

  @Test
  default void restoringABucketAgainBringsItToTheGivenSettingsAndKeepsItsKeys() {
    Bucket given = bucketToRestore(VersioningState.UNVERSIONED);
    store().restoreBucket(given);
    put(given.name(), "k", "v1");
    assertThat(store().restoreBucket(given)).isEqualTo(given);
    Bucket changed = new Bucket(given.name(), given.id(), "owner-2", CREATED.plusSeconds(5),
        VersioningState.ENABLED, Json.object("{\"b\":1}"));
    Bucket after = store().restoreBucket(changed);
    assertThat(after.owner()).isEqualTo("owner-2");
    assertThat(after.versioning()).isEqualTo(VersioningState.ENABLED);
    assertThat(after.attributes()).isEqualTo(Json.object("{\"b\":1}"));
    assertThat(after.created()).as("an incarnation keeps its creation time").isEqualTo(CREATED);
    assertThat(store().getBucket(given.name())).isEqualTo(after);
    assertThat(versionIdsOf(given.name(), "k")).as("the null version written while unversioned")
        .containsExactly("null");
    put(given.name(), "k", "v2");
    assertThat(versionIdsOf(given.name(), "k")).hasSize(2);
  }

  @Test
  default void aBucketOfAnotherIncarnationIsNotOverwritten() {
    String b = newBucket();
    put(b, "k", "v");
    Bucket other = new Bucket(b, UUID.randomUUID().toString(), OWNER, CREATED,
        VersioningState.ENABLED, null);
    assertRefusedAndUnchanged(BucketAlreadyExistsException.class, () -> store().restoreBucket(other));
  }

  @Test
  default void anIdAnotherBucketHoldsIsRefused() {
    String b = newBucket();
    Bucket sameId = new Bucket(BucketNames.next(), store().getBucket(b).id(), OWNER, CREATED,
        VersioningState.UNVERSIONED, null);
    assertRefusedAndUnchanged(BucketAlreadyExistsException.class, () -> store().restoreBucket(sameId));
  }

  @Test
  default void aVersionedIncarnationIsNotRestoredAsUnversioned() {
    Bucket given = bucketToRestore(VersioningState.SUSPENDED);
    store().restoreBucket(given);
    Bucket back = new Bucket(given.name(), given.id(), OWNER, CREATED, VersioningState.UNVERSIONED,
        null);
    InvalidArgumentException e = assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().restoreBucket(back));
    assertThat(e.field()).isEqualTo("versioning");
  }

  @Test
  default void aBucketIdMustBeACanonicalUuid() {
    newBucket();
    Bucket bad = new Bucket(BucketNames.next(), "bucket-7", OWNER, CREATED,
        VersioningState.UNVERSIONED, null);
    InvalidArgumentException e = assertRefusedAndUnchanged(InvalidArgumentException.class,
        () -> store().restoreBucket(bad));
    assertThat(e.field()).isEqualTo("bucket.id");
    String minted = store().getBucket(newBucket()).id();
    assertThat(minted).as("the ids a store mints are canonical UUIDs too")
        .isEqualTo(UUID.fromString(minted).toString());
  }

  // --------------------------------------------------------------------------------------- keys

  @Test
  default void restoredHistoriesReadBackAsWrittenInEveryVersioningState() {
    for (VersioningState state : VersioningState.values()) {
      String source = writtenHistories(state);
      String copy = copyOf(source);
      assertThat(store().getBucket(copy).versioning()).isEqualTo(state);
      assertSameContents(copy, source);
    }
  }

  @Test
  default void restoringTheSameHistoriesAgainChangesNothing() {
    String source = writtenHistories(VersioningState.SUSPENDED);
    String copy = copyOf(source);
    StoreSnapshot once = snapshot();
    histories(source).forEach((key, history) -> store().restoreKey(copy, key, history));
    assertThat(snapshot()).as("the store after restoring every key a second time").isEqualTo(once);
  }

  @Test
  default void aRestoreReplacesTheWholeHistoryAndQueuesNothing() {
    String scratch = newBucket(VersioningState.ENABLED);
    put(scratch, "x", "x2", 20);
    store().deleteObject(scratch, "x");
    put(scratch, "x", "x3", 30);
    List<ObjectVersion> given = versionsOf(scratch, "x");
    String b = newBucket(VersioningState.ENABLED);
    put(b, "x", "old1", 1);
    put(b, "x", "old2", 2);
    store().deleteObject(b, "x");
    List<GarbageRecord> queued = gcQueue();
    store().restoreKey(b, "x", given);
    assertThat(versionsOf(b, "x")).isEqualTo(given);
    assertThat(gcQueue()).as("a restore frees no data").isEqualTo(queued);
    assertThat(store().bucketUsage(b)).isEqualTo(store().bucketUsage(scratch));
  }

  @Test
  default void writesAfterARestoreFollowTheRules() {
    String source = writtenHistories(VersioningState.SUSPENDED);
    String copy = copyOf(source);
    java.util.Set<String> before = new java.util.HashSet<>(gcQueue().stream().map(GarbageRecord::id).toList());
    for (String b : List.of(source, copy)) {
      put(b, "mid", "after", 40);          // replaces the null version standing among others
      store().deleteObject(b, "top");      // a null marker replaces the null version on top
      ObjectVersion latest = versionsOf(b, "holey").get(0);
      store().deleteObjectVersion(b, "holey", latest.versionId());
    }
    List<String> stripped = new ArrayList<>();
    for (String b : List.of(source, copy)) {
      stripped.add(gcQueue(b).stream().filter(r -> !before.contains(r.id()))
          .map(r -> r.key() + "@" + r.versionId() + ":" + r.size()).sorted().toList().toString());
    }
    assertThat(stripped.get(0)).contains("mid@null:7", "top@null:16");
    assertThat(stripped.get(1)).as("GC records the writes queued in the copy").isEqualTo(stripped.get(0));
    assertThat(versions(copy)).extracting(ObjectVersion::key, ObjectVersion::nullVersion,
            ObjectVersion::deleteMarker, ObjectVersion::latest, ObjectVersion::size)
        .isEqualTo(versions(source).stream().map(v -> org.assertj.core.groups.Tuple.tuple(v.key(),
            v.nullVersion(), v.deleteMarker(), v.latest(), v.size())).toList());
    assertThat(store().bucketUsage(copy)).isEqualTo(store().bucketUsage(source));
  }

  @Test
  default void anUnversionedBucketHoldsOneNullObjectPerKey() {
    String source = writtenHistories(VersioningState.ENABLED);
    List<ObjectVersion> mid = versionsOf(source, "mid");
    List<ObjectVersion> marked = versionsOf(source, "marked");
    String b = newBucket();
    put(b, "k", "v");
    assertRestoreInvalid("versions", () -> store().restoreKey(b, "mid", mid));
    assertRestoreInvalid("versions[0].nullVersion", () -> store().restoreKey(b, "mid",
        List.of(mid.get(0))));
    ObjectVersion nullMarker = new ObjectVersion("marked", marked.get(0).revision(), true, true,
        true, null);
    assertRestoreInvalid("versions[0].deleteMarker", () -> store().restoreKey(b, "marked",
        List.of(nullMarker)));
    store().restoreKey(b, "mid", List.of(mid.get(2)));
    assertThat(versionsOf(b, "mid")).containsExactly(mid.get(2).withLatest(true));
  }

  @Test
  default void badHistoriesAreRefusedNamingTheVersion() {
    String source = writtenHistories(VersioningState.SUSPENDED);
    List<ObjectVersion> mid = versionsOf(source, "mid");
    String b = copyOf(source);
    assertRestoreInvalid("versions[1]", () -> store().restoreKey(b, "mid",
        List.of(mid.get(1), mid.get(0))));
    assertRestoreInvalid("versions[1]", () -> store().restoreKey(b, "mid",
        List.of(mid.get(0), mid.get(0))));
    ObjectVersion secondNull = new ObjectVersion("mid", mid.get(0).revision(), true, false, true,
        mid.get(0).metadata());
    assertRestoreInvalid("versions[1].nullVersion", () -> store().restoreKey(b, "mid",
        List.of(secondNull, mid.get(2))));
    assertRestoreInvalid("versions[0].key", () -> store().restoreKey(b, "other", mid));
    assertRestoreInvalid("versions", () -> store().restoreKey(b, "mid", List.of()));
    ObjectVersion negative = mid.get(0).withMetadata(mid.get(0).metadata().toBuilder().size(-1).build());
    assertRestoreInvalid("versions[0].metadata.size", () -> store().restoreKey(b, "mid",
        List.of(negative)));
  }

  @Test
  default void restoringAKeyIntoAMissingBucketIsNoSuchBucket() {
    String source = writtenHistories(VersioningState.ENABLED);
    List<ObjectVersion> mid = versionsOf(source, "mid");
    assertRefusedAndUnchanged(NoSuchBucketException.class,
        () -> store().restoreKey(BucketNames.next(), "mid", mid));
  }

  default void assertRestoreInvalid(String field, ThrowingCallable call) {
    InvalidArgumentException e = assertRefusedAndUnchanged(InvalidArgumentException.class, call);
    assertThat(e.field()).as("the field the error names").isEqualTo(field);
  }

  // ------------------------------------------------------------------------------------ uploads

  /** An upload with three parts (one replaced) in a fresh bucket; returns the bucket. */
  default String bucketWithAnUpload() {
    String b = newBucket();
    requireCapability(Capability.MULTIPART_UPLOADS,
        () -> store().restoreUpload(b, new MultipartUpload("k", "x", CREATED, Sample.object("k")),
            List.of()));
    MultipartUpload u = store().initiateMultipartUpload(b, "mp\u0000/\u00fc", Sample.object("mp", 0));
    store().putPart(b, u.key(), u.uploadId(), Sample.part(1, "one", 5));
    store().putPart(b, u.key(), u.uploadId(), Sample.part(2, "two", 6));
    store().putPart(b, u.key(), u.uploadId(), Sample.part(2, "two-again", 7));
    store().putPart(b, u.key(), u.uploadId(), Sample.part(4, "four", 8));
    store().initiateMultipartUpload(b, "empty", Sample.object("e", 0));
    return b;
  }

  default List<MultipartUpload> uploads(String bucket) {
    return store().listMultipartUploads(ListUploadsRequest.of(bucket)).uploads();
  }

  default List<Part> parts(String bucket, MultipartUpload u) {
    return store().listParts(ListPartsRequest.of(bucket, u.key(), u.uploadId())).parts();
  }

  /** Restores every upload of {@code source} into {@code target}. */
  default void copyUploads(String source, String target) {
    for (MultipartUpload u : uploads(source)) {
      store().restoreUpload(target, u, parts(source, u));
    }
  }

  @Test
  default void restoredUploadsReadBackWithTheirParts() {
    String source = bucketWithAnUpload();
    String copy = copyOf(source);
    copyUploads(source, copy);
    assertThat(uploads(copy)).isEqualTo(uploads(source));
    for (MultipartUpload u : uploads(source)) {
      assertThat(parts(copy, u)).as("parts of %s, last-modified kept", u.key())
          .isEqualTo(parts(source, u));
    }
    assertThat(store().bucketUsage(copy)).isEqualTo(store().bucketUsage(source));
    MultipartUpload u = uploads(copy).get(1);
    List<Part> ps = parts(copy, u);
    ObjectVersion done = store().completeMultipartUpload(copy, u.key(), u.uploadId(),
        ps.stream().map(p -> new CompletedPart(p.partNumber(), p.etag())).toList());
    assertThat(done.size()).isEqualTo(5 + 7 + 8);
    assertThat(done.metadata().etag()).isEqualTo(Sample.multipartEtag(
        List.of(Sample.md5Hex("one"), Sample.md5Hex("two-again"), Sample.md5Hex("four"))));
    assertThat(gcQueue(copy)).as("the part replaced before the copy is not the copy's garbage")
        .isEmpty();
  }

  @Test
  default void restoringAnUploadAgainCountsItOnce() {
    String source = bucketWithAnUpload();
    String copy = copyOf(source);
    copyUploads(source, copy);
    StoreSnapshot once = snapshot();
    copyUploads(source, copy);
    assertThat(snapshot()).isEqualTo(once);
    MultipartUpload u = uploads(source).get(1);
    store().restoreUpload(copy, u, parts(source, u).subList(0, 1));
    assertThat(parts(copy, u)).as("the upload replaced with exactly the given parts")
        .isEqualTo(parts(source, u).subList(0, 1));
    assertThat(store().bucketUsage(copy).partBytes()).isEqualTo(5);
    assertThat(store().bucketUsage(copy).uploads()).isEqualTo(2);
    assertThat(gcQueue(copy)).isEmpty();
  }

  @Test
  default void anUploadWithPartsOutOfOrderIsRefused() {
    String source = bucketWithAnUpload();
    MultipartUpload u = uploads(source).get(1);
    List<Part> ps = parts(source, u);
    String copy = copyOf(source);
    assertRestoreInvalid("parts[1].partNumber", () -> store().restoreUpload(copy, u,
        List.of(ps.get(1), ps.get(0))));
    assertRestoreInvalid("parts[0].lastModified", () -> store().restoreUpload(copy, u,
        List.of(ps.get(0).withLastModified(null))));
    assertRefusedAndUnchanged(NoSuchBucketException.class,
        () -> store().restoreUpload(BucketNames.next(), u, ps));
  }
}
