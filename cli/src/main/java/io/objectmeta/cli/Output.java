package io.objectmeta.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.objectmeta.api.model.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/** How results are printed: JSON for machines (--json), aligned tables for people. */
public final class Output {
  private Output() {}

  /**
   * The api's mapper ({@link Json#MAPPER}) plus ISO-8601 times; absent (null) fields left out.
   * Field names are the api records' own (camelCase).
   */
  public static final ObjectMapper JSON = Json.MAPPER.copy()
      .registerModule(new JavaTimeModule())
      .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
      .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
      .setSerializationInclusion(JsonInclude.Include.NON_NULL);

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

  /** {@code value} as indented JSON, then a newline. */
  public static void json(PrintWriter out, Object value) {
    try {
      JSON.writerWithDefaultPrettyPrinter().writeValue(out, value);
      out.println();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code value} as one line of JSON (JSON Lines). */
  public static String jsonLine(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A time for a table: UTC to the second, e.g. 2026-11-22 10:00:00. */
  public static String time(Instant t) {
    return t == null ? "-" : TIME.format(t);
  }

  /** A table whose columns are as wide as their widest cell; cells are made printable. */
  public static final class Table {
    private final List<String[]> rows = new ArrayList<>();
    private final int columns;

    public Table(String... headers) {
      this.columns = headers.length;
      rows.add(headers);
    }

    public Table row(Object... cells) {
      if (cells.length != columns) {
        throw new IllegalArgumentException("expected " + columns + " cells, got " + cells.length);
      }
      String[] r = new String[columns];
      for (int i = 0; i < columns; i++) {
        r[i] = Text.printable(cells[i] == null ? "-" : String.valueOf(cells[i]));
      }
      rows.add(r);
      return this;
    }

    /** Whether it has rows besides the header. */
    public boolean isEmpty() {
      return rows.size() == 1;
    }

    public void print(PrintWriter out) {
      int[] width = new int[columns];
      for (String[] r : rows) {
        for (int i = 0; i < columns; i++) {
          width[i] = Math.max(width[i], r[i].length());
        }
      }
      for (String[] r : rows) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < columns; i++) {
          line.append(i == columns - 1 ? r[i] : String.format("%-" + width[i] + "s  ", r[i]));
        }
        out.println(line.toString().stripTrailing());
      }
    }
  }

  /** Name-value lines, aligned: for one record (a version, a bucket, the stats). */
  public static final class Fields {
    private final List<String[]> lines = new ArrayList<>();

    public Fields add(String name, Object value) {
      lines.add(new String[] {name, Text.printable(value == null ? "-" : String.valueOf(value))});
      return this;
    }

    public void print(PrintWriter out) {
      int width = lines.stream().mapToInt(l -> l[0].length()).max().orElse(0);
      for (String[] l : lines) {
        out.println(String.format("%-" + width + "s  %s", l[0], l[1]).stripTrailing());
      }
    }
  }
}
