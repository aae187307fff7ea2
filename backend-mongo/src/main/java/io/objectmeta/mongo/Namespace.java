package io.objectmeta.mongo;

import com.mongodb.client.MongoCollection;
import org.bson.BsonDocument;

/**
 * Where one bucket incarnation's documents live: its own collection (collection-per-bucket) or
 * its id range of the shared collection, with the ids of its key format.
 */
record Namespace(String bucket, String bucketId, MongoCollection<BsonDocument> coll, Ids ids) {

  /** The same namespace, with the ids of another key format (a migrating bucket has keys in both). */
  Namespace withFormat(KeyFormat f) {
    return f == ids.format ? this : new Namespace(bucket, bucketId, coll, ids.withFormat(f));
  }

  String collectionName() {
    return coll.getNamespace().getCollectionName();
  }
}
