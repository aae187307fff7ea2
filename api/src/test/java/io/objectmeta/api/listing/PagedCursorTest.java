package io.objectmeta.api.listing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The batched cursor the database backends list through, over a sorted set of keys. */
class PagedCursorTest {

  /** The queries the cursor sent: (from, after, limit). */
  private final List<String> queries = new ArrayList<>();

  private PagedCursor<String> cursor(TreeSet<String> keys, int first, int max) {
    return new PagedCursor<>(first, max) {
      @Override
      protected List<String> fetch(String from, String after, int limit) {
        queries.add(from + "|" + after + "|" + limit);
        return (after == null ? keys.tailSet(from, true) : keys.tailSet(after, false)).stream()
            .limit(limit).toList();
      }
    };
  }

  private static TreeSet<String> keys(int n) {
    TreeSet<String> keys = new TreeSet<>();
    for (int i = 0; i < n; i++) {
      keys.add(String.format("k%03d", i));
    }
    return keys;
  }

  private static List<String> drain(Cursor<String> c) {
    List<String> out = new ArrayList<>();
    for (String e = c.next(); e != null; e = c.next()) {
      out.add(e);
    }
    return out;
  }

  @Test
  void readsEverythingInOrderInBatchesThatGrowFourfoldUpToTheMaximum() {
    PagedCursor<String> c = cursor(keys(100), 2, 32);
    assertThat(drain(c)).containsExactlyElementsOf(keys(100));
    assertThat(queries).containsExactly("|null|2", "|k001|8", "|k009|32", "|k041|32", "|k073|32");
    assertThat(c.next()).as("after the end").isNull();
    assertThat(queries).as("an exhausted cursor asks no more").hasSize(5);
  }

  @Test
  void aBatchThatFillsExactlyIsFollowedByAnEmptyQueryThatEndsIt() {
    PagedCursor<String> c = cursor(keys(2), 2, 32);
    assertThat(drain(c)).containsExactly("k000", "k001");
    assertThat(queries).containsExactly("|null|2", "|k001|8");
  }

  @Test
  void aSeekDropsWhatItHoldsAndStartsAgainFromTheKeyWithTheFirstBatchSize() {
    PagedCursor<String> c = cursor(keys(100), 2, 32);
    assertThat(c.next()).isEqualTo("k000");
    assertThat(c.next()).isEqualTo("k001");
    assertThat(c.next()).isEqualTo("k002");
    c.seek("k050");
    assertThat(c.next()).isEqualTo("k050");
    assertThat(queries.get(queries.size() - 1)).isEqualTo("k050|null|2");
    c.seek("k0995");
    assertThat(c.next()).as("nothing at or after the key").isNull();
    c.seek("k098");
    assertThat(drain(c)).containsExactly("k098", "k099");
  }

  @Test
  void anExpectedCountSetsTheBatchAfterTheNextSeekOnly() {
    PagedCursor<String> c = cursor(keys(100), 2, 32);
    c.expect(10);
    c.seek("k010");
    assertThat(c.next()).isEqualTo("k010");
    assertThat(queries).containsExactly("k010|null|10");
    c.expect(500);
    c.seek("k020");
    c.next();
    assertThat(queries.get(1)).as("capped at the maximum").isEqualTo("k020|null|32");
    c.seek("k030");
    c.next();
    assertThat(queries.get(2)).as("the expectation was used up").isEqualTo("k030|null|2");
  }
}
