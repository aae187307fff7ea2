package io.objectmeta.mongo;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

/**
 * The MongoDB the tests use, in this order: {@code MONGODB_URI} (a real server); a Testcontainers
 * MongoDB when a Docker engine is reachable; otherwise mongo-java-server in this JVM, which speaks
 * the wire protocol (no transactions, which this backend never uses). Tests that need a real
 * server carry the tag {@code real-mongodb} and are skipped, saying so, on the in-process one.
 */
final class MongoTestServer {
  private static String uri;
  private static String kind;

  private MongoTestServer() {}

  /** A connection string without database, e.g. {@code mongodb://127.0.0.1:27017/}. */
  static synchronized String uri() {
    if (uri != null) {
      return uri;
    }
    String env = System.getenv("MONGODB_URI");
    if (env != null && !env.isBlank()) {
      uri = env.endsWith("/") ? env : env + "/";
      kind = "MONGODB_URI";
      return uri;
    }
    if (org.testcontainers.DockerClientFactory.instance().isDockerAvailable()) {
      org.testcontainers.mongodb.MongoDBContainer c =
          new org.testcontainers.mongodb.MongoDBContainer("mongo:7.0");
      c.start();
      Runtime.getRuntime().addShutdownHook(new Thread(c::stop));
      uri = "mongodb://" + c.getHost() + ":" + c.getFirstMappedPort() + "/";
      kind = "testcontainers mongo:7.0";
      return uri;
    }
    MongoServer server = new MongoServer(new MemoryBackend());
    String s = server.bindAndGetConnectionString();
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
    uri = s.endsWith("/") ? s : s + "/";
    kind = "mongo-java-server (in-process)";
    return uri;
  }

  /** Which server {@link #uri()} is. */
  static synchronized String kind() {
    uri();
    return kind;
  }

  static boolean isReal() {
    return !kind().startsWith("mongo-java-server");
  }
}
