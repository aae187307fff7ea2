package io.objectmeta.cli.command;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.listing.BucketPage;
import io.objectmeta.api.listing.ListBucketsRequest;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/** Walks S3-style pages: one, or all of them (--all), each handed on as it arrives. */
final class Pages {
  private Pages() {}

  /**
   * Fetches {@code first}, hands the page on, and while {@code all} and {@code next} gives the
   * request of a following page (null when the last was not truncated), goes on.
   */
  static <Q, R> void walk(Q first, Function<Q, R> fetch, BiFunction<Q, R, Q> next, boolean all,
      Consumer<R> each) {
    Q request = first;
    while (true) {
      R page = fetch.apply(request);
      each.accept(page);
      Q following = next.apply(request, page);
      if (!all || following == null) {
        return;
      }
      request = following;
    }
  }

  /** Every page of a bucket listing, in name order. */
  static void buckets(MetadataStore store, ListBucketsRequest first, Consumer<BucketPage> each) {
    walk(first, store::listBuckets,
        (q, page) -> page.truncated() ? q.withMarker(page.nextMarker()) : null, true, each);
  }
}
