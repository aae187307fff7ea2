package io.objectmeta.cli.embedded;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** Each test gets a {@link Launcher} with a home of its own; a server it leaves is stopped. */
public abstract class LauncherTestBase {
  @TempDir
  protected Path dir;

  protected Launcher launcher;

  @BeforeEach
  void launcher() {
    launcher = new Launcher(dir);
  }

  @AfterEach
  void stopLeftovers() throws Exception {
    launcher.close();
  }
}
