package io.objectmeta.conformance.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.MetadataStores;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.spi.ScratchSpace;
import io.objectmeta.memory.MemoryMetadataStore;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Discovery by URI through ServiceLoader, with the reference store on the class path. */
class MetadataStoresTest {

  @Test
  void aSchemeOpensTheBackendThatRegisteredItInAnyCase() {
    try (MetadataStore a = MetadataStores.open("memory:");
        MetadataStore b = MetadataStores.open("MEMORY:", Map.of())) {
      assertThat(a).isInstanceOf(MemoryMetadataStore.class);
      assertThat(b).isInstanceOf(MemoryMetadataStore.class).isNotSameAs(a);
      a.createBucket("only-in-a", "owner", null);
      assertThatThrownBy(() -> b.getBucket("only-in-a")).as("a private store each")
          .isInstanceOf(io.objectmeta.api.error.NoSuchBucketException.class);
    }
  }

  @Test
  void aNamedMemoryStoreIsSharedByEveryoneWhoOpensIt() {
    MetadataStore a = MetadataStores.open("memory:shared-by-name");
    MetadataStore b = MetadataStores.open("memory:shared-by-name");
    assertThat(b).isSameAs(a);
    assertThat(MetadataStores.open("memory:another-name")).isNotSameAs(a);
  }

  @Test
  void anUnknownMalformedOrMissingSchemeIsRefusedNamingTheUri() {
    assertThatThrownBy(() -> MetadataStores.open("nosuch://h/d"))
        .isInstanceOfSatisfying(InvalidArgumentException.class,
            e -> assertThat(e.field()).isEqualTo("uri"))
        .hasMessageContaining("no backend for scheme \"nosuch\"")
        .hasMessageContaining("memory");
    assertThatThrownBy(() -> MetadataStores.open("relative/path"))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("has no scheme");
    assertThatThrownBy(() -> MetadataStores.open("x://u:s3cret@h/ d"))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("not a URI")
        .hasMessageNotContaining("s3cret");
    assertThatThrownBy(() -> MetadataStores.open(null))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("not a URI");
  }

  @Test
  void aScratchSpaceOpensFreshStoresThatAreTheirOwnPeers() {
    try (ScratchSpace space = MetadataStores.scratch("memory:", Map.of())) {
      assertThat(space.describe()).startsWith("memory:");
      MetadataStore one = space.open();
      assertThat(space.open()).isNotSameAs(one);
      assertThat(space.openPeer(one)).containsSame(one);
    }
    assertThatThrownBy(() -> MetadataStores.scratch("nosuch:", Map.of()))
        .isInstanceOf(InvalidArgumentException.class);
  }
}
