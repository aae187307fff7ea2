package io.objectmeta.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.error.NoSuchKeyException;
import io.objectmeta.api.listing.ListObjectsRequest;
import io.objectmeta.api.listing.ListObjectsResult;
import io.objectmeta.api.listing.ListObjectsV2Request;
import io.objectmeta.api.listing.ListObjectsV2Result;
import io.objectmeta.api.listing.ListVersionsRequest;
import io.objectmeta.api.listing.ListVersionsResult;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.BucketUpdate;
import io.objectmeta.api.model.DeleteResult;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectMetadataUpdate;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.model.WriteCondition;
import io.objectmeta.api.version.VersionId;
import io.objectmeta.memory.MemoryMetadataStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The randomized differential test: random sequences of operations over a few buckets and tricky
 * keys, applied to the backend under test and to a fresh reference {@link MemoryMetadataStore};
 * every answer (result, or error type) must be the same. Version ids differ between stores, so
 * each store's ids are renamed to ordinals in the order first seen before comparing, and the
 * operations name versions by ordinal. A backend's test class extends this and supplies its
 * fixture; jqwik shrinks a failing sequence to a short one.
 */
public abstract class DifferentialProperties {

  /** The backend under test. */
  protected abstract ConformanceFixture fixture();

  static final List<String> BUCKETS = List.of("diff-a", "diff-b", "diff-c");
  static final List<String> KEYS = List.of("a", "a/b", "a/c", "\u0000", "\uFFFD", "\uD83D\uDE00", "b/");
  static final List<String> PREFIXES = java.util.Arrays.asList(null, "", "a", "a/", "\uFFFD", "\uD83D\uDE00", "b");
  static final List<String> DELIMITERS = java.util.Arrays.asList(null, "", "/", "a");
  static final List<String> MARKERS = java.util.Arrays.asList(null, "a", "a/", "a/b", "\u0000", "\uFFFD",
      "\uD83D\uDE00", "b/");
  static final List<Integer> MAX_KEYS = List.of(0, 1, 2, 3, 1000);

  /** Metadata that breaks one rule each: text no database stores alike, header injection, bounds. */
  static final List<ObjectMetadata> BAD = List.of(
      Sample.object("bad").toBuilder().etag("e\u0000").build(),
      Sample.object("bad").toBuilder().contentType("text/\uD800plain").build(),
      Sample.object("bad").toBuilder().owner("o\u0000").build(),
      Sample.object("bad").toBuilder().storageClass("BOGUS").build(),
      Sample.object("bad").toBuilder().userMetadata(Map.of("name", "v\r\nX-Injected: 1")).build(),
      Sample.object("bad").toBuilder().userMetadata(Map.of("two words", "v")).build(),
      Sample.object("bad").toBuilder().tags(Map.of("t", "\uDC00")).build(),
      Sample.object("bad").toBuilder().dataLocations(List.of(
          new io.objectmeta.api.model.DataLocation("d", "k\u0000", 0, 1))).build(),
      Sample.object("bad").toBuilder().attributes(
          io.objectmeta.api.model.Json.object("{\"a\":\"\\u0000\"}")).build(),
      Sample.object("bad", 0).toBuilder().size(Long.MAX_VALUE).build(),
      Sample.object("bad", 0).toBuilder().size((5L << 40) + 1).build());

  // --------------------------------------------------------------------------------- operations

  /** One step of a program. Versions are named by ordinal (see {@link Ids#resolve}). */
  public sealed interface Op {}

  public record CreateBucket(int bucket) implements Op {}

  public record DeleteBucket(int bucket) implements Op {}

  public record SetVersioning(int bucket, VersioningState state) implements Op {}

  /** Condition kinds of a put. */
  public enum Cond { NONE, CREATE_ONLY, IF_MATCH_ETAG, IF_MATCH_VERSION }

  public record Put(int bucket, int key, int content, long size, Cond cond, int ref) implements Op {}

  public record Delete(int bucket, int key) implements Op {}

  /** A put whose metadata breaks one input rule ({@link #BAD}): refused alike everywhere. */
  public record PutBad(int bucket, int key, int bad) implements Op {}

  public record DeleteVersion(int bucket, int key, int ref) implements Op {}

  public record Get(int bucket, int key) implements Op {}

  public record GetVersion(int bucket, int key, int ref) implements Op {}

  /** ref < 0: the current object. */
  public record UpdateTags(int bucket, int key, int ref, int tag) implements Op {}

  public record ListV1(int bucket, int prefix, int delimiter, int marker, int maxKeys) implements Op {}

  public record ListV2(int bucket, int prefix, int delimiter, int startAfter, int maxKeys) implements Op {}

  /** ref < 0: no version-id marker. */
  public record ListVersions(int bucket, int prefix, int delimiter, int keyMarker, int ref, int maxKeys)
      implements Op {}

  public record BucketUsage(int bucket) implements Op {}

  public record GcStats() implements Op {}

  /** The whole GC queue, compared as a sorted list of normalized records. */
  public record GcRecords() implements Op {}

  // ---------------------------------------------------------------------------------- property

  @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
  public void everyAnswerMatchesTheReferenceStore(@ForAll("programs") List<Op> program) {
    MetadataStore subject = fixture().open();
    MetadataStore reference = new MemoryMetadataStore();
    try {
      Ids subjectIds = new Ids();
      Ids referenceIds = new Ids();
      List<Op> steps = new ArrayList<>();
      steps.add(new CreateBucket(0));
      steps.add(new CreateBucket(1));
      steps.addAll(program);
      for (int i = 0; i < steps.size(); i++) {
        Op op = steps.get(i);
        Object expected = answer(op, reference, referenceIds);
        Object actual = answer(op, subject, subjectIds);
        assertThat(actual).as("step %d, %s, after %s", i, op, steps.subList(0, i)).isEqualTo(expected);
      }
    } finally {
      fixture().close(subject);
      reference.close();
    }
  }

  @Provide
  Arbitrary<List<Op>> programs() {
    return op().list().ofMinSize(8).ofMaxSize(40)
        .withSizeDistribution(net.jqwik.api.RandomDistribution.uniform());
  }

  Arbitrary<Op> op() {
    // Most steps hit the first bucket, so that its keys pile up and listings get truncated.
    Arbitrary<Integer> bucket = Arbitraries.frequency(
        net.jqwik.api.Tuple.of(6, 0), net.jqwik.api.Tuple.of(3, 1), net.jqwik.api.Tuple.of(1, 2));
    Arbitrary<Integer> key = Arbitraries.integers().between(0, KEYS.size() - 1);
    Arbitrary<Integer> ref = Arbitraries.integers().between(0, 12);
    Arbitrary<Integer> prefix = mostlyFirst(PREFIXES.size());
    Arbitrary<Integer> delimiter = mostlyFirst(DELIMITERS.size());
    Arbitrary<Integer> marker = mostlyFirst(MARKERS.size());
    Arbitrary<Integer> maxKeys = Arbitraries.frequency(net.jqwik.api.Tuple.of(1, 0),
        net.jqwik.api.Tuple.of(3, 1), net.jqwik.api.Tuple.of(3, 2), net.jqwik.api.Tuple.of(2, 3),
        net.jqwik.api.Tuple.of(2, 4));
    Arbitrary<Op> put = Combinators.combine(bucket, key, Arbitraries.integers().between(0, 3),
        Arbitraries.longs().between(0, 100),
        Arbitraries.frequency(net.jqwik.api.Tuple.of(7, Cond.NONE), net.jqwik.api.Tuple.of(1, Cond.CREATE_ONLY),
            net.jqwik.api.Tuple.of(1, Cond.IF_MATCH_ETAG), net.jqwik.api.Tuple.of(1, Cond.IF_MATCH_VERSION)),
        ref).as(Put::new);
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(2, bucket.map(CreateBucket::new)),
        net.jqwik.api.Tuple.of(1, bucket.map(DeleteBucket::new)),
        net.jqwik.api.Tuple.of(4, Combinators.combine(bucket, Arbitraries.of(VersioningState.class)).as(SetVersioning::new)),
        net.jqwik.api.Tuple.of(20, put),
        net.jqwik.api.Tuple.of(5, Combinators.combine(bucket, key).as(Delete::new)),
        net.jqwik.api.Tuple.of(3, Combinators.combine(bucket, key,
            Arbitraries.integers().between(0, BAD.size() - 1)).as(PutBad::new)),
        net.jqwik.api.Tuple.of(4, Combinators.combine(bucket, key, ref).as(DeleteVersion::new)),
        net.jqwik.api.Tuple.of(4, Combinators.combine(bucket, key).as(Get::new)),
        net.jqwik.api.Tuple.of(4, Combinators.combine(bucket, key, ref).as(GetVersion::new)),
        net.jqwik.api.Tuple.of(3, Combinators.combine(bucket, key, Arbitraries.integers().between(-1, 12),
            Arbitraries.integers().between(0, 3)).as(UpdateTags::new)),
        net.jqwik.api.Tuple.of(6, Combinators.combine(bucket, prefix, delimiter, marker, maxKeys).as(ListV1::new)),
        net.jqwik.api.Tuple.of(5, Combinators.combine(bucket, prefix, delimiter, marker, maxKeys).as(ListV2::new)),
        net.jqwik.api.Tuple.of(6, Combinators.combine(bucket, prefix, delimiter, marker,
            Arbitraries.integers().between(-1, 12), maxKeys).as(ListVersions::new)),
        net.jqwik.api.Tuple.of(3, bucket.map(BucketUsage::new)),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(new GcStats())),
        net.jqwik.api.Tuple.of(2, Arbitraries.just(new GcRecords())));
  }

  /** An index below {@code n}: half the time 0 (no prefix, delimiter or marker), else any. */
  static Arbitrary<Integer> mostlyFirst(int n) {
    return Arbitraries.oneOf(Arbitraries.just(0), Arbitraries.integers().between(0, n - 1));
  }

  // ----------------------------------------------------------------------------------- answers

  /** A store's version ids renamed to ordinals in the order first seen. */
  static final class Ids {
    private final Map<String, String> names = new HashMap<>();
    private final List<String> seen = new ArrayList<>();

    String normalize(String id) {
      if (id == null || id.equals(VersionId.NULL)) {
        return id;
      }
      return names.computeIfAbsent(id, k -> {
        seen.add(k);
        return "#" + seen.size();
      });
    }

    /**
     * The version id an operation's ordinal names in this store: one seen so far, "null", or a
     * well-formed id no store has minted.
     */
    String resolve(int ordinal) {
      int n = seen.size() + 2;
      int i = ordinal % n;
      if (i < seen.size()) {
        return seen.get(i);
      }
      return i == seen.size() ? VersionId.NULL : new VersionId(1, 1, 1).encode();
    }
  }

  /** An object version as compared: without revision and timestamp, its id normalized. */
  record VersionView(String key, String versionId, boolean nullVersion, boolean deleteMarker,
      boolean latest, ObjectMetadata metadata) {}

  /** A refusal: its type, what NoSuchKey says of a delete marker, the field InvalidArgument names. */
  record Failure(String type, boolean deleteMarker, String versionId, String field) {}

  static VersionView view(ObjectVersion v, Ids ids) {
    return new VersionView(v.key(), ids.normalize(v.versionId()), v.nullVersion(), v.deleteMarker(),
        v.latest(), v.metadata());
  }

  static List<VersionView> views(List<ObjectVersion> vs, Ids ids) {
    return vs.stream().map(v -> view(v, ids)).toList();
  }

  static Object attempt(Ids ids, Supplier<Object> call) {
    try {
      return call.get();
    } catch (NoSuchKeyException e) {
      return new Failure(e.getClass().getSimpleName(), e.deleteMarker(), ids.normalize(e.versionId()),
          null);
    } catch (io.objectmeta.api.error.InvalidArgumentException e) {
      return new Failure(e.getClass().getSimpleName(), false, null, e.field());
    } catch (MetadataException e) {
      return new Failure(e.getClass().getSimpleName(), false, null, null);
    }
  }

  static ObjectMetadata content(int content, long size) {
    return Sample.object("c" + content, size);
  }

  Object answer(Op op, MetadataStore s, Ids ids) {
    return attempt(ids, () -> run(op, s, ids));
  }

  private Object run(Op op, MetadataStore s, Ids ids) {
    if (op instanceof CreateBucket c) {
      Bucket b = s.createBucket(BUCKETS.get(c.bucket()), "owner", null);
      return List.of(b.name(), b.owner(), b.versioning(), b.attributes());
    } else if (op instanceof DeleteBucket d) {
      s.deleteBucket(BUCKETS.get(d.bucket()));
      return "deleted";
    } else if (op instanceof SetVersioning v) {
      return s.updateBucket(BUCKETS.get(v.bucket()), BucketUpdate.versioning(v.state())).versioning();
    } else if (op instanceof Put p) {
      WriteCondition cond = switch (p.cond()) {
        case NONE -> WriteCondition.none();
        case CREATE_ONLY -> WriteCondition.createOnly();
        case IF_MATCH_ETAG -> WriteCondition.ifMatchEtag(content(p.ref() % 4, 0).etag());
        case IF_MATCH_VERSION -> WriteCondition.ifMatchVersionId(ids.resolve(p.ref()));
      };
      return view(s.putObject(BUCKETS.get(p.bucket()), KEYS.get(p.key()), content(p.content(), p.size()), cond), ids);
    } else if (op instanceof PutBad p) {
      return view(s.putObject(BUCKETS.get(p.bucket()), KEYS.get(p.key()), BAD.get(p.bad())), ids);
    } else if (op instanceof Delete d) {
      DeleteResult r = s.deleteObject(BUCKETS.get(d.bucket()), KEYS.get(d.key()));
      return List.of(r.key(), String.valueOf(ids.normalize(r.versionId())), r.deleteMarker());
    } else if (op instanceof DeleteVersion d) {
      DeleteResult r = s.deleteObjectVersion(BUCKETS.get(d.bucket()), KEYS.get(d.key()), ids.resolve(d.ref()));
      return List.of(r.key(), String.valueOf(ids.normalize(r.versionId())), r.deleteMarker());
    } else if (op instanceof Get g) {
      return view(s.getObject(BUCKETS.get(g.bucket()), KEYS.get(g.key())), ids);
    } else if (op instanceof GetVersion g) {
      return view(s.getObjectVersion(BUCKETS.get(g.bucket()), KEYS.get(g.key()), ids.resolve(g.ref())), ids);
    } else if (op instanceof UpdateTags u) {
      String versionId = u.ref() < 0 ? null : ids.resolve(u.ref());
      return view(s.updateObjectMetadata(BUCKETS.get(u.bucket()), KEYS.get(u.key()), versionId,
          ObjectMetadataUpdate.tags(Map.of("t", "v" + u.tag()))), ids);
    } else if (op instanceof ListV1 l) {
      ListObjectsResult r = s.listObjects(ListObjectsRequest.of(BUCKETS.get(l.bucket()))
          .withPrefix(PREFIXES.get(l.prefix())).withDelimiter(DELIMITERS.get(l.delimiter()))
          .withMarker(MARKERS.get(l.marker())).withMaxKeys(MAX_KEYS.get(l.maxKeys())));
      return List.of(views(r.contents(), ids), r.commonPrefixes(), r.truncated(), String.valueOf(r.nextMarker()));
    } else if (op instanceof ListV2 l) {
      List<Object> pages = new ArrayList<>();
      ListObjectsV2Request r = ListObjectsV2Request.of(BUCKETS.get(l.bucket()))
          .withPrefix(PREFIXES.get(l.prefix())).withDelimiter(DELIMITERS.get(l.delimiter()))
          .withStartAfter(MARKERS.get(l.startAfter())).withMaxKeys(MAX_KEYS.get(l.maxKeys()));
      for (int page = 0; page < 50; page++) {
        ListObjectsV2Result p = s.listObjectsV2(r);
        pages.add(List.of(views(p.contents(), ids), p.commonPrefixes(), p.truncated(), p.keyCount(),
            p.nextContinuationToken() != null));
        if (!p.truncated()) {
          break;
        }
        r = r.withContinuationToken(p.nextContinuationToken());
      }
      return pages;
    } else if (op instanceof ListVersions l) {
      String keyMarker = MARKERS.get(l.keyMarker());
      ListVersionsResult r = s.listObjectVersions(ListVersionsRequest.of(BUCKETS.get(l.bucket()))
          .withPrefix(PREFIXES.get(l.prefix())).withDelimiter(DELIMITERS.get(l.delimiter()))
          .withKeyMarker(keyMarker).withVersionIdMarker(l.ref() < 0 ? null : ids.resolve(l.ref()))
          .withMaxKeys(MAX_KEYS.get(l.maxKeys())));
      return List.of(views(r.versions(), ids), r.commonPrefixes(), r.truncated(),
          String.valueOf(r.nextKeyMarker()), String.valueOf(ids.normalize(r.nextVersionIdMarker())));
    } else if (op instanceof BucketUsage u) {
      return s.bucketUsage(BUCKETS.get(u.bucket()));
    } else if (op instanceof GcStats) {
      var st = s.gcQueueStats();
      return List.of(st.queued(), st.leased(), st.bytes());
    } else if (op instanceof GcRecords) {
      return Walks.gcQueue(s).stream()
          .map(r -> List.of(r.kind(), r.bucket(), String.valueOf(r.key()),
              String.valueOf(ids.normalize(r.versionId())), r.partNumber(), r.size(), r.dataLocations()))
          .map(Object::toString).sorted().toList();
    }
    throw new IllegalArgumentException("unknown op " + op);
  }
}
