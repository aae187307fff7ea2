package io.objectmeta.postgres;

import io.objectmeta.api.error.InternalErrorException;
import io.objectmeta.api.error.InvalidArgumentException;
import io.objectmeta.api.error.MetadataException;
import io.objectmeta.api.error.ServiceUnavailableException;
import io.objectmeta.api.error.StoreConfigurationException;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.util.Set;

/**
 * The one place a PostgreSQL failure becomes a typed error, by its SQLSTATE (PostgreSQL's
 * "Appendix A. Error Codes"): only a failure that repeating may cure is {@link
 * ServiceUnavailableException}. Input the database refused (class 22, data exception: a NUL byte,
 * a number out of range, an invalid byte sequence; class 54, a row or value too large) is {@link
 * InvalidArgumentException}: the input rules in {@code api} should have stopped it, and the
 * transaction that met it was rolled back. A database, role, schema or table that is not there, a
 * refused password or a missing grant is {@link StoreConfigurationException}. Anything else the
 * server says cannot succeed (a constraint or syntax error, data corruption) is a bug: {@link
 * InternalErrorException}.
 */
final class PostgresErrors {
  private PostgresErrors() {}

  /** Classes whose errors a later attempt may not meet: connection, transaction rollback, resources, operator, system. */
  private static final Set<String> RETRYABLE_CLASSES = Set.of("08", "40", "53", "55", "57", "58");
  /** invalid_authorization_specification, invalid_password, invalid_catalog_name (database), invalid_schema_name, undefined_table, insufficient_privilege. */
  private static final Set<String> CONFIGURATION = Set.of("28000", "28P01", "3D000", "3F000",
      "42P01", "42501");

  /**
   * The typed error for {@code e}, which met the database at {@code where} (host, port, database,
   * schema: never a password).
   */
  static MetadataException translate(String where, Throwable e) {
    if (e instanceof MetadataException m) {
      return m;
    }
    SQLException sql = sqlException(e);
    String state = sql == null ? null : sql.getSQLState();
    String message = where + ": " + rootMessage(e);
    if (state == null || state.length() != 5) {
      // No verdict from the server: the driver lost the connection, the pool timed out, or the
      // failure happened before a statement was sent.
      return new ServiceUnavailableException(message, e);
    }
    if (CONFIGURATION.contains(state)) {
      return new StoreConfigurationException(message + " [SQLSTATE " + state + "]", e);
    }
    String cls = state.substring(0, 2);
    if (cls.equals("22") || cls.equals("54")) {
      InvalidArgumentException refused = new InvalidArgumentException("input",
          "PostgreSQL refused it (SQLSTATE " + state + "): " + sql.getMessage());
      refused.initCause(e);
      return refused;
    }
    if (RETRYABLE_CLASSES.contains(cls) || sql instanceof SQLTransientException) {
      return new ServiceUnavailableException(message, e);
    }
    return new InternalErrorException(message + " [SQLSTATE " + state + "]", e);
  }

  /** The first SQLException with a SQLSTATE on the cause chain (HikariCP and callers may wrap it). */
  private static SQLException sqlException(Throwable e) {
    SQLException first = null;
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SQLException s) {
        if (s.getSQLState() != null) {
          return s;
        }
        if (first == null) {
          first = s;
        }
      }
    }
    return first;
  }

  static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
