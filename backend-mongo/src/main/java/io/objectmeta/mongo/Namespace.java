package io.objectmeta.mongo;

import com.mongodb.client.MongoCollection;
import org.bson.BsonDocument;

/**
 * Where one bucket incarnation's documents live: its own collection (collection-per-bucket) or
 * its id range of the shared collection, with the ids of its key format.
 */
record Namespace(String bucket, String bucketId, MongoCollection<BsonDocument> coll, Ids ids) {

  String collectionName() {
    return coll.getNamespace().getCollectionName();
  }
}
