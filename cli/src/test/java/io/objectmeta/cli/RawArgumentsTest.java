package io.objectmeta.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RawArgumentsTest {

  /** argv as /proc/self/cmdline has it: each entry NUL-terminated. */
  private static byte[] cmdline(byte[]... entries) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] e : entries) {
      out.writeBytes(e);
      out.write(0);
    }
    return out.toByteArray();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void theArgumentsAreReadAsUtf8WhateverTheJvmMadeOfThem() throws Exception {
    // Under a C locale the JVM hands "caf??" to main; the bytes say "café".
    byte[] raw = cmdline(utf8("java"), utf8("-jar"), utf8("objectmeta.jar"), utf8("put"),
        utf8("photos"), utf8("café/日本.txt"));
    assertThat(RawArguments.decode(raw, new String[] {"put", "photos", "caf??/??.txt"}))
        .hasValueSatisfying(a -> assertThat(a).containsExactly("put", "photos", "café/日本.txt"));
  }

  @Test
  void anArgumentThatIsNotUtf8IsRefusedNamingItsPosition() {
    byte[] raw = cmdline(utf8("java"), utf8("put"), utf8("photos"),
        new byte[] {'a', (byte) 0xff, 'b'});
    assertThatThrownBy(() -> RawArguments.decode(raw, new String[] {"put", "photos", "a\uFFFDb"}))
        .isInstanceOf(RawArguments.NotUtf8Exception.class)
        .hasMessageContaining("argument 3").hasMessageContaining("not valid UTF-8");
    // A surrogate encoded as UTF-8 bytes (CESU-8) is not UTF-8 either.
    byte[] cesu = cmdline(utf8("java"), new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80});
    assertThatThrownBy(() -> RawArguments.decode(cesu, new String[] {"\uFFFD"}))
        .isInstanceOf(RawArguments.NotUtf8Exception.class).hasMessageContaining("argument 1");
  }

  @Test
  void aCommandLineThatDoesNotLineUpWithTheJvmsIsLeftAsTheJvmReadIt() throws Exception {
    byte[] raw = cmdline(utf8("java"), utf8("list"), utf8("photos"));
    assertThat(RawArguments.decode(raw, new String[] {"stats", "photos"})).isEmpty();
    assertThat(RawArguments.decode(raw, new String[] {"a", "b", "c", "d"})).isEmpty();
    assertThat(RawArguments.decode(raw, new String[0]))
        .hasValueSatisfying(a -> assertThat(a).isEmpty());
  }
}
