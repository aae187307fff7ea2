package io.objectmeta.bigtable;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.bigtable.data.v2.models.Mutation;
import com.google.cloud.bigtable.data.v2.models.Row;
import com.google.cloud.bigtable.data.v2.models.RowCell;
import com.google.protobuf.ByteString;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.error.NoSuchUploadException;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.model.CompletedPart;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.model.Usage;
import io.objectmeta.api.model.WriteCondition;
import io.objectmeta.api.spi.IntentProtocol;
import io.objectmeta.api.version.VersionId;
import io.objectmeta.api.versioning.KeyWrites;
import io.objectmeta.api.versioning.MultipartRules;
import io.objectmeta.api.versioning.UploadChange;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Function;
import static io.objectmeta.bigtable.Cells.*;

/**
 * Multipart uploads on Bigtable: one row per upload (its parts as columns), written through the
 * shared {@link io.objectmeta.api.spi.IntentProtocol} with the changes {@link
 * io.objectmeta.api.versioning.MultipartRules} plans; a completion freezes the row, then writes the
 * object as a key write whose intent removes the upload row.
 */
final class BigtableUploads implements io.objectmeta.api.spi.ComposedMetadataStore.Uploads {
  private final BigtableMetadataStore s;

  BigtableUploads(BigtableMetadataStore s) {
    this.s = s;
  }

  // ---------------------------------------------------------------------------------- multipart

  /** An upload row as read. */
  record UploadRow(BigtableMetadataStore.BucketRow bucket, Rows rows, ByteString row, Long version,
      MultipartUpload upload, TreeMap<Integer, Part> parts, Intent intent, Long completing) {}

  static TreeMap<Integer, Part> parts(Row r) {
    TreeMap<Integer, Part> parts = new TreeMap<>();
    for (RowCell c : r.getCells(Bt.DATA)) {
      if (c.getQualifier().toStringUtf8().startsWith("p") && !c.getValue().isEmpty()) {
        Part p = Codec.part(Codec.json(c.getValue()));
        parts.put(p.partNumber(), p);
      }
    }
    return parts;
  }

  UploadRow uploadRow(BigtableMetadataStore.BucketRow b, String key, String uploadId) {
    Rows rows = b.rows();
    ByteString row = rows.upload(key, uploadId);
    Row r = s.bt.read(s.objects, row);
    Long v = Bt.version(r);
    if (v == null) {
      return new UploadRow(b, rows, row, null, null, new TreeMap<>(), null, null);
    }
    ByteString u = Bt.cell(r, Bt.DATA, UPLOAD);
    ByteString i = Bt.cell(r, Bt.META, INTENT);
    ByteString cmp = Bt.cell(r, Bt.DATA, COMPLETING);
    return new UploadRow(b, rows, row, v, u == null ? null : Codec.upload(key, uploadId,
        Codec.json(u)), parts(r), i == null ? null : Intent.decode(i),
        cmp == null ? null : Long.parseLong(cmp.toStringUtf8()));
  }

  boolean completing(Long since) {
    return s.lease.held(since);
  }

  /** A live upload as it is now (pending intent and all); NoSuchUpload if there is none. */
  UploadRow liveUpload(String bucket, String key, String uploadId) {
    UploadRow u = uploadRow(s.bucket(bucket), key, uploadId);
    if (u.upload() == null || completing(u.completing())) {
      throw NoSuchUploadException.of(key, uploadId);
    }
    return u;
  }

  /**
   * What a write to an upload row plans: the upload it writes, its change (usage, parts freed),
   * the row's mutation, whether the row goes with the clear, and the write's answer.
   */
  record UploadWrite<T>(MultipartUpload upload, UploadChange change, Mutation mutation,
      boolean drop, T result) {}

  /**
   * A write to an upload row through the shared protocol: the row's change committed with its
   * intent (check-and-mutate on the version cell), then the intent applied.
   */
  private <T> T writeUpload(java.util.function.Supplier<UploadRow> read,
      Function<UploadRow, UploadWrite<T>> plan) {
    return s.protocol.write("the upload", () -> new UploadAttempt<>(read.get(), plan));
  }

  /** An upload write's attempt over one read of the upload row. */
  /** An attempt on an upload row as read: its pending intent is the row's. */
  abstract class OnUploadRow<T> implements IntentProtocol.Attempt<T> {
    final UploadRow u;

    OnUploadRow(UploadRow u) {
      this.u = u;
    }

    @Override
    public long pendingSince() {
      return u.intent() == null ? IntentProtocol.NONE : u.intent().since();
    }

    @Override
    public void rollForward() {
      s.intents.rollForward(u.bucket(), u.rows(), null, u.row(), u.version(),
          u.intent(), null);
    }
  }

  final class UploadAttempt<T> extends OnUploadRow<T> {
    private final Function<UploadRow, UploadWrite<T>> plan;
    private UploadWrite<T> w;
    private Intent intent;
    private long v;

    UploadAttempt(UploadRow u, Function<UploadRow, UploadWrite<T>> plan) {
      super(u);
      this.plan = plan;
    }

    @Override
    public IntentProtocol.Commit commit() {
      w = plan.apply(u);
      Instant at = s.now();
      String tag = Intent.newTag();
      List<ObjectNode> records = new ArrayList<>();
      for (GarbageRecord g : w.change().garbage(u.bucket().bucket(), w.upload(), at, "")) {
        records.add(Codec.garbage(g.as(gcId(at, tag, records.size()), at)));
      }
      intent = new Intent(tag, at.toEpochMilli(), shardOf(w.upload().key()),
          Codec.counters(w.change().usageDelta()), records, List.of(), false, w.drop());
      v = u.version() == null ? Bt.firstVersion() : u.version() + 1;
      Mutation m = w.mutation();
      Bt.set(m, Bt.META, Bt.VERSION, Codec.version(v));
      Bt.set(m, Bt.META, INTENT, intent.encode());
      return s.bt.cas(s.objects, u.row(), u.version(), m) ? IntentProtocol.Commit.COMMITTED
          : IntentProtocol.Commit.CONFLICT;
    }

    @Override
    public IntentProtocol.Applied apply(IntentProtocol.Waits waits) {
      s.intents.finish(u.bucket(), u.rows(), null, u.row(), v, intent, null, false, waits);
      return IntentProtocol.Applied.DONE;
    }

    @Override
    public T result() {
      return w.result();
    }
  }

  @Override
  public MultipartUpload doInitiateMultipartUpload(String bucket, String key,
      ObjectMetadata metadata) {
    return writeUpload(() -> {
      BigtableMetadataStore.BucketRow b = s.bucket(bucket);
      VersionId id = s.ids.next();
      MultipartUpload u = MultipartUpload.initiate(key, id, metadata);
      Rows rows = b.rows();
      return new UploadRow(b, rows, rows.upload(key, u.uploadId()), null, u, new TreeMap<>(),
          null, null);
    }, u -> {
      Mutation m = Mutation.create();
      Bt.set(m, Bt.DATA, UPLOAD, Codec.bytes(Codec.upload(u.upload())));
      return new UploadWrite<>(u.upload(), MultipartRules.initiate(), m, false, u.upload());
    });
  }

  @Override
  public Part doPutPart(String bucket, String key, String uploadId, Part part) {
    return writeUpload(() -> liveUpload(bucket, key, uploadId), u -> {
      Part stored = part.withLastModified(s.now());
      Mutation m = Mutation.create();
      Bt.set(m, Bt.DATA, Rows.partColumn(part.partNumber()), Codec.bytes(Codec.part(stored)));
      return new UploadWrite<>(u.upload(),
          MultipartRules.putPart(u.parts().get(part.partNumber()), stored), m, false, stored);
    });
  }

  @Override
  public void doAbortMultipartUpload(String bucket, String key, String uploadId) {
    writeUpload(() -> liveUpload(bucket, key, uploadId), u -> {
      // the upload disappears for readers at once (completing), the row goes with the clear
      Mutation m = Mutation.create();
      Bt.set(m, Bt.DATA, COMPLETING, ByteString.copyFromUtf8(Long.toString(Long.MAX_VALUE / 2)));
      return new UploadWrite<>(u.upload(), MultipartRules.abort(u.parts()), m, true, null);
    });
  }

  @Override
  public ObjectVersion doCompleteMultipartUpload(String bucket, String key, String uploadId,
      List<CompletedPart> parts) {
    // freeze it: parts and aborts now see it as gone, until the completion commits
    UploadRow frozen = s.protocol.write("the upload", () -> new OnUploadRow<UploadRow>(
        liveUpload(bucket, key, uploadId)) {

      @Override
      public IntentProtocol.Commit commit() {
        // nothing to apply: a freeze is one check-and-mutate
        Mutation m = Mutation.create();
        Bt.set(m, Bt.META, Bt.VERSION, Codec.version(u.version() + 1));
        Bt.set(m, Bt.DATA, COMPLETING, ByteString.copyFromUtf8(Long.toString(s.now().toEpochMilli())));
        return s.bt.cas(s.objects, u.row(), u.version(), m) ? IntentProtocol.Commit.NOTHING
            : IntentProtocol.Commit.CONFLICT;
      }

      @Override
      public UploadRow result() {
        return u;
      }
    });
    ObjectMetadata md;
    try {
      md = MultipartRules.complete(frozen.upload().metadata(), frozen.parts(), parts);
    } catch (MetadataException e) {
      unfreeze(frozen);
      throw e;
    }
    UploadChange change = MultipartRules.completion(frozen.parts(), parts);
    BigtableKeys.Extra x = new BigtableKeys.Extra(List.of(frozen.row()), change.garbage(frozen.bucket().bucket(),
        frozen.upload(), Instant.EPOCH, ""), change.usageDelta());
    try {
      return s.keys.writeKey(bucket, key, (b, h) -> {
        if (!b.id().equals(frozen.bucket().bucket().id())) {
          throw NoSuchUploadException.of(key, uploadId);
        }
        return KeyWrites.put(h, b.versioning(), md, WriteCondition.none(), s.ids.next());
      }, b -> x).subject();
    } catch (MetadataException e) {
      unfreeze(frozen);
      throw e;
    }
  }

  void unfreeze(UploadRow u) {
    Mutation m = Bt.clear(Mutation.create(), Bt.DATA, COMPLETING);
    Bt.set(m, Bt.META, Bt.VERSION, Codec.version(u.version() + 2));
    s.bt.cas(s.objects, u.row(), u.version() + 1, m);
  }

  @Override
  public List<Part> doListParts(String bucket, String key, String uploadId, int after, int limit) {
    return liveUpload(bucket, key, uploadId).parts().tailMap(after, false).values().stream().limit(limit).toList();
  }

  @Override
  public void doRestoreUpload(String bucket, MultipartUpload upload, List<Part> parts) {
    writeUpload(() -> uploadRow(s.bucket(bucket), upload.key(), upload.uploadId()), u -> {
      Usage delta = MultipartRules.restore(parts).usageDelta();
      if (u.upload() != null) {
        // the upload was there: only its parts' bytes change
        delta = delta.minus(MultipartRules.restore(u.parts().values()).usageDelta());
      }
      Mutation m = Mutation.create();
      Bt.set(m, Bt.DATA, UPLOAD, Codec.bytes(Codec.upload(upload)));
      Bt.clear(m, Bt.DATA, COMPLETING);
      java.util.Set<Integer> kept = new java.util.HashSet<>();
      for (Part p : parts) {
        Part stored = p.lastModified() == null ? p.withLastModified(upload.initiated()) : p;
        kept.add(p.partNumber());
        Bt.set(m, Bt.DATA, Rows.partColumn(p.partNumber()), Codec.bytes(Codec.part(stored)));
      }
      for (Integer old : u.parts().keySet()) {
        if (!kept.contains(old)) {
          Bt.clear(m, Bt.DATA, Rows.partColumn(old));
        }
      }
      return new UploadWrite<Void>(upload, new UploadChange(delta, List.of()), m, false, null);
    });
  }
}
