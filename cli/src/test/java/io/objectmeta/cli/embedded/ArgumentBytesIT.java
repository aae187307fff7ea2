package io.objectmeta.cli.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.cli.ExitCode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Keys on the command line are bytes: the real script, given bytes a Java caller cannot pass. */
class ArgumentBytesIT extends LauncherTestBase {

  /** Runs {@code script} in bash from the repository root; returns exit code, stdout, stderr. */
  private String[] bash(String script, String locale) throws Exception {
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(Launcher.ROOT.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().remove("OBJECTMETA_STORE");
    pb.environment().put("OBJECTMETA_HOME", launcher.home().toString());
    pb.environment().put("LC_ALL", locale);
    pb.environment().put("LANG", locale);
    Process p = pb.start();
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).as("finished in two minutes").isTrue();
    return new String[] {String.valueOf(p.exitValue()),
        Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8)};
  }

  @Test
  void aKeyThatIsNotUtf8IsRefusedAndAUtf8KeyIsKeptUnderACLocale() throws Exception {
    String[] made = bash("./objectmeta -q bucket create photos", "C.UTF-8");
    assertThat(made[0]).as(made[2]).isEqualTo("0");

    // 0xff is not UTF-8: once it became U+FFFD, so "a\xffb" and "a\xfeb" named one key.
    String[] bad = bash("./objectmeta -q put photos $'a\\xffb' --size 1", "C.UTF-8");
    assertThat(bad[0]).isEqualTo(String.valueOf(ExitCode.USAGE));
    assertThat(bad[2]).contains("argument 4", "not valid UTF-8");

    // Under the C locale the JVM reads "café" as "caf??"; the key stored is still "café".
    String[] put = bash("./objectmeta -q put photos 'café/日本.txt' --size 1", "C");
    assertThat(put[0]).as(put[2]).isEqualTo("0");
    String[] list = bash("./objectmeta -q list photos --json", "C");
    assertThat(list[0]).as(list[2]).isEqualTo("0");
    assertThat(list[1]).contains("\"café/日本.txt\"").doesNotContain("\"a");
  }
}
