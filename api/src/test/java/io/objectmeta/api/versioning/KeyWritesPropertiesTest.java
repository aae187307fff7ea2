package io.objectmeta.api.versioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.objectmeta.api.error.NoSuchKeyException;
import io.objectmeta.api.error.NoSuchVersionException;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.model.WriteCondition;
import io.objectmeta.api.version.VersionId;
import io.objectmeta.api.version.VersionIdGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Random sequences of writes to one key against a plain model of S3's versioning rules. */
class KeyWritesPropertiesTest {

  /** What the model keeps of a version. */
  record V(VersionId rev, boolean isNull, boolean marker, long size) {
    static V of(ObjectVersion v) {
      return new V(v.revision(), v.nullVersion(), v.deleteMarker(), v.size());
    }
  }

  @Provide
  Arbitrary<List<Integer>> ops() {
    return Arbitraries.integers().between(0, 99).list().ofMaxSize(40);
  }

  private static Usage usageOf(List<V> model) {
    long cur = 0;
    long curBytes = 0;
    long non = 0;
    long nonBytes = 0;
    long markers = 0;
    for (int i = 0; i < model.size(); i++) {
      V v = model.get(i);
      if (v.marker()) {
        markers++;
      } else if (i == 0) {
        cur++;
        curBytes += v.size();
      } else {
        non++;
        nonBytes += v.size();
      }
    }
    return new Usage(cur, curBytes, non, nonBytes, markers, 0, 0);
  }

  @Property(tries = 1000)
  void writesFollowTheModel(@ForAll("ops") List<Integer> ops) {
    long[] clock = {1000};
    VersionIdGenerator gen = new VersionIdGenerator(() -> clock[0], 1);
    VersioningState state = VersioningState.UNVERSIONED;
    KeyHistory h = KeyHistory.empty("k");
    List<V> model = new ArrayList<>();
    Usage total = Usage.ZERO;
    for (int op : ops) {
      clock[0] += op % 3; // sometimes the same millisecond
      int kind = op % 10;
      KeyChange c = null;
      List<V> before = new ArrayList<>(model);
      if (kind == 0) {
        state = state == VersioningState.UNVERSIONED
            ? (op % 20 < 10 ? VersioningState.ENABLED : VersioningState.SUSPENDED)
            : (state == VersioningState.ENABLED ? VersioningState.SUSPENDED : VersioningState.ENABLED);
        continue;
      } else if (kind <= 4) {
        VersionId rev = gen.next();
        long size = op;
        c = KeyWrites.put(h, state, ObjectMetadata.builder().size(size).etag("e" + op).build(),
            WriteCondition.none(), rev);
        V w = new V(rev, state != VersioningState.ENABLED, false, size);
        if (state == VersioningState.UNVERSIONED) {
          model.clear();
        } else if (state == VersioningState.SUSPENDED) {
          model.removeIf(V::isNull);
        }
        model.add(0, w);
        assertThat(c.subject().latest()).isTrue();
        assertThat(c.after().current()).isEqualTo(c.subject());
      } else if (kind <= 7) {
        VersionId rev = gen.next();
        if (state == VersioningState.UNVERSIONED && model.isEmpty()) {
          KeyHistory fh = h;
          assertThat(catchThrowable(() -> KeyWrites.delete(fh, VersioningState.UNVERSIONED, rev)))
              .isInstanceOf(NoSuchKeyException.class);
          continue;
        }
        c = KeyWrites.delete(h, state, rev);
        if (state == VersioningState.UNVERSIONED) {
          model.clear();
        } else {
          boolean isNull = state == VersioningState.SUSPENDED;
          if (isNull) {
            model.removeIf(V::isNull);
          }
          model.add(0, new V(rev, isNull, true, 0));
          assertThat(c.after().current()).isNull();
        }
      } else {
        if (model.isEmpty()) {
          KeyHistory fh = h;
          assertThat(catchThrowable(() -> KeyWrites.deleteVersion(fh, "null")))
              .isInstanceOf(NoSuchVersionException.class);
          continue;
        }
        int i = op % model.size();
        V target = model.get(i);
        String id = target.isNull() ? "null" : target.rev().encode();
        c = KeyWrites.deleteVersion(h, id);
        model.remove(i);
        assertThat(V.of(c.subject())).isEqualTo(target);
      }
      // the history after matches the model
      assertThat(c.after().versions().stream().map(V::of).toList()).isEqualTo(model);
      assertThat(c.after().versions().stream().filter(ObjectVersion::nullVersion).count()).isLessThanOrEqualTo(1);
      for (int i = 0; i < c.after().versions().size(); i++) {
        assertThat(c.after().versions().get(i).latest()).isEqualTo(i == 0);
      }
      // nothing is lost: before + written == after + removed
      List<V> in = new ArrayList<>(before);
      if (c.after().versions().size() + c.removed().size() > before.size()) {
        in.add(V.of(c.subject()));
      }
      List<V> out = Stream.concat(c.after().versions().stream(), c.removed().stream()).map(V::of).toList();
      assertThat(out).containsExactlyInAnyOrderElementsOf(in);
      assertThat(c.garbage()).allMatch(v -> !v.deleteMarker());
      assertThat(c.garbage()).hasSize((int) c.removed().stream().filter(v -> !v.deleteMarker()).count());
      // usage: deltas add up to the usage of the history
      total = total.plus(c.usageDelta());
      assertThat(total).isEqualTo(usageOf(model));
      assertThat(KeyWrites.usage(c.after())).isEqualTo(usageOf(model));
      h = c.after();
    }
  }
}
