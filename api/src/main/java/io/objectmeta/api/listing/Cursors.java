package io.objectmeta.api.listing;

import io.objectmeta.api.model.NonCurrentVersion;
import io.objectmeta.api.model.ObjectVersion;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Cursors derived from the scans a backend supplies, so that each derived listing (as-of,
 * lifecycle, latest flags) is written once, here, for every backend.
 */
public final class Cursors {
  private Cursors() {}

  /**
   * A cursor over a sorted in-memory map's values, re-reading the map on each seek. Each map
   * value is a list of the key's entries in listing order.
   */
  public static <E> Cursor<E> ofMap(NavigableMap<String, ? extends List<? extends E>> map) {
    return new Cursor<>() {
      private Iterator<? extends List<? extends E>> keys = map.values().iterator();
      private Iterator<? extends E> entries = java.util.Collections.emptyIterator();

      @Override
      public E next() {
        while (!entries.hasNext()) {
          if (!keys.hasNext()) {
            return null;
          }
          entries = keys.next().iterator();
        }
        return entries.next();
      }

      @Override
      public void seek(String key) {
        keys = map.tailMap(key, true).values().iterator();
        entries = java.util.Collections.emptyIterator();
      }
    };
  }

  /**
   * A cursor over a sorted map whose values each hold a key's entries, read through
   * {@code entries} (which may return an empty list to hide a key). Iteration is as consistent as
   * the map's iterators (weakly consistent for a concurrent map).
   */
  public static <V, E> Cursor<E> ofMap(NavigableMap<String, V> map,
      Function<? super V, ? extends List<? extends E>> entries) {
    return new Cursor<>() {
      private Iterator<V> keys = map.values().iterator();
      private Iterator<? extends E> current = java.util.Collections.emptyIterator();

      @Override
      public E next() {
        while (!current.hasNext()) {
          if (!keys.hasNext()) {
            return null;
          }
          current = entries.apply(keys.next()).iterator();
        }
        return current.next();
      }

      @Override
      public void seek(String key) {
        keys = map.tailMap(key, true).values().iterator();
        current = java.util.Collections.emptyIterator();
      }
    };
  }

  /** Only the entries that pass {@code keep}. */
  public static <E> Cursor<E> filter(Cursor<E> in, Predicate<? super E> keep) {
    return new Cursor<>() {
      @Override
      public E next() {
        E e;
        do {
          e = in.next();
        } while (e != null && !keep.test(e));
        return e;
      }

      @Override
      public void expect(int entries) {
        in.expect(entries);
      }

      @Override
      public void seek(String key) {
        in.seek(key);
      }

      @Override
      public void close() {
        in.close();
      }
    };
  }

  /**
   * Two scans in the same order as one: entries ordered by {@code order}, and an entry of
   * {@code second} equal (order 0) to one of {@code first} left out. For a store whose entries
   * live in two places for a while (a key format migration moving keys from one range to the
   * other), where an entry may be in either or, while it moves, in both.
   */
  public static <E> Cursor<E> union(Cursor<E> first, Cursor<E> second,
      java.util.Comparator<? super E> order) {
    return new Cursor<>() {
      private E a;
      private E b;
      private boolean primed;

      @Override
      public E next() {
        if (!primed) {
          a = first.next();
          b = second.next();
          primed = true;
        }
        if (a == null && b == null) {
          return null;
        }
        E out;
        int c = a == null ? 1 : b == null ? -1 : order.compare(a, b);
        if (c <= 0) {
          out = a;
          a = first.next();
          if (c == 0) {
            b = second.next();
          }
        } else {
          out = b;
          b = second.next();
        }
        return out;
      }

      @Override
      public void expect(int entries) {
        first.expect(entries);
        second.expect(entries);
      }

      @Override
      public void seek(String key) {
        first.seek(key);
        second.seek(key);
        primed = false;
      }

      @Override
      public void close() {
        try {
          first.close();
        } finally {
          second.close();
        }
      }
    };
  }

  /**
   * A version scan (keys ascending, versions of a key newest first) grouped per key: each call
   * hands the whole group of the next key to {@code pick}, which returns the entries to emit.
   * Groups are read whole; the seek of a group boundary is the key itself.
   */
  static <O> Cursor<O> perKey(Cursor<ObjectVersion> versions,
      Function<List<ObjectVersion>, List<O>> pick) {
    return new Cursor<>() {
      private ObjectVersion pending;
      private Iterator<O> out = java.util.Collections.emptyIterator();

      @Override
      public O next() {
        while (!out.hasNext()) {
          ObjectVersion first = pending != null ? pending : versions.next();
          pending = null;
          if (first == null) {
            return null;
          }
          List<ObjectVersion> group = new ArrayList<>();
          group.add(first);
          ObjectVersion v;
          while ((v = versions.next()) != null && v.key().equals(first.key())) {
            group.add(v);
          }
          pending = v;
          out = pick.apply(group).iterator();
        }
        return out.next();
      }

      @Override
      public void expect(int entries) {
        versions.expect(entries);
      }

      @Override
      public void seek(String key) {
        versions.seek(key);
        pending = null;
        out = java.util.Collections.emptyIterator();
      }

      @Override
      public void close() {
        versions.close();
      }
    };
  }

  /** The versions with {@code latest} set on the first (newest) version of each key. */
  public static Cursor<ObjectVersion> withLatestFlags(Cursor<ObjectVersion> versions) {
    return perKey(versions, group -> {
      List<ObjectVersion> out = new ArrayList<>(group.size());
      for (int i = 0; i < group.size(); i++) {
        out.add(group.get(i).withLatest(i == 0));
      }
      return out;
    });
  }

  /**
   * The current objects as of {@code asOf}: per key, the newest version written at or before that
   * instant, unless it is a delete marker. Versions removed for good since then are not seen.
   */
  public static Cursor<ObjectVersion> asOf(Cursor<ObjectVersion> versions, Instant asOf) {
    return perKey(versions, group -> {
      for (ObjectVersion v : group) {
        if (!v.lastModified().isAfter(asOf)) {
          return v.deleteMarker() ? List.of() : List.of(v.withLatest(true));
        }
      }
      return List.of();
    });
  }

  /**
   * The non-current versions (delete markers included) with the time each became non-current:
   * the last-modified of the next newer version of its key. With {@code before} set, only those
   * non-current since strictly before it.
   */
  public static Cursor<NonCurrentVersion> nonCurrent(Cursor<ObjectVersion> versions, Instant before) {
    return perKey(versions, group -> {
      List<NonCurrentVersion> out = new ArrayList<>();
      for (int i = 1; i < group.size(); i++) {
        Instant staleSince = group.get(i - 1).lastModified();
        if (before == null || staleSince.isBefore(before)) {
          out.add(new NonCurrentVersion(group.get(i).withLatest(false), staleSince));
        }
      }
      return out;
    });
  }

  /** Delete markers that are the latest and only version of their key. */
  public static Cursor<ObjectVersion> orphanDeleteMarkers(Cursor<ObjectVersion> versions,
      Instant before) {
    return perKey(versions, group -> {
      ObjectVersion only = group.get(0);
      boolean orphan = group.size() == 1 && only.deleteMarker()
          && (before == null || only.lastModified().isBefore(before));
      return orphan ? List.of(only.withLatest(true)) : List.of();
    });
  }
}
