package io.objectmeta.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The command line as the OS handed it over, read as UTF-8. The JVM decodes {@code argv} with the
 * locale's charset and replaces what does not decode: bytes that are not UTF-8 become U+FFFD (so
 * two different byte strings would name one key), and under a C locale every non-ASCII character
 * becomes '?'. Keys and names are UTF-8 whatever the locale, so on Linux the arguments are read
 * again from {@code /proc/self/cmdline}, strictly: an argument that is not UTF-8 is refused.
 */
final class RawArguments {
  private RawArguments() {}

  /** An argument whose bytes are not UTF-8; {@code index} counts from 1. */
  static final class NotUtf8Exception extends Exception {
    private static final long serialVersionUID = 1L;

    NotUtf8Exception(int index, String decoded) {
      super("argument " + index + " (" + Text.printable(decoded) + ") is not valid UTF-8: keys,"
          + " names and values on the command line are UTF-8");
    }
  }

  /** The arguments read from /proc/self/cmdline, or {@code args} where there is none. */
  static String[] of(String[] args) throws NotUtf8Exception {
    byte[] cmdline;
    try {
      cmdline = Files.readAllBytes(Path.of("/proc/self/cmdline"));
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return args;
    }
    return decode(cmdline, args).orElse(args);
  }

  /**
   * The last {@code args.length} entries of {@code cmdline} (NUL-terminated argv, the JVM's own
   * options first), decoded strictly; empty when they do not line up with {@code args} (the ASCII
   * ones must be equal), so a launcher that rewrites its arguments keeps the JVM's reading.
   */
  static Optional<String[]> decode(byte[] cmdline, String[] args) throws NotUtf8Exception {
    List<byte[]> entries = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < cmdline.length; i++) {
      if (cmdline[i] == 0) {
        entries.add(java.util.Arrays.copyOfRange(cmdline, start, i));
        start = i + 1;
      }
    }
    if (start < cmdline.length) {
      entries.add(java.util.Arrays.copyOfRange(cmdline, start, cmdline.length));
    }
    if (entries.size() < args.length) {
      return Optional.empty();
    }
    List<byte[]> mine = entries.subList(entries.size() - args.length, entries.size());
    for (int i = 0; i < args.length; i++) {
      byte[] raw = mine.get(i);
      if (isAscii(raw) && !new String(raw, StandardCharsets.US_ASCII).equals(args[i])) {
        return Optional.empty();
      }
    }
    String[] decoded = new String[args.length];
    for (int i = 0; i < args.length; i++) {
      try {
        decoded[i] = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(mine.get(i))).toString();
      } catch (CharacterCodingException e) {
        throw new NotUtf8Exception(i + 1, new String(mine.get(i), StandardCharsets.UTF_8));
      }
    }
    return Optional.of(decoded);
  }

  private static boolean isAscii(byte[] raw) {
    for (byte b : raw) {
      if (b < 0) {
        return false;
      }
    }
    return true;
  }
}
