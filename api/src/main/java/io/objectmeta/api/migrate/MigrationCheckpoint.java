package io.objectmeta.api.migrate;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.objectmeta.api.model.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * Where a migration stands, written as JSON after each batch so that an interrupted run resumes
 * there. Buckets are copied one at a time in name order: every bucket up to {@code doneThrough}
 * is copied whole; {@code bucket} is being copied, its keys up to {@code keyMarker}, then its
 * uploads up to ({@code uploadKeyMarker}, {@code uploadIdMarker}). Then the GC queue up to
 * {@code garbageAfter}. Everything after a position is copied again on resume, which the restore
 * calls make harmless (they are idempotent).
 *
 * @param format the file format (1)
 * @param source the source store's UUID: a checkpoint resumes only a migration of that store
 * @param target the target store's UUID
 * @param phase KEYS or UPLOADS (copying buckets), GARBAGE, or DONE (copied; verification left)
 * @param doneThrough the last bucket copied whole (null: none yet)
 * @param bucket the bucket being copied (null: the next after {@code doneThrough})
 * @param keyMarker the last key of {@code bucket} restored (null: none yet)
 * @param uploadKeyMarker the key of the last upload of {@code bucket} restored
 * @param uploadIdMarker the id of that upload
 * @param garbageAfter the source's {@code listGarbage} cursor after the last GC records copied
 * @param copied what has been copied up to this position
 * @param started when the first run started (ISO-8601)
 * @param updated when this checkpoint was written (ISO-8601)
 */
public record MigrationCheckpoint(int format, UUID source, UUID target, MigrationPhase phase,
    String doneThrough, String bucket, String keyMarker, String uploadKeyMarker,
    String uploadIdMarker, String garbageAfter, MigrationCounts copied, String started,
    String updated) {

  static final int FORMAT = 1;

  public MigrationCheckpoint {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(phase, "phase");
    copied = copied == null ? MigrationCounts.ZERO : copied;
  }

  /** The position of a migration that has copied nothing yet. */
  static MigrationCheckpoint start(UUID source, UUID target) {
    String now = Instant.now().toString();
    return new MigrationCheckpoint(FORMAT, source, target, MigrationPhase.KEYS, null, null, null,
        null, null, null, MigrationCounts.ZERO, now, now);
  }

  /** Copying {@code name}, from its first key. */
  MigrationCheckpoint inBucket(String name) {
    return new MigrationCheckpoint(format, source, target, MigrationPhase.KEYS, doneThrough, name,
        null, null, null, null, copied, started, updated);
  }

  /** Keys of the bucket restored up to {@code key}, with what they added. */
  MigrationCheckpoint keysThrough(String key, MigrationCounts batch) {
    return new MigrationCheckpoint(format, source, target, MigrationPhase.KEYS, doneThrough, bucket,
        key, null, null, null, copied.plus(batch), started, updated);
  }

  /** The bucket's keys are copied; its uploads next. */
  MigrationCheckpoint uploads() {
    return new MigrationCheckpoint(format, source, target, MigrationPhase.UPLOADS, doneThrough,
        bucket, keyMarker, null, null, null, copied, started, updated);
  }

  /** Uploads of the bucket restored up to this one, with what they added. */
  MigrationCheckpoint uploadsThrough(String key, String uploadId, MigrationCounts batch) {
    return new MigrationCheckpoint(format, source, target, MigrationPhase.UPLOADS, doneThrough,
        bucket, keyMarker, key, uploadId, null, copied.plus(batch), started, updated);
  }

  /** The bucket is copied whole. */
  MigrationCheckpoint bucketDone(MigrationCounts batch) {
    return new MigrationCheckpoint(format, source, target, MigrationPhase.KEYS, bucket, null, null,
        null, null, null, copied.plus(batch), started, updated);
  }

  /** Every bucket is copied; the GC queue next. */
  MigrationCheckpoint garbage() {
    return new MigrationCheckpoint(format, source, target, MigrationPhase.GARBAGE, doneThrough, null,
        null, null, null, null, copied, started, updated);
  }

  /** GC records copied up to the cursor. */
  MigrationCheckpoint garbageThrough(String cursor, MigrationCounts batch) {
    return new MigrationCheckpoint(format, source, target, MigrationPhase.GARBAGE, doneThrough, null,
        null, null, null, cursor, copied.plus(batch), started, updated);
  }

  /** Everything is copied. */
  MigrationCheckpoint done() {
    return new MigrationCheckpoint(format, source, target, MigrationPhase.DONE, doneThrough, null,
        null, null, null, garbageAfter, copied, started, updated);
  }

  /** Reads a checkpoint file; null if there is none. */
  public static MigrationCheckpoint read(Path file) {
    try {
      MigrationCheckpoint c = Json.MAPPER.readValue(Files.readAllBytes(file), MigrationCheckpoint.class);
      if (c.format() != FORMAT) {
        throw new MigrationRefusedException("checkpoint " + file + " has format " + c.format()
            + ", this objectmeta reads format " + FORMAT);
      }
      return c;
    } catch (NoSuchFileException e) {
      return null;
    } catch (JsonProcessingException e) {
      throw new MigrationRefusedException("checkpoint " + file + " is not a migration checkpoint: "
          + e.getOriginalMessage());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read checkpoint " + file, e);
    }
  }

  /**
   * Writes this checkpoint to {@code file} atomically (a temporary file moved over it), so an
   * interruption leaves the previous checkpoint or this one, never half of one.
   */
  void write(Path file) {
    MigrationCheckpoint stamped = new MigrationCheckpoint(format, source, target, phase, doneThrough,
        bucket, keyMarker, uploadKeyMarker, uploadIdMarker, garbageAfter, copied, started,
        Instant.now().toString());
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      Files.write(tmp, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(stamped));
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write checkpoint " + file, e);
    }
  }
}
