package io.objectmeta.mongo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.mongodb.client.model.Filters;
import io.objectmeta.conformance.Sample;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonDocument;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What only a real MongoDB can show: secondary indexes and query plans (mongo-java-server accepts
 * index definitions and ignores them). Runs with {@code MONGODB_URI} or a Testcontainers MongoDB;
 * on the in-process server each test reports itself skipped, with that reason.
 */
@Tag("real-mongodb")
class MongoRealServerTest {

  @BeforeEach
  void needsARealServer() {
    assumeTrue(MongoTestServer.isReal(), "needs a real MongoDB (MONGODB_URI or Docker): "
        + MongoTestServer.kind() + " ignores secondary indexes");
  }

  @Test
  void aBucketCollectionHasItsIdAndRepairQueueIndexesOnly() {
    MongoMetadataStore s = new MongoFixture("collection-per-bucket", "v1").openStore();
    try {
      s.createBucket("indexed", "owner", null);
      s.putObject("indexed", "k", Sample.object("k"));
      Namespace ns = s.ns(s.getBucket("indexed"), KeyFormat.V1);
      List<String> names = new ArrayList<>();
      for (BsonDocument i : ns.coll().listIndexes(BsonDocument.class)) {
        names.add(i.getDocument("key").toJson() + (i.getBoolean("sparse",
            org.bson.BsonBoolean.FALSE).getValue() ? " sparse" : ""));
      }
      assertThat(names).containsExactlyInAnyOrder("{\"_id\": 1}", "{\"p\": 1} sparse");
    } finally {
      s.close();
      s.database().drop();
    }
  }

  @Test
  void theRepairQueryUsesThePendingIndex() {
    MongoMetadataStore s = new MongoFixture("shared", "v1").openStore();
    try {
      s.createBucket("plans", "owner", null);
      BsonDocument plan = s.database().getCollection(MongoMetadataStore.SHARED, BsonDocument.class)
          .find(Filters.lte("p", System.currentTimeMillis())).explain(BsonDocument.class);
      assertThat(plan.toJson()).contains("IXSCAN").contains("\"p\"");
    } finally {
      s.close();
      s.database().drop();
    }
  }
}
