package io.objectmeta.api.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigrationCheckpointTest {
  @TempDir
  Path dir;

  @Test
  void aCheckpointReadsBackAsWrittenKeysOfAnyCharacterIncluded() {
    Path file = dir.resolve("cp.json");
    MigrationCheckpoint c = MigrationCheckpoint.start(UUID.randomUUID(), UUID.randomUUID())
        .inBucket("photos").keysThrough("a\u0000b/\uD83D\uDE00\u00fc", new MigrationCounts(0, 2, 3, 1, 0, 0, 0));
    c.write(file);
    MigrationCheckpoint read = MigrationCheckpoint.read(file);
    assertThat(read.keyMarker()).isEqualTo("a\u0000b/\uD83D\uDE00\u00fc");
    assertThat(read.bucket()).isEqualTo("photos");
    assertThat(read.phase()).isEqualTo(MigrationPhase.KEYS);
    assertThat(read.copied()).isEqualTo(new MigrationCounts(0, 2, 3, 1, 0, 0, 0));
    assertThat(read.source()).isEqualTo(c.source());
    assertThat(read.updated()).isNotNull();
    assertThat(Files.exists(dir.resolve("cp.json.tmp"))).as("the temporary file was moved").isFalse();
  }

  @Test
  void positionsMoveThroughABucketAndOnToTheGcQueue() {
    MigrationCheckpoint c = MigrationCheckpoint.start(UUID.randomUUID(), UUID.randomUUID())
        .inBucket("a").keysThrough("k", new MigrationCounts(0, 1, 1, 0, 0, 0, 0)).uploads()
        .uploadsThrough("u", "id", new MigrationCounts(0, 0, 0, 0, 1, 2, 0));
    assertThat(c.phase()).isEqualTo(MigrationPhase.UPLOADS);
    MigrationCheckpoint done = c.bucketDone(new MigrationCounts(1, 0, 0, 0, 0, 0, 0));
    assertThat(done.doneThrough()).isEqualTo("a");
    assertThat(done.bucket()).isNull();
    assertThat(done.keyMarker()).isNull();
    assertThat(done.uploadKeyMarker()).isNull();
    assertThat(done.copied()).isEqualTo(new MigrationCounts(1, 1, 1, 0, 1, 2, 0));
    MigrationCheckpoint gc = done.garbage().garbageThrough("cursor", new MigrationCounts(0, 0, 0, 0, 0, 0, 4));
    assertThat(gc.phase()).isEqualTo(MigrationPhase.GARBAGE);
    assertThat(gc.garbageAfter()).isEqualTo("cursor");
    assertThat(gc.done().phase()).isEqualTo(MigrationPhase.DONE);
    assertThat(gc.done().copied().records()).isEqualTo(1 + 1 + 1 + 2 + 4);
  }

  @Test
  void noFileIsNoCheckpointAndAnotherFileIsRefused() throws Exception {
    assertThat(MigrationCheckpoint.read(dir.resolve("none.json"))).isNull();
    Path junk = dir.resolve("junk.json");
    Files.writeString(junk, "{\"hello\":");
    assertThatThrownBy(() -> MigrationCheckpoint.read(junk))
        .isInstanceOf(MigrationRefusedException.class).hasMessageContaining("not a migration checkpoint");
    Path future = dir.resolve("future.json");
    Files.writeString(future, "{\"format\":2,\"source\":\"" + UUID.randomUUID() + "\",\"target\":\""
        + UUID.randomUUID() + "\",\"phase\":\"KEYS\"}");
    assertThatThrownBy(() -> MigrationCheckpoint.read(future))
        .isInstanceOf(MigrationRefusedException.class).hasMessageContaining("format 2");
  }
}
