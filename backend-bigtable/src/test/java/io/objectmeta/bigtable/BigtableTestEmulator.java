package io.objectmeta.bigtable;

import com.google.cloud.bigtable.emulator.core.EmulatorController;
import java.net.URI;
import java.util.Map;

/**
 * Where the tests' Bigtable is: {@code OBJECTMETA_BIGTABLE_URI} (a {@code bigtable://} URI of a
 * real instance or an emulator, e.g. with {@code ?emulatorHost=localhost:8086}), else an
 * emulator at {@code BIGTABLE_EMULATOR_HOST}, else Google's emulator started once per test JVM
 * from the emulator-core artifact (no install, no Docker). It cannot fail quietly: a fixture
 * that cannot reach its Bigtable throws, and the tests fail.
 */
final class BigtableTestEmulator {
  private static EmulatorController emulator;
  private static String kind;

  private BigtableTestEmulator() {}

  /** The store URI of the tests' Bigtable (without a table prefix). */
  static synchronized URI uri() {
    String given = System.getenv("OBJECTMETA_BIGTABLE_URI");
    if (given != null && !given.isBlank()) {
      kind = "given instance";
      return URI.create(given);
    }
    String host = System.getenv("BIGTABLE_EMULATOR_HOST");
    if (host != null && !host.isBlank()) {
      kind = "emulator at " + host;
      return URI.create("bigtable://test-project/test-instance?emulatorHost=" + host);
    }
    if (emulator == null) {
      try {
        EmulatorController e = EmulatorController.createBundled();
        e.start();
        emulator = e;
        Runtime.getRuntime().addShutdownHook(new Thread(e::stop));
      } catch (Exception e) {
        throw new IllegalStateException("the Bigtable emulator bundled in"
            + " google-cloud-bigtable-emulator-core did not start (set OBJECTMETA_BIGTABLE_URI or"
            + " BIGTABLE_EMULATOR_HOST to use another): " + e, e);
      }
      kind = "emulator on port " + emulator.getPort();
    }
    return URI.create("bigtable://test-project/test-instance?emulatorHost=localhost:"
        + emulator.getPort());
  }

  static synchronized String kind() {
    uri();
    return kind;
  }

  static BigtableConfig config(String tablePrefix, Map<String, String> more) {
    Map<String, String> props = new java.util.HashMap<>(more);
    props.put("tablePrefix", tablePrefix);
    return BigtableConfig.from(uri(), props);
  }
}
