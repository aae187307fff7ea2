package io.objectmeta.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.ReplaceOptions;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.spi.SweepingScratchSpace;
import java.time.Instant;
import java.util.Date;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bson.Document;

/**
 * Throw-away databases on the server of a store URI: {@code <database>_s<run>_<n>}, one per
 * {@link #open()}, and the run's lease in {@code <database>_s<run>_lease}; all dropped on
 * {@link #close()}, or by the next run if this one was killed ({@link SweepingScratchSpace}). The
 * stores share this space's client.
 */
final class MongoScratchSpace extends SweepingScratchSpace.Leased {
  private final MongoClient client;
  private final MongoConfig config;
  private final String stem;
  private final Pattern names;

  MongoScratchSpace(MongoClient client, MongoConfig config) {
    this.client = client;
    this.config = config;
    String db = config.database();
    this.stem = (db.length() > 40 ? db.substring(0, 40) : db) + "_s";
    this.names = Pattern.compile(Pattern.quote(stem) + "(" + RUN_ID.pattern() + ")_(\\d+|lease)");
  }

  @Override
  public String describe() {
    return "scratch databases " + stem + run() + "_* (" + config.layout().text + ")";
  }

  @Override
  protected MetadataStore openNamespace(int n) {
    return new MongoMetadataStore(client, false, config.withDatabase(stem + run() + "_" + n));
  }

  @Override
  protected Set<String> runs() {
    Set<String> runs = new TreeSet<>();
    for (String db : client.listDatabaseNames()) {
      Matcher m = names.matcher(db);
      if (m.matches()) {
        runs.add(m.group(1));
      }
    }
    return runs;
  }

  private com.mongodb.client.MongoCollection<Document> leaseOf(String run) {
    return client.getDatabase(stem + run + "_lease").getCollection("lease");
  }

  @Override
  protected Optional<Instant> lease(String run) {
    Document d = leaseOf(run).find(Filters.eq("_id", "lease")).first();
    return d == null ? Optional.empty() : Optional.of(d.getDate("until").toInstant());
  }

  @Override
  protected void writeLease(Instant until) {
    leaseOf(run()).replaceOne(Filters.eq("_id", "lease"),
        new Document("_id", "lease").append("until", Date.from(until)),
        new ReplaceOptions().upsert(true));
  }

  @Override
  protected void remove(String run) {
    String lease = null;
    for (String db : client.listDatabaseNames()) {
      Matcher m = names.matcher(db);
      if (m.matches() && m.group(1).equals(run)) {
        if (m.group(2).equals("lease")) {
          lease = db;
        } else {
          client.getDatabase(db).drop();
        }
      }
    }
    if (lease != null) {
      client.getDatabase(lease).drop();
    }
  }

  @Override
  protected void release() {
    client.close();
  }
}
