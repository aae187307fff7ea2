package io.objectmeta.api.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.api.gc.GarbageClaim;
import io.objectmeta.api.gc.GarbagePage;
import io.objectmeta.api.gc.GcQueueStats;
import io.objectmeta.api.listing.Cursor;
import io.objectmeta.api.model.Bucket;
import io.objectmeta.api.model.DeleteResult;
import io.objectmeta.api.model.MultipartUpload;
import io.objectmeta.api.model.ObjectVersion;
import io.objectmeta.api.model.Part;
import io.objectmeta.api.model.StoreUsage;
import io.objectmeta.api.model.VersioningState;
import io.objectmeta.api.version.VersionIdGenerator;
import java.time.Instant;
import java.util.Map;
import io.objectmeta.api.model.Usage;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Every primitive a composed store hands on reaches the part of its concern, with its arguments
 * as given, and returns what the part returned.
 */
class ComposedMetadataStoreTest {

  /** A call a part received. */
  private record Call(Class<?> part, String method, List<Object> args) {}

  private final List<Call> calls = new ArrayList<>();

  /** A distinct answer of each type a part returns. */
  private static final Map<Class<?>, Object> ANSWERS = Map.of(
      Bucket.class, new Bucket("b", "id", "o", Instant.EPOCH, VersioningState.UNVERSIONED, null),
      ObjectVersion.class, new ObjectVersion("k", new VersionIdGenerator().next(), false, true,
          true, null),
      DeleteResult.class, new DeleteResult("k", null, false),
      MultipartUpload.class, new MultipartUpload("k", "u", Instant.EPOCH, null),
      Part.class, new Part(1, 1, "e", Instant.EPOCH, List.of()),
      GarbageClaim.class, new GarbageClaim("c", Instant.EPOCH, List.of()),
      GcQueueStats.class, new GcQueueStats(1, 2, null, 3),
      GarbagePage.class, new GarbagePage(List.of(), false, null),
      List.class, List.of("answer"),
      Cursor.class, Proxy.newProxyInstance(Cursor.class.getClassLoader(),
          new Class<?>[] {Cursor.class}, (p, m, a) -> null));

  @SuppressWarnings("unchecked")
  private <T> T part(Class<T> type) {
    return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
        (proxy, m, args) -> {
          calls.add(new Call(type, m.getName(), args == null ? List.of() : Arrays.asList(args)));
          return m.getReturnType() == int.class ? 7 : ANSWERS.get(m.getReturnType());
        });
  }

  private final class Store extends ComposedMetadataStore {
    Store() {
      parts(part(Buckets.class), part(Keys.class), part(Uploads.class), part(Scans.class),
          part(GcQueue.class));
    }

    @Override
    protected Usage doBucketUsage(String bucket) {
      return Usage.ZERO;
    }

    @Override
    public UUID getUUID() {
      return UUID.randomUUID();
    }

    @Override
    public StoreUsage usage() {
      return null;
    }

    @Override
    public void close() {}
  }

  private static Object dummy(Class<?> type, int i) {
    if (type == int.class) {
      return 40 + i;
    }
    if (type == String.class) {
      return "arg" + i;
    }
    return null;
  }

  @Test
  void everyPrimitiveReachesThePartOfItsConcernWithItsArgumentsAndAnswer() throws Exception {
    Store store = new Store();
    List<Class<?>> parts = List.of(ComposedMetadataStore.Buckets.class,
        ComposedMetadataStore.Keys.class, ComposedMetadataStore.Uploads.class,
        ComposedMetadataStore.Scans.class, ComposedMetadataStore.GcQueue.class);
    int checked = 0;
    for (Class<?> part : parts) {
      for (Method wanted : part.getMethods()) {
        Method handed = ComposedMetadataStore.class.getDeclaredMethod(wanted.getName(),
            wanted.getParameterTypes());
        assertThat(Modifier.isAbstract(handed.getModifiers())).isFalse();
        handed.setAccessible(true);
        Object[] args = new Object[wanted.getParameterCount()];
        for (int i = 0; i < args.length; i++) {
          args[i] = dummy(wanted.getParameterTypes()[i], i);
        }
        calls.clear();
        Object got;
        try {
          got = handed.invoke(store, args);
        } catch (InvocationTargetException e) {
          throw new AssertionError(wanted.toString(), e.getCause());
        }
        assertThat(calls).as(wanted.toString())
            .containsExactly(new Call(part, wanted.getName(), Arrays.asList(args)));
        if (wanted.getReturnType() == int.class) {
          assertThat(got).as(wanted.toString()).isEqualTo(7);
        } else if (wanted.getReturnType() != void.class) {
          assertThat(got).as(wanted.toString()).isNotNull()
              .isSameAs(ANSWERS.get(wanted.getReturnType()));
        }
        checked++;
      }
    }
    assertThat(checked).isEqualTo(6 + 7 + 6 + 3 + 7);
  }
}
