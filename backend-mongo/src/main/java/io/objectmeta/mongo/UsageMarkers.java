package io.objectmeta.mongo;

import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.bson.conversions.Bson;

/**
 * The applied-intent markers this process may remove from counter documents. A usage step sets
 * the marker of its intent (so a replay never counts twice); once the intent is cleared from its
 * lock nothing can replay it, and the marker is removed by the next usage step this process
 * makes on the same counter document (one update does both), or on close. A marker left by a
 * process that died stays, a few bytes, harmless.
 */
final class UsageMarkers {
  static final int PER_UPDATE = 16;
  private final Map<String, ConcurrentLinkedQueue<String>> done = new ConcurrentHashMap<>();

  private static String key(Namespace ns, String counterId) {
    return ns.collectionName() + "\n" + counterId;
  }

  /** Markers to remove in the next update of this counter document (taken: the caller owns them). */
  List<String> take(Namespace ns, String counterId) {
    ConcurrentLinkedQueue<String> q = done.get(key(ns, counterId));
    List<String> out = new ArrayList<>();
    if (q != null) {
      String t;
      while (out.size() < PER_UPDATE && (t = q.poll()) != null) {
        out.add(t);
      }
    }
    return out;
  }

  void putBack(Namespace ns, String counterId, List<String> tags) {
    if (!tags.isEmpty()) {
      done.computeIfAbsent(key(ns, counterId), k -> new ConcurrentLinkedQueue<>()).addAll(tags);
    }
  }

  void done(Namespace ns, String counterId, String tag) {
    done.computeIfAbsent(key(ns, counterId), k -> new ConcurrentLinkedQueue<>()).add(tag);
  }

  static Bson unset(List<String> tags) {
    List<Bson> u = new ArrayList<>(tags.size());
    for (String t : tags) {
      u.add(Updates.unset("a." + t));
    }
    return Updates.combine(u);
  }

  /** Removes every marker still waiting (on close). */
  void flush(com.mongodb.client.MongoDatabase db) {
    for (Map.Entry<String, ConcurrentLinkedQueue<String>> e : done.entrySet()) {
      List<String> tags = new ArrayList<>(e.getValue());
      e.getValue().clear();
      if (tags.isEmpty()) {
        continue;
      }
      String[] k = e.getKey().split("\n", 2);
      try {
        db.getCollection(k[0]).updateOne(Filters.eq("_id", k[1]), unset(tags));
      } catch (RuntimeException ignored) {
        // a marker left behind is harmless
      }
    }
  }
}
