package io.objectmeta.cli.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;

/**
 * The password of the embedded server's superuser: 256 random bits, made once per home and kept
 * in {@code $OBJECTMETA_HOME/postgres.secret} (mode 0600), so only the home's owner can connect.
 * Never printed.
 */
final class Secret {
  private Secret() {}

  private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");

  /** Where the home keeps it. */
  static Path file(Path home) {
    return home.resolve("postgres.secret");
  }

  /** The home's secret, made on first use. */
  static String of(Path home) {
    Path file = file(home);
    try {
      if (!Files.exists(file)) {
        make(home, file);
      }
      String s = Files.readString(file, StandardCharsets.US_ASCII).trim();
      if (s.isEmpty()) {
        throw new IOException(file + " is empty");
      }
      return s;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or make the embedded server's secret " + file
          + ": " + e.getMessage(), e);
    }
  }

  /** Written aside and linked into place: a reader never sees half of it, two writers never both win. */
  private static void make(Path home, Path file) throws IOException {
    Files.createDirectories(home);
    byte[] bits = new byte[32];
    new SecureRandom().nextBytes(bits);
    Path aside = Files.createTempFile(home, ".secret", ".tmp",
        PosixFilePermissions.asFileAttribute(OWNER_FILE));
    try {
      Files.writeString(aside, Base64.getUrlEncoder().withoutPadding().encodeToString(bits) + "\n",
          StandardCharsets.US_ASCII);
      try {
        Files.createLink(file, aside);
      } catch (FileAlreadyExistsException raced) {
        // another process made it first: use theirs
      }
    } finally {
      Files.deleteIfExists(aside);
    }
  }

  /** {@code dir}, made if missing, readable by its owner only. */
  static Path privateDirectory(Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, OWNER_DIR);
    return dir;
  }
}
