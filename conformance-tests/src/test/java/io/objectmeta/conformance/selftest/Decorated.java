package io.objectmeta.conformance.selftest;

import io.objectmeta.api.MetadataStore;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;

/** A store that behaves like another except for the calls a test overrides, by method name. */
final class Decorated {
  private Decorated() {}

  /** An override: receives the real store and the arguments. */
  interface Override {
    Object call(MetadataStore real, Object[] args) throws Throwable;
  }

  static MetadataStore store(MetadataStore real, Map<String, Override> overrides) {
    InvocationHandler h = (proxy, method, args) -> {
      Object[] a = args == null ? new Object[0] : args;
      Override o = overrides.get(method.getName() + "/" + a.length);
      if (o == null) {
        o = overrides.get(method.getName());
      }
      if (o != null && !method.isDefault()) {
        return o.call(real, a);
      }
      if (method.isDefault()) {
        return InvocationHandler.invokeDefault(proxy, method, args);
      }
      return invoke(real, method, a);
    };
    return (MetadataStore) Proxy.newProxyInstance(MetadataStore.class.getClassLoader(),
        new Class<?>[] {MetadataStore.class}, h);
  }

  static Object invoke(MetadataStore real, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(real, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
