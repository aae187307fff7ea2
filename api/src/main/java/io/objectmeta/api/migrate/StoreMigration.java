package io.objectmeta.api.migrate;

import io.objectmeta.api.Capability;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.error.NoSuchBucketException;
import io.objectmeta.api.gc.GarbagePage;
import io.objectmeta.api.gc.GarbageRecord;
import io.objectmeta.api.listing.BucketPage;
import io.objectmeta.api.listing.ListBucketsRequest;
import io.objectmeta.api.listing.ListUploadsRequest;
import io.objectmeta.api.listing.ListUploadsResult;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Part;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies one store into another through the SPI, whatever the two backends: every bucket
 * (restored with its id, owner, creation time, versioning state and attributes), then each of
 * its keys with its whole history (versions, null versions, delete markers, metadata and version
 * ids as they are), then its in-progress uploads with their parts; after every bucket, the GC
 * queue. Then it verifies the copy ({@link StoreVerification}).
 *
 * <p><b>Memory.</b> Everything streams: a bucket's versions are read one listing page at a time
 * and grouped by key across page boundaries, so a run holds one page ({@code batchSize}
 * entries) and one key's history (however many versions that key has), never a bucket. Uploads
 * hold one page of uploads and one upload's parts (at most 10000); the GC queue one page.
 *
 * <p><b>Resuming.</b> With a checkpoint file, the position is written after each batch (about
 * {@code batchSize} versions, one page of uploads or of GC records), atomically. A run that is
 * interrupted (a failure, a kill, {@link #stop()}) is resumed by running again with the same
 * file: it continues after the last batch written, redoing at most that batch, which the
 * restore calls make harmless (they are idempotent). A run without a checkpoint file starts
 * over and refuses a target that holds buckets of the source.
 *
 * <p><b>Who retries.</b> Nothing here retries: the first failure of either store ends the run
 * (the checkpoint stays at the last finished batch) and propagates. Run again to resume.
 *
 * <p>The source should be quiescent (no writes, no GC) while it is copied and verified: a write
 * during the run may or may not be copied, and shows as a difference in the verification.
 */
public final class StoreMigration {
  private static final Logger LOG = LoggerFactory.getLogger(StoreMigration.class);

  private final MetadataStore source;
  private final MetadataStore target;
  private final Path checkpointFile;
  private final int batchSize;
  private final boolean verify;
  private final Consumer<MigrationProgress> progress;
  private final AtomicBoolean stopped = new AtomicBoolean();

  private MigrationCheckpoint position;
  private long startNanos;
  private long recordsAtStart;

  private StoreMigration(Builder b) {
    this.source = b.source;
    this.target = b.target;
    this.checkpointFile = b.checkpoint;
    this.batchSize = b.batchSize;
    this.verify = b.verify;
    this.progress = b.progress;
  }

  public static Builder builder(MetadataStore source, MetadataStore target) {
    return new Builder(source, target);
  }

  /**
   * Compares two stores without copying: {@link StoreVerification#compare} with this
   * migration's default page size.
   */
  public static VerificationReport verify(MetadataStore source, MetadataStore target) {
    return StoreVerification.compare(source, target);
  }

  /**
   * Asks the run to stop after its current batch, with the checkpoint written; safe from any
   * thread (a signal handler's, say). {@link #run()} then returns, not finished.
   */
  public void stop() {
    stopped.set(true);
  }

  /**
   * Copies what is left to copy, then verifies.
   *
   * @throws MigrationRefusedException the target holds buckets of the source and there is no
   *     checkpoint to resume; or the checkpoint is of a migration between other stores; or
   *     source and target are one store
   * @throws io.objectmeta.api.error.MetadataException a store failed (the checkpoint is at the
   *     last finished batch)
   */
  public MigrationReport run() {
    startNanos = System.nanoTime();
    UUID from = source.getUUID();
    UUID to = target.getUUID();
    if (from.equals(to)) {
      throw new MigrationRefusedException("source and target are the same store (" + from + ")");
    }
    MigrationCheckpoint found = checkpointFile == null ? null : MigrationCheckpoint.read(checkpointFile);
    if (found != null) {
      if (!found.source().equals(from) || !found.target().equals(to)) {
        throw new MigrationRefusedException("checkpoint " + checkpointFile + " is of a migration from"
            + " store " + found.source() + " to store " + found.target() + ", not from " + from
            + " to " + to);
      }
      position = found;
      LOG.info("resuming the migration from {} to {} at {} (bucket {})", from, to, found.phase(),
          found.bucket());
    } else {
      refuseIfTargetHoldsSourceBuckets();
      position = MigrationCheckpoint.start(from, to);
      save();
    }
    recordsAtStart = position.copied().records();
    while (!stopped.get() && (position.phase() == MigrationPhase.KEYS
        || position.phase() == MigrationPhase.UPLOADS)) {
      copyNextBucket();
    }
    if (!stopped.get() && position.phase() == MigrationPhase.GARBAGE) {
      copyGarbage();
    }
    if (position.phase() != MigrationPhase.DONE) {
      LOG.info("migration stopped at {} (bucket {}); run again to resume", position.phase(),
          position.bucket());
      return report(found != null, false, null);
    }
    VerificationReport v = null;
    if (verify) {
      v = StoreVerification.compare(source, target, batchSize,
          bucket -> report(MigrationPhase.VERIFY, bucket));
    }
    report(MigrationPhase.DONE, null);
    return report(found != null, true, v);
  }

  private void refuseIfTargetHoldsSourceBuckets() {
    List<String> taken = new ArrayList<>();
    for (String marker = null; ; ) {
      BucketPage page = source.listBuckets(ListBucketsRequest.all().withMarker(marker));
      for (Bucket b : page.buckets()) {
        try {
          target.getBucket(b.name());
          taken.add(b.name());
        } catch (NoSuchBucketException e) {
          // free: as it should be
        }
      }
      if (!page.truncated() || taken.size() >= 10) {
        break;
      }
      marker = page.nextMarker();
    }
    if (!taken.isEmpty()) {
      throw new MigrationRefusedException("the target already holds bucket(s) " + taken + " of the"
          + " source; a migration starts into a target without them, or resumes with the checkpoint"
          + " file of its interrupted run");
    }
  }

  /** Copies the bucket in progress, or the next one; moves to the GC queue after the last. */
  private void copyNextBucket() {
    Bucket b;
    if (position.bucket() == null) {
      BucketPage page = source.listBuckets(ListBucketsRequest.all()
          .withMarker(position.doneThrough()).withMaxBuckets(1));
      if (page.buckets().isEmpty()) {
        position = position.garbage();
        save();
        return;
      }
      b = page.buckets().get(0);
      position = position.inBucket(b.name());
    } else {
      try {
        b = source.getBucket(position.bucket());
      } catch (NoSuchBucketException e) {
        LOG.warn("bucket {} left the source during the migration; skipped", position.bucket());
        position = position.bucketDone(MigrationCounts.ZERO);
        save();
        return;
      }
    }
    target.restoreBucket(b);
    if (position.phase() == MigrationPhase.KEYS) {
      copyKeys(b.name());
      if (stopped.get()) {
        return;
      }
      position = position.uploads();
      save();
    }
    if (source.capabilities().contains(Capability.MULTIPART_UPLOADS)) {
      copyUploads(b.name());
      if (stopped.get()) {
        return;
      }
    }
    position = position.bucketDone(new MigrationCounts(1, 0, 0, 0, 0, 0, 0));
    save();
    report(MigrationPhase.UPLOADS, b.name());
  }

  /** Restores each key's history; a checkpoint about every {@code batchSize} versions. */
  private void copyKeys(String bucket) {
    KeyHistories histories = new KeyHistories(source, bucket, position.keyMarker(), batchSize);
    MigrationCounts batch = MigrationCounts.ZERO;
    String last = null;
    for (List<ObjectVersion> h = histories.next(); h != null; h = histories.next()) {
      last = h.get(0).key();
      target.restoreKey(bucket, last, h);
      batch = batch.plus(MigrationCounts.key(h));
      if (batch.versions() + batch.deleteMarkers() >= batchSize) {
        position = position.keysThrough(last, batch);
        save();
        report(MigrationPhase.KEYS, bucket);
        batch = MigrationCounts.ZERO;
        if (stopped.get()) {
          return;
        }
      }
    }
    if (batch.keys() > 0) {
      position = position.keysThrough(last, batch);
      save();
      report(MigrationPhase.KEYS, bucket);
    }
  }

  /** Restores each upload with its parts; a checkpoint after each page of uploads. */
  private void copyUploads(String bucket) {
    ListUploadsRequest r = ListUploadsRequest.of(bucket).withMaxUploads(batchSize)
        .withKeyMarker(position.uploadKeyMarker()).withUploadIdMarker(position.uploadIdMarker());
    while (r != null) {
      ListUploadsResult page = source.listMultipartUploads(r);
      long uploads = 0;
      long parts = 0;
      MultipartUpload last = null;
      for (MultipartUpload u : page.uploads()) {
        List<Part> ps = BucketSummary.parts(source, bucket, u, batchSize);
        if (ps == null) {
          continue; // completed or aborted since it was listed
        }
        target.restoreUpload(bucket, u, ps);
        uploads++;
        parts += ps.size();
        last = u;
      }
      if (last != null) {
        position = position.uploadsThrough(last.key(), last.uploadId(),
            new MigrationCounts(0, 0, 0, 0, uploads, parts, 0));
        save();
        report(MigrationPhase.UPLOADS, bucket);
        if (stopped.get()) {
          return;
        }
      }
      r = page.truncated()
          ? r.withKeyMarker(page.nextKeyMarker()).withUploadIdMarker(page.nextUploadIdMarker())
          : null;
    }
  }

  /**
   * Copies the GC queue a page at a time. Each record's origin is the source store's UUID and
   * its id there, so records of two sources copied into one target never collide.
   */
  private void copyGarbage() {
    String prefix = position.source() + "/";
    String after = position.garbageAfter();
    while (true) {
      GarbagePage page = source.listGarbage(after, batchSize);
      if (!page.records().isEmpty()) {
        List<GarbageRecord> records = new ArrayList<>(page.records().size());
        for (GarbageRecord r : page.records()) {
          records.add(new GarbageRecord(prefix + r.id(), r.kind(), r.bucket(), r.bucketId(), r.key(),
              r.versionId(), r.partNumber(), r.size(), r.dataLocations(), r.deletedAt()));
        }
        target.restoreGarbage(records);
      }
      MigrationCounts batch = new MigrationCounts(0, 0, 0, 0, 0, 0, page.records().size());
      if (!page.truncated()) {
        position = position.garbageThrough(after, batch).done();
        save();
        report(MigrationPhase.GARBAGE, null);
        return;
      }
      after = page.next();
      position = position.garbageThrough(after, batch);
      save();
      report(MigrationPhase.GARBAGE, null);
      if (stopped.get()) {
        return;
      }
    }
  }

  private void save() {
    if (checkpointFile != null) {
      position.write(checkpointFile);
    }
  }

  private Duration elapsed() {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }

  private void report(MigrationPhase phase, String bucket) {
    Duration elapsed = elapsed();
    double seconds = Math.max(elapsed.toNanos() / 1e9, 1e-9);
    progress.accept(new MigrationProgress(phase, bucket, position.copied(),
        (position.copied().records() - recordsAtStart) / seconds, elapsed));
  }

  private MigrationReport report(boolean resumed, boolean finished, VerificationReport v) {
    return new MigrationReport(position.source(), position.target(), resumed, finished,
        position.copied(), elapsed(), v);
  }

  /** Configures a {@link StoreMigration}. */
  public static final class Builder {
    private final MetadataStore source;
    private final MetadataStore target;
    private Path checkpoint;
    private int batchSize = 1000;
    private boolean verify = true;
    private Consumer<MigrationProgress> progress = p -> {};

    private Builder(MetadataStore source, MetadataStore target) {
      this.source = Objects.requireNonNull(source, "source");
      this.target = Objects.requireNonNull(target, "target");
    }

    /**
     * The checkpoint file: written after each batch, read at start to resume (default none: a
     * run that is interrupted starts over, and then refuses the target it filled).
     */
    public Builder checkpoint(Path file) {
      checkpoint = file;
      return this;
    }

    /**
     * Entries per listing page and per batch between checkpoints: versions, uploads or GC
     * records, 1 to 1000 (default 1000). Memory grows with it; so does the work redone on resume.
     */
    public Builder batchSize(int v) {
      if (v < 1 || v > 1000) {
        throw new IllegalArgumentException("batchSize must be 1 to 1000: " + v);
      }
      batchSize = v;
      return this;
    }

    /** Whether to compare the stores after the copy (default true). */
    public Builder verify(boolean v) {
      verify = v;
      return this;
    }

    /** Called after each batch and each bucket verified. */
    public Builder progress(Consumer<MigrationProgress> v) {
      progress = Objects.requireNonNull(v, "progress");
      return this;
    }

    public StoreMigration build() {
      return new StoreMigration(this);
    }
  }
}
