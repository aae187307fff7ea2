package io.objectmeta.api.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import org.junit.jupiter.api.Test;

/** JSON is read as written: nothing after the document, no field twice, no guessed numbers. */
class JsonStrictnessTest {

  private static ObjectMetadata read(String json) throws JsonProcessingException {
    return Json.MAPPER.readValue(json, ObjectMetadata.class);
  }

  @Test
  void aWellFormedDocumentReads() throws Exception {
    assertThat(read("{\"size\": 5, \"etag\": \"e\"}").size()).isEqualTo(5);
  }

  @Test
  void anythingElseIsRefusedNotGuessedAt() {
    assertThatThrownBy(() -> read("{\"size\": 5} trailing")).isInstanceOf(JsonProcessingException.class);
    assertThatThrownBy(() -> read("{\"size\": 5}{\"size\": 6}")).isInstanceOf(JsonProcessingException.class);
    assertThatThrownBy(() -> read("{\"size\": 1.5}")).isInstanceOf(JsonProcessingException.class);
    assertThatThrownBy(() -> read("{\"size\": \"5\"}")).isInstanceOf(JsonProcessingException.class);
    assertThatThrownBy(() -> read("{\"size\": null}")).isInstanceOf(JsonProcessingException.class);
    assertThatThrownBy(() -> read("{\"size\": 5, \"size\": 6}"))
        .isInstanceOf(JsonProcessingException.class).hasMessageContaining("Duplicate field");
    assertThatThrownBy(() -> read("{\"size\": 5, \"sise\": 6}")).isInstanceOf(JsonProcessingException.class);
    assertThatThrownBy(() -> Json.object("{\"a\": 1} x")).isInstanceOf(IllegalArgumentException.class);
  }
}
