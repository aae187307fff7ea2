package io.objectmeta.cli.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.objectmeta.api.model.ObjectMetadata;
import io.objectmeta.cli.Output;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The metadata of an object to write, from flags or a JSON file (the api's
 * {@link ObjectMetadata} fields), flags winning; shared by {@code put} and {@code uploads create}.
 */
public final class MetadataOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Option(names = "--metadata-file", paramLabel = "FILE",
      description = "JSON of the metadata (fields of ObjectMetadata: size, etag, contentType,"
          + " userMetadata, tags, dataLocations, ...); - reads stdin. Flags override it.")
  String file;

  @Option(names = "--size", paramLabel = "BYTES", description = "Content length (default 0).")
  Long size;

  @Option(names = "--etag", description = "The entity tag.")
  String etag;

  @Option(names = "--content-type", paramLabel = "TYPE", description = "The MIME type.")
  String contentType;

  @Option(names = "--storage-class", paramLabel = "CLASS", description = "Default STANDARD.")
  String storageClass;

  @Option(names = "--owner", paramLabel = "ID", description = "The owner's id.")
  String owner;

  @Option(names = "--metadata", paramLabel = "NAME=VALUE",
      description = "User metadata (x-amz-meta-*), repeatable.")
  Map<String, String> userMetadata = new LinkedHashMap<>();

  @Option(names = "--tag", paramLabel = "KEY=VALUE", description = "An object tag, repeatable.")
  Map<String, String> tags = new LinkedHashMap<>();

  /** The metadata: the file's if given, with each flag given replacing or adding to it. */
  public ObjectMetadata build() {
    ObjectMetadata base = file == null ? ObjectMetadata.builder().build() : read();
    ObjectMetadata.Builder b = base.toBuilder();
    if (size != null) {
      b.size(size);
    }
    if (etag != null) {
      b.etag(etag);
    }
    if (contentType != null) {
      b.contentType(contentType);
    }
    if (storageClass != null) {
      b.storageClass(storageClass);
    }
    if (owner != null) {
      b.owner(owner);
    }
    if (!userMetadata.isEmpty()) {
      Map<String, String> m = new LinkedHashMap<>(base.userMetadata());
      m.putAll(userMetadata);
      b.userMetadata(m);
    }
    if (!tags.isEmpty()) {
      Map<String, String> t = new LinkedHashMap<>(base.tags());
      t.putAll(tags);
      b.tags(t);
    }
    return b.build();
  }

  private ObjectMetadata read() {
    String text;
    try {
      text = file.equals("-") ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8)
          : Files.readString(Path.of(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ParameterException(mixee.commandLine(), "--metadata-file " + file
          + ": cannot read it: " + e.getMessage());
    }
    ObjectMetadata m;
    try {
      m = Output.JSON.readValue(text, ObjectMetadata.class);
    } catch (JsonProcessingException e) {
      throw new ParameterException(mixee.commandLine(), "--metadata-file " + file
          + ": not metadata JSON: " + e.getOriginalMessage());
    } catch (RuntimeException e) {
      // a record's constructor refusing a value (a negative size, say)
      throw new ParameterException(mixee.commandLine(), "--metadata-file " + file
          + ": not metadata JSON: " + e.getMessage());
    }
    if (m == null) {
      throw new ParameterException(mixee.commandLine(), "--metadata-file " + file
          + ": not metadata JSON: the document is null, not an object");
    }
    return m;
  }
}
