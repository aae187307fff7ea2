package io.objectmeta.mongo;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.model.Filters;
import io.objectmeta.conformance.CrashKit;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.bson.BsonDocument;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * A process that dies between the steps of a multi-step write ({@link CrashKit}: stopped after
 * each step, another process reads, lists and repairs, the state settles exactly), in every
 * layout and key format; nothing left behind means no placeholder, intent or held record.
 */
class MongoCrashTest {

  /** The protocol each write follows here. */
  private static final Map<String, Consumer<List<String>>> STEPS = Map.of(
      "versioned put", s -> assertThat(s).contains("put version", "put master", "clear"),
      "delete of the latest version", s -> assertThat(s).as("the PHD protocol")
          .containsSubsequence("placeholder", "mark deleted", "repair master", "delete",
              "gc records", "clear", "release gc records"));

  private static CrashKit<MongoMetadataStore> kit(String layout, String format) {
    MongoFixture fixture = new MongoFixture(layout, format);
    return new CrashKit<>(new CrashKit.Subject<>(fixture::openStore,
        crashed -> new MongoMetadataStore(MongoFixture.client(), false, crashed.config()),
        MongoMetadataStore::setStepHook, s -> s.repair(Duration.ZERO),
        MongoCrashTest::assertNothingLeft, fixture::close, "release gc records"));
  }

  private static void assertNothingLeft(MongoMetadataStore store, String where) {
    for (String c : store.database().listCollectionNames()) {
      for (BsonDocument d : store.database().getCollection(c, BsonDocument.class)
          .find(Filters.or(Filters.exists("phd"), Filters.exists("i"), Filters.exists("h")))) {
        throw new AssertionError(where + ": left behind in " + c + ": " + d.toJson());
      }
    }
  }

  @TestFactory
  Stream<DynamicContainer> everyWriteStoppedAfterAnyStepConverges() {
    return Stream.of(new String[] {"collection-per-bucket", "v1"},
        new String[] {"collection-per-bucket", "v0"}, new String[] {"shared", "v1"},
        new String[] {"shared", "v0"}).map(c -> {
          CrashKit<MongoMetadataStore> kit = kit(c[0], c[1]);
          return DynamicContainer.dynamicContainer(c[0] + " " + c[1],
              CrashKit.scenarios().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
                List<String> steps = kit.crashAfterEachStep(s);
                STEPS.getOrDefault(s.name(), x -> {}).accept(steps);
              })));
        });
  }
}
