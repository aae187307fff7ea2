package io.objectmeta.postgres;

import io.objectmeta.api.error.InternalErrorException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jdbi.v3.core.Jdbi;

/**
 * Versioned schema migrations: numbered SQL files applied in order, each in its own transaction
 * with its version recorded, under an advisory lock so concurrent openers apply each once.
 * Running them again is a no-op. A schema newer than this code knows is refused.
 */
final class Migrations {
  private Migrations() {}

  /** The migration files, in order; the version of each is its position (1-based). */
  static final List<String> FILES = List.of("V001__initial.sql", "V002__gc_claims.sql",
      "V003__gc_leases.sql", "V004__restores.sql");

  static int latest() {
    return FILES.size();
  }

  /** The schema's version (0: not created). */
  static int current(Jdbi jdbi, String schema) {
    return jdbi.withHandle(h -> {
      boolean exists = h.createQuery("SELECT to_regclass(:t) IS NOT NULL")
          .bind("t", schema + ".schema_version").mapTo(Boolean.class).one();
      return exists ? h.createQuery("SELECT coalesce(max(version), 0) FROM " + schema + ".schema_version")
          .mapTo(Integer.class).one() : 0;
    });
  }

  /** Applies what is missing; returns the schema version after. */
  static int migrate(Jdbi jdbi, String schema) {
    return jdbi.inTransaction(h -> {
      h.execute("SELECT pg_advisory_xact_lock(hashtext(?))", "objectmeta-migrate:" + schema);
      h.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
      h.execute("CREATE TABLE IF NOT EXISTS " + schema + ".schema_version ("
          + "version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
      int at = h.createQuery("SELECT coalesce(max(version), 0) FROM " + schema + ".schema_version")
          .mapTo(Integer.class).one();
      refuseNewer(at, schema);
      for (int v = at + 1; v <= latest(); v++) {
        h.createScript(read(FILES.get(v - 1)).replace("{schema}", schema)).execute();
        h.execute("INSERT INTO " + schema + ".schema_version (version) VALUES (?)", v);
      }
      return latest();
    });
  }

  static void refuseNewer(int at, String schema) {
    if (at > latest()) {
      throw new InternalErrorException("schema \"" + schema + "\" is at version " + at
          + ", newer than this objectmeta knows (" + latest() + "); upgrade objectmeta");
    }
  }

  private static String read(String file) {
    try (InputStream in = Migrations.class.getResourceAsStream("migrations/" + file)) {
      if (in == null) {
        throw new IllegalStateException("missing migration " + file);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
