package io.objectmeta.api.version;

import java.security.SecureRandom;
import java.util.function.LongSupplier;

/**
 * Mints {@link VersionId}s for one writer. Ids from one generator are strictly monotonic (each
 * newer than the last) even when the clock steps back: the generator never goes below the last
 * millisecond it used, counts up within it, and borrows the next millisecond when the counter
 * runs out. Ids from different generators differ by their random 48-bit writer id, so processes
 * need no coordination; backends still insert versions insert-only, so a collision would fail
 * loudly rather than overwrite.
 */
public final class VersionIdGenerator {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final LongSupplier clock;
  private final long writer;
  private long lastMillis = -1;
  private int counter;

  /** A generator on the system clock with a random writer id. */
  public VersionIdGenerator() {
    this(System::currentTimeMillis, RANDOM.nextLong() & VersionId.MAX_WRITER);
  }

  /** A generator with the given clock (epoch millis) and writer id (0 to 2^48-1). */
  public VersionIdGenerator(LongSupplier clock, long writer) {
    if (writer < 0 || writer > VersionId.MAX_WRITER) {
      throw new IllegalArgumentException("writer id must be in [0, 2^48-1]: " + writer);
    }
    this.clock = clock;
    this.writer = writer;
  }

  /** A generator that resumes after (lastMillis, counter), as if it had just minted that id. */
  VersionIdGenerator(LongSupplier clock, long writer, long lastMillis, int counter) {
    this(clock, writer);
    this.lastMillis = lastMillis;
    this.counter = counter;
  }

  public long writer() {
    return writer;
  }

  /** The next id, newer than every id this generator minted before. */
  public synchronized VersionId next() {
    long now = Math.min(Math.max(clock.getAsLong(), 0), VersionId.MAX_MILLIS);
    if (now > lastMillis) {
      lastMillis = now;
      counter = 0;
    } else if (counter < VersionId.MAX_COUNTER) {
      counter++;
    } else {
      lastMillis++;
      counter = 0;
    }
    return new VersionId(lastMillis, counter, writer);
  }
}
