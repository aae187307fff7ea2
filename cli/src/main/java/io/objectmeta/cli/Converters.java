package io.objectmeta.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.TypeConversionException;

/** How option values become durations and instants; registered once on the command line. */
final class Converters {
  private Converters() {}

  private static final Pattern SIMPLE = Pattern.compile("(\\d+)(ms|s|m|h|d)?");

  static void register(CommandLine cl) {
    cl.registerConverter(Duration.class, Converters::duration);
    cl.registerConverter(Instant.class, Converters::instant);
  }

  /** 0, 500ms, 90s, 5m, 1h, 2d (a bare number is seconds), or ISO-8601 such as PT1H30M. */
  static Duration duration(String s) {
    Matcher m = SIMPLE.matcher(s.trim().toLowerCase(Locale.ROOT));
    if (m.matches()) {
      try {
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        return switch (unit) {
          case "ms" -> Duration.ofMillis(n);
          case "m" -> Duration.ofMinutes(n);
          case "h" -> Duration.ofHours(n);
          case "d" -> Duration.ofDays(n);
          default -> Duration.ofSeconds(n);
        };
      } catch (ArithmeticException | NumberFormatException e) {
        throw new TypeConversionException("'" + s + "' is too long a duration");
      }
    }
    try {
      Duration d = Duration.parse(s.trim().toUpperCase(Locale.ROOT));
      if (d.isNegative()) {
        throw new TypeConversionException("a duration must not be negative: " + s);
      }
      return d;
    } catch (DateTimeParseException e) {
      throw new TypeConversionException("'" + s + "' is not a duration (e.g. 0, 90s, 5m, 1h, 2d, PT1H30M)");
    }
  }

  /** An ISO-8601 instant (2026-11-22T10:00:00Z) or date-time with offset (…T11:00:00+01:00). */
  static Instant instant(String s) {
    try {
      return Instant.parse(s);
    } catch (DateTimeParseException e) {
      try {
        return OffsetDateTime.parse(s).toInstant();
      } catch (DateTimeParseException e2) {
        throw new TypeConversionException("'" + s + "' is not an ISO-8601 time (e.g. 2026-11-22T10:00:00Z)");
      }
    }
  }
}
