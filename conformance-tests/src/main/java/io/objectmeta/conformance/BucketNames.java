package io.objectmeta.conformance;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/** Unique, valid bucket names: one per call, distinct across runs against a persistent store. */
public final class BucketNames {
  private BucketNames() {}

  private static final String RUN = Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36 * 36 * 36), 36);
  private static final AtomicInteger NEXT = new AtomicInteger();

  /** A fresh name such as {@code cf-3k9a-17}. */
  public static String next() {
    return "cf-" + RUN + "-" + NEXT.incrementAndGet();
  }
}
