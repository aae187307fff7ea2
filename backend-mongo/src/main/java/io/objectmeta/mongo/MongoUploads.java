package io.objectmeta.mongo;

import static io.objectmeta.mongo.MongoMetadataStore.LIVE;
import static io.objectmeta.mongo.MongoMetadataStore.newTag;
import static io.objectmeta.mongo.MongoMetadataStore.shardOf;
import static io.objectmeta.mongo.MongoMetadataStore.unavailable;

import io.objectmeta.api.spi.IntentProtocol;
import com.mongodb.MongoException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
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
import io.objectmeta.api.version.VersionId;
import io.objectmeta.api.versioning.KeyWrites;
import io.objectmeta.api.versioning.MultipartRules;
import io.objectmeta.api.versioning.UploadChange;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.conversions.Bson;

/**
 * Multipart uploads on MongoDB: an upload document (the lock of its parts) and one document per
 * part, written through the shared {@link io.objectmeta.api.spi.IntentProtocol} with the changes
 * {@link io.objectmeta.api.versioning.MultipartRules} plans; a completion freezes the upload, then
 * writes the object as a key write that removes the upload in its intent.
 */
final class MongoUploads implements io.objectmeta.api.spi.ComposedMetadataStore.Uploads {
  private final MongoMetadataStore s;

  MongoUploads(MongoMetadataStore s) {
    this.s = s;
  }

  @Override
  public MultipartUpload doInitiateMultipartUpload(String bucket, String key,
      ObjectMetadata metadata) {
    return s.protocol.write("the upload", () -> new IntentProtocol.Attempt<MultipartUpload>() {
      final MongoMetadataStore.Row r = s.row(bucket);
      final Namespace ns = s.ns(r);
      final VersionId id = s.ids.next();
      final MultipartUpload u = MultipartUpload.initiate(key, id, metadata);
      final String uid = ns.ids().upload(key, u.uploadId());
      Intent intent;

      @Override
      public IntentProtocol.Commit commit() {
        intent = new Intent(newTag(), s.now().toEpochMilli(),
            Docs.usageDelta(MultipartRules.initiate().usageDelta()), shardOf(key), List.of(),
            List.of(), false);
        ns.coll().insertOne(new BsonDocument("_id", new BsonString(uid))
            .append("t", new BsonString("u")).append("s", new BsonInt64(1))
            .append("p", new BsonInt64(s.now().toEpochMilli())).append("i", intent.toBson())
            .append("at", new BsonString(u.initiated().toString()))
            .append("md", Docs.metadata(metadata)));
        return IntentProtocol.Commit.COMMITTED;
      }

      @Override
      public IntentProtocol.Applied apply(IntentProtocol.Waits waits) {
        return s.applyIntent(ns, uid, true, 1, intent, r, waits);
      }

      @Override
      public MultipartUpload result() {
        return u;
      }
    });
  }

  /** An upload's document with its parts (all, or from one part number). */
  private record UploadRead(Namespace ns, MongoMetadataStore.Row row, String id, BsonDocument doc,
      MultipartUpload upload, TreeMap<Integer, Part> parts) {}

  /** A live upload as it is now (pending intent and all); NoSuchUpload if there is none. */
  private UploadRead readUpload(String bucket, String key, String uploadId, Integer onlyPart) {
    MongoMetadataStore.Row r = s.row(bucket);
    Namespace ns = s.ns(r);
    String uid = ns.ids().upload(key, uploadId);
    // the upload (the lock of its parts) first, then the parts, as for keys: parts read after
    // it can only be newer, and a write in between fails this writer's compare-and-set
    BsonDocument doc = ns.coll().find(Filters.and(Filters.eq("_id", uid), LIVE)).first();
    TreeMap<Integer, Part> parts = new TreeMap<>();
    if (doc != null) {
      Bson which = onlyPart == null ? Filters.and(Filters.gt("_id", uid),
          Filters.lt("_id", Ids.partsEnd(uid))) : Filters.eq("_id", Ids.part(uid, onlyPart));
      for (BsonDocument d : ns.coll().find(Filters.and(which, LIVE))) {
        Part p = Docs.part(d);
        parts.put(p.partNumber(), p);
      }
    }
    if (doc == null || completing(doc)) {
      throw NoSuchUploadException.of(key, uploadId);
    }
    return new UploadRead(ns, r, uid, doc, Docs.upload(key, uploadId, doc), parts);
  }

  boolean completing(BsonDocument upload) {
    return upload.containsKey("cmp") && s.lease.held(upload.getInt64("cmp").getValue());
  }

  /** An attempt on a live upload as read: its pending intent is the upload document's. */
  private abstract class OnUpload<T> implements IntentProtocol.Attempt<T> {
    final UploadRead u;

    OnUpload(UploadRead u) {
      this.u = u;
    }

    @Override
    public long pendingSince() {
      return MongoMetadataStore.pendingSince(u.doc());
    }

    @Override
    public void rollForward() {
      s.rollForward(u.ns(), u.doc());
    }
  }

  /** What a write to an upload plans: its change (usage, parts freed), its steps, its answer. */
  private record UploadWrite<T>(UploadChange change, List<BsonDocument> ops, boolean drop,
      T result) {}

  /**
   * A write to a live upload through the shared protocol: its intent committed in the upload
   * document (compare-and-set on its sequence), then applied.
   */
  private <T> T writeUpload(String bucket, String key, String uploadId, Integer onlyPart,
      java.util.function.Function<UploadRead, UploadWrite<T>> plan) {
    return s.protocol.write("the upload", () -> new OnUpload<T>(
        readUpload(bucket, key, uploadId, onlyPart)) {
      Intent intent;
      long seq;
      UploadWrite<T> w;

      @Override
      public IntentProtocol.Commit commit() {
        w = plan.apply(u);
        String tag = newTag();
        List<BsonDocument> gcs = new ArrayList<>();
        for (GarbageRecord g : w.change().garbage(u.row().bucket(), u.upload(), s.now(),
            tag + ".")) {
          gcs.add(Docs.garbage(g));
        }
        intent = new Intent(tag, s.now().toEpochMilli(), Docs.usageDelta(w.change().usageDelta()),
            shardOf(u.upload().key()), w.ops(), gcs, w.drop());
        seq = s.commit(u.ns(), u.id(), "u", u.doc(), intent,
            u.row().format());
        return seq < 0 ? IntentProtocol.Commit.CONFLICT : IntentProtocol.Commit.COMMITTED;
      }

      @Override
      public IntentProtocol.Applied apply(IntentProtocol.Waits waits) {
        return s.applyIntent(u.ns(), u.id(), false, seq, intent, u.row(), waits);
      }

      @Override
      public T result() {
        return w.result();
      }
    });
  }

  @Override
  public Part doPutPart(String bucket, String key, String uploadId, Part part) {
    return writeUpload(bucket, key, uploadId, part.partNumber(), u -> {
      Part stored = part.withLastModified(s.now());
      return new UploadWrite<>(MultipartRules.putPart(u.parts().get(part.partNumber()), stored),
          List.of(Intent.put(Docs.part(Ids.part(u.id(), part.partNumber()), stored))), false,
          stored);
    });
  }

  @Override
  public void doAbortMultipartUpload(String bucket, String key, String uploadId) {
    writeUpload(bucket, key, uploadId, null, u -> new UploadWrite<>(
        MultipartRules.abort(u.parts()),
        List.of(Intent.deleteRange(Ids.part(u.id(), 0), Ids.partsEnd(u.id()))), true, null));
  }

  @Override
  public ObjectVersion doCompleteMultipartUpload(String bucket, String key, String uploadId,
      List<CompletedPart> parts) {
    // freeze the upload: parts and aborts now see it as gone, until the completion commits
    UploadRead frozen = s.protocol.write("the upload", () -> new OnUpload<UploadRead>(
        readUpload(bucket, key, uploadId, null)) {

      @Override
      public IntentProtocol.Commit commit() {
        long seq = u.doc().getInt64("s").getValue();
        // nothing to apply: a freeze is one compare-and-set
        return u.ns().coll().updateOne(Filters.and(Filters.eq("_id", u.id()),
            Filters.eq("s", seq), Filters.exists("i", false)), Updates.combine(
            Updates.set("s", seq + 1), Updates.set("cmp", s.now().toEpochMilli())))
            .getMatchedCount() == 1 ? IntentProtocol.Commit.NOTHING
            : IntentProtocol.Commit.CONFLICT;
      }

      @Override
      public UploadRead result() {
        return u;
      }
    });
    ObjectMetadata m;
    try {
      m = MultipartRules.complete(frozen.upload().metadata(), frozen.parts(), parts);
    } catch (MetadataException e) {
      unfreeze(frozen);
      throw e;
    }
    UploadChange change = MultipartRules.completion(frozen.parts(), parts);
    List<BsonDocument> garbage = new ArrayList<>();
    for (GarbageRecord g : change.garbage(frozen.row().bucket(), frozen.upload(), s.now(), "")) {
      garbage.add(Docs.garbage(g));
    }
    List<BsonDocument> ops = List.of(Intent.deleteRange(frozen.id(), Ids.partsEnd(frozen.id())));
    try {
      return s.keys.writeKey(bucket, key, false, null, false, (r, h) -> {
        if (!r.bucket().id().equals(frozen.row().bucket().id())) {
          throw NoSuchUploadException.of(key, uploadId);
        }
        return KeyWrites.put(h, r.bucket().versioning(), m, WriteCondition.none(), s.ids.next());
      }, r -> new MongoKeys.Extra(ops, garbage, change.usageDelta())).subject();
    } catch (MetadataException | MongoException e) {
      unfreeze(frozen);
      throw e;
    }
  }

  private void unfreeze(UploadRead u) {
    u.ns().coll().updateOne(Filters.and(Filters.eq("_id", u.id()),
        Filters.eq("s", u.doc().getInt64("s").getValue() + 1)), Updates.unset("cmp"));
  }

  @Override
  public List<Part> doListParts(String bucket, String key, String uploadId, int after, int limit) {
    MongoMetadataStore.Row r = s.row(bucket);
    Namespace ns = s.ns(r);
    String uid = ns.ids().upload(key, uploadId);
    BsonDocument doc = ns.coll().find(Filters.and(Filters.eq("_id", uid), LIVE)).first();
    if (doc == null || completing(doc)) {
      throw NoSuchUploadException.of(key, uploadId);
    }
    List<Part> out = new ArrayList<>();
    for (BsonDocument d : ns.coll().find(Filters.and(Filters.gt("_id", Ids.part(uid, after)),
        Filters.lt("_id", Ids.partsEnd(uid)), LIVE)).sort(Sorts.ascending("_id")).limit(limit)) {
      out.add(Docs.part(d));
    }
    return out;
  }

  @Override
  public void doRestoreUpload(String bucket, MultipartUpload upload, List<Part> parts) {
    s.protocol.write("the upload", () -> new IntentProtocol.Attempt<Void>() {
      final MongoMetadataStore.Row r = s.row(bucket);
      final Namespace ns = s.ns(r);
      final String uid = ns.ids().upload(upload.key(), upload.uploadId());
      final BsonDocument doc = ns.coll().find(Filters.and(Filters.eq("_id", uid), LIVE)).first();
      final List<Part> oldParts = new ArrayList<>();
      Intent intent;
      long seq;

      {
        for (BsonDocument d : ns.coll().find(Filters.and(Filters.gt("_id", uid),
            Filters.lt("_id", Ids.partsEnd(uid)), LIVE))) {
          oldParts.add(Docs.part(d));
        }
      }

      @Override
      public long pendingSince() {
        return MongoMetadataStore.pendingSince(doc);
      }

      @Override
      public void rollForward() {
        s.rollForward(ns, doc);
      }

      @Override
      public IntentProtocol.Commit commit() {
        Usage delta = MultipartRules.restore(parts).usageDelta();
        if (doc != null) {
          // the upload was there: only its parts' bytes change
          delta = delta.minus(MultipartRules.restore(oldParts).usageDelta());
        }
        // the parts it no longer has go, the others are written over (an intent never writes and
        // removes the same document: its removals run after all its writes)
        List<BsonDocument> ops = new ArrayList<>();
        Set<Integer> kept = new HashSet<>();
        for (Part p : parts) {
          Part stored = p.lastModified() == null ? p.withLastModified(upload.initiated()) : p;
          kept.add(p.partNumber());
          ops.add(Intent.put(Docs.part(Ids.part(uid, p.partNumber()), stored)));
        }
        for (Part old : oldParts) {
          if (!kept.contains(old.partNumber())) {
            ops.add(Intent.delete(Ids.part(uid, old.partNumber())));
          }
        }
        intent = new Intent(newTag(), s.now().toEpochMilli(), Docs.usageDelta(delta),
            shardOf(upload.key()), ops, List.of(), false);
        seq = doc == null ? 1 : doc.getInt64("s").getValue() + 1;
        BsonDocument content = new BsonDocument("_id", new BsonString(uid))
            .append("t", new BsonString("u")).append("s", new BsonInt64(seq))
            .append("p", new BsonInt64(s.now().toEpochMilli())).append("i", intent.toBson())
            .append("at", new BsonString(upload.initiated().toString()))
            .append("md", Docs.metadata(upload.metadata()));
        try {
          if (doc == null) {
            ns.coll().insertOne(content);
            return IntentProtocol.Commit.COMMITTED;
          }
          return ns.coll().replaceOne(Filters.and(Filters.eq("_id", uid),
              Filters.eq("s", seq - 1), Filters.exists("i", false)), content)
              .getMatchedCount() == 1 ? IntentProtocol.Commit.COMMITTED
              : IntentProtocol.Commit.CONFLICT;
        } catch (MongoWriteException e) {
          if (e.getError().getCode() == 11000) {
            return IntentProtocol.Commit.CONFLICT;
          }
          throw unavailable(e);
        }
      }

      @Override
      public IntentProtocol.Applied apply(IntentProtocol.Waits waits) {
        return s.applyIntent(ns, uid, doc == null, seq, intent, r, waits);
      }

      @Override
      public Void result() {
        return null;
      }
    });
  }
}
