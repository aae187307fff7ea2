package io.objectmeta.bigtable;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.bigtable.data.v2.models.Mutation;
import com.google.cloud.bigtable.data.v2.models.Row;
import com.google.cloud.bigtable.data.v2.models.RowCell;
import com.google.protobuf.ByteString;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.DeleteResult;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectMetadataUpdate;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.WriteCondition;
import io.objectmeta.api.spi.IntentProtocol;
import io.objectmeta.api.version.VersionId;
import io.objectmeta.api.versioning.KeyChange;
import io.objectmeta.api.versioning.KeyHistory;
import io.objectmeta.api.versioning.KeyWrites;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;
import static io.objectmeta.bigtable.Cells.*;

/**
 * Object versions on Bigtable: one key row per key holding its whole history (a column per
 * version) under one version cell, read whole and written through the shared {@link
 * io.objectmeta.api.spi.IntentProtocol}: the change planned by {@link
 * io.objectmeta.api.versioning.KeyWrites}, committed with its intent by one check-and-mutate of the
 * row (this is where a delete marker or a null version gets written: {@link #historyMutation}),
 * then the intent applied by {@link BigtableIntents}.
 */
final class BigtableKeys implements io.objectmeta.api.spi.ComposedMetadataStore.Keys {
  private final BigtableMetadataStore s;

  BigtableKeys(BigtableMetadataStore s) {
    this.s = s;
  }

  // -------------------------------------------------------------------------------- key rows

  /** A key row as read: its version (null: no row), its history, a pending intent. */
  record KeyRow(ByteString row, Long version, List<ObjectVersion> versions, Intent intent) {
    KeyHistory history(String key) {
      return new KeyHistory(key, versions);
    }
  }

  KeyRow keyRow(Rows rows, String key) {
    ByteString row = rows.key(key);
    long start = System.nanoTime();
    for (int attempt = 0; ; attempt++) {
      KeyRow k = keyRow(row, key, s.bt.read(s.objects, row), false);
      if (k != null) {
        return k;
      }
      s.retry.backoff(attempt, start, "a key row kept reading torn");
    }
  }

  /**
   * A key row as read, or null if the read is torn: it holds fewer version columns than the row
   * says (a read that overlaps a write removing a version column can miss the column family on
   * the emulator; the caller reads again). {@code latestOnly}: the read asked for the first
   * version column alone.
   */
  static KeyRow keyRow(ByteString row, String key, Row r, boolean latestOnly) {
    if (r == null) {
      return new KeyRow(row, null, List.of(), null);
    }
    List<ObjectVersion> versions = new ArrayList<>();
    for (RowCell c : r.getCells(Bt.DATA)) {
      versions.add(Codec.version(key, Rows.revisionOf(c.getQualifier()), Codec.json(c.getValue())));
    }
    ByteString n = Bt.cell(r, Bt.META, COUNT);
    long expected = n == null ? versions.size() : Codec.version(n);
    if (latestOnly ? (expected > 0) != !versions.isEmpty() : expected != versions.size()) {
      return null;
    }
    ByteString i = Bt.cell(r, Bt.META, INTENT);
    return new KeyRow(row, Bt.version(r), versions, i == null ? null : Intent.decode(i));
  }

  /** Extra work a key write carries (a multipart completion's upload row, parts and usage). */
  record Extra(List<ByteString> deletes, List<GarbageRecord> garbage, Usage usage) {
    static final Extra NONE = new Extra(List.of(), List.of(), Usage.ZERO);
  }

  /**
   * One write to a key, through the shared {@link IntentProtocol}: read the key row, plan with
   * the shared rules, commit the new history with the intent (check-and-mutate on the row's
   * version cell), apply the intent.
   */
  KeyChange writeKey(String bucket, String key, BiFunction<Bucket, KeyHistory, KeyChange> plan,
      Function<Bucket, Extra> extra) {
    return s.protocol.write("the key", () -> {
      BigtableMetadataStore.BucketRow b = s.bucket(bucket);
      return new KeyAttempt(b, key, keyRow(b.rows(), key), plan, extra);
    });
  }

  /** A key write's attempt over one read of the key row. */
  final class KeyAttempt implements IntentProtocol.Attempt<KeyChange> {
    private final BigtableMetadataStore.BucketRow b;
    private final String key;
    private final KeyRow k;
    private final BiFunction<Bucket, KeyHistory, KeyChange> plan;
    private final Function<Bucket, Extra> extra;
    private KeyChange change;
    private Intent intent;
    private long v;

    KeyAttempt(BigtableMetadataStore.BucketRow b, String key, KeyRow k, BiFunction<Bucket, KeyHistory, KeyChange> plan,
        Function<Bucket, Extra> extra) {
      this.b = b;
      this.key = key;
      this.k = k;
      this.plan = plan;
      this.extra = extra;
    }

    @Override
    public long pendingSince() {
      return k.intent() == null ? IntentProtocol.NONE : k.intent().since();
    }

    @Override
    public void rollForward() {
      s.intents.rollForward(b, b.rows(), key, k.row(), k.version(), k.intent(),
          k.history(key).current());
    }

    @Override
    public IntentProtocol.Commit commit() {
      change = plan.apply(b.bucket(), k.history(key));
      Extra x = extra == null ? Extra.NONE : extra.apply(b.bucket());
      Mutation m = Mutation.create();
      boolean changed = historyMutation(change, m);
      Usage delta = change.usageDelta().plus(x.usage());
      Instant at = s.now();
      String tag = Intent.newTag();
      List<ObjectNode> garbage = new ArrayList<>();
      for (ObjectVersion gone : change.garbage()) {
        garbage.add(Codec.garbage(GarbageRecord.ofVersion(gcId(at, tag, garbage.size()),
            b.bucket(), gone, at)));
      }
      for (GarbageRecord g : x.garbage()) {
        garbage.add(Codec.garbage(g.as(gcId(at, tag, garbage.size()), at)));
      }
      boolean master = !sameVersion(change.before().current(), change.after().current());
      intent = new Intent(tag, at.toEpochMilli(), shardOf(key), Codec.counters(delta), garbage,
          x.deletes(), master, change.after().isEmpty());
      if (!changed && !intent.countsUsage() && garbage.isEmpty() && x.deletes().isEmpty()) {
        return IntentProtocol.Commit.NOTHING;
      }
      v = k.version() == null ? Bt.firstVersion() : k.version() + 1;
      Bt.set(m, Bt.META, Bt.VERSION, Codec.version(v));
      Bt.set(m, Bt.META, INTENT, intent.encode());
      return s.bt.cas(s.objects, k.row(), k.version(), m) ? IntentProtocol.Commit.COMMITTED
          : IntentProtocol.Commit.CONFLICT;
    }

    @Override
    public IntentProtocol.Applied apply(IntentProtocol.Waits waits) {
      s.intents.finish(b, b.rows(), key, k.row(), v, intent, change.after().current(), false, waits);
      return IntentProtocol.Applied.DONE;
    }

    @Override
    public KeyChange result() {
      return change;
    }
  }

  /** Writes the history's changes into the key row's mutation; false if there are none. */
  static boolean historyMutation(KeyChange c, Mutation m) {
    Map<VersionId, ObjectVersion> before = new HashMap<>();
    for (ObjectVersion v : c.before().versions()) {
      before.put(v.revision(), v);
    }
    boolean changed = false;
    for (ObjectVersion v : c.after().versions()) {
      ObjectVersion old = before.remove(v.revision());
      if (old == null || !sameStored(old, v)) {
        Bt.set(m, Bt.DATA, Rows.versionColumn(v.revision()), Codec.bytes(Codec.version(v)));
        changed = true;
      }
    }
    for (VersionId gone : before.keySet()) {
      m.deleteCells(Bt.DATA, Rows.versionColumn(gone));
      changed = true;
    }
    Bt.set(m, Bt.META, COUNT, Codec.version(c.after().versions().size()));
    return changed;
  }

  static boolean sameStored(ObjectVersion a, ObjectVersion b) {
    return a.nullVersion() == b.nullVersion() && a.deleteMarker() == b.deleteMarker()
        && Objects.equals(a.metadata(), b.metadata());
  }

  static boolean sameVersion(ObjectVersion a, ObjectVersion b) {
    if (a == null || b == null) {
      return a == b;
    }
    return a.revision().equals(b.revision()) && sameStored(a, b);
  }

  // ------------------------------------------------------------------------------------ objects

  @Override
  public ObjectVersion doPutObject(String bucket, String key, ObjectMetadata metadata,
      WriteCondition condition) {
    return writeKey(bucket, key, (b, h) ->
        KeyWrites.put(h, b.versioning(), metadata, condition, s.ids.next()), null).subject();
  }

  /**
   * The key's history for a reader (all of it, or the latest version only); a stale intent met
   * on the way is rolled forward first.
   */
  KeyHistory readHistory(String bucket, String key, boolean latestOnly) {
    BigtableMetadataStore.BucketRow b = s.bucket(bucket);
    Rows rows = b.rows();
    ByteString row = rows.key(key);
    KeyRow k = latestOnly ? keyRow(row, key, s.bt.read(s.objects, row, LATEST_VERSION), true) : null;
    if (k == null) {
      k = keyRow(rows, key);
    }
    if (k.intent() != null && s.lease.expired(k.intent().since())) {
      k = keyRow(rows, key);
      s.intents.rollForward(b, rows, key, k.row(), k.version(), k.intent(), k.history(key).current());
      k = keyRow(rows, key);
    }
    return k.history(key);
  }

  @Override
  public ObjectVersion doGetObject(String bucket, String key) {
    return KeyWrites.current(readHistory(bucket, key, true));
  }

  @Override
  public ObjectVersion doGetObjectVersion(String bucket, String key, String versionId) {
    return KeyWrites.version(readHistory(bucket, key, false), versionId);
  }

  @Override
  public ObjectVersion doUpdateObjectMetadata(String bucket, String key, String versionId,
      ObjectMetadataUpdate update) {
    return writeKey(bucket, key, (b, h) -> KeyWrites.update(h, versionId, update), null).subject();
  }

  @Override
  public DeleteResult doDeleteObject(String bucket, String key) {
    return writeKey(bucket, key, (b, h) -> KeyWrites.delete(h, b.versioning(), s.ids.next()), null)
        .deleteResult();
  }

  @Override
  public DeleteResult doDeleteObjectVersion(String bucket, String key, String versionId) {
    return writeKey(bucket, key, (b, h) -> KeyWrites.deleteVersion(h, versionId), null)
        .versionDeleteResult();
  }

  @Override
  public void doRestoreKey(String bucket, String key, List<ObjectVersion> versions) {
    writeKey(bucket, key, (b, h) -> KeyWrites.restore(h, b.versioning(), versions), null);
  }
}
