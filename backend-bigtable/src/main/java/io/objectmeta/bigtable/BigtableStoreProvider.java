package io.objectmeta.bigtable;

import com.google.cloud.bigtable.admin.v2.BigtableTableAdminClient;
import com.google.cloud.bigtable.admin.v2.BigtableTableAdminSettings;
import com.google.cloud.bigtable.data.v2.BigtableDataClient;
import com.google.cloud.bigtable.data.v2.BigtableDataSettings;
import io.objectmeta.api.MetadataStore;
import io.objectmeta.api.error.ServiceUnavailableException;
import io.objectmeta.api.spi.MetadataStoreProvider;
import io.objectmeta.api.spi.ScratchSpace;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Set;

/** Opens {@code bigtable://PROJECT/INSTANCE} stores; see {@link BigtableConfig}. */
public final class BigtableStoreProvider implements MetadataStoreProvider {
  @Override
  public Set<String> schemes() {
    return Set.of("bigtable");
  }

  @Override
  public MetadataStore open(URI uri, Map<String, String> properties) {
    BigtableConfig config = BigtableConfig.from(uri, properties);
    Clients c = clients(config, config.createTables());
    return new BigtableMetadataStore(c.data(), c.admin(), true, config);
  }

  /** Stores with tables of their own next to the URI's, each set removed when the space closes. */
  @Override
  public ScratchSpace scratch(URI uri, Map<String, String> properties) {
    BigtableConfig config = BigtableConfig.from(uri, properties);
    return new BigtableScratchSpace(clients(config, true), config);
  }

  /** A data client and (when tables may be created or removed) an admin client. */
  record Clients(BigtableDataClient data, BigtableTableAdminClient admin) implements AutoCloseable {
    @Override
    public void close() {
      data.close();
      if (admin != null) {
        admin.close();
      }
    }
  }

  static Clients clients(BigtableConfig config, boolean withAdmin) {
    try {
      BigtableDataSettings.Builder data;
      BigtableTableAdminSettings.Builder admin = null;
      if (config.emulatorHost() != null) {
        String[] hp = config.emulatorHost().split(":");
        int port = Integer.parseInt(hp[1]);
        data = BigtableDataSettings.newBuilderForEmulator(hp[0], port);
        if (withAdmin) {
          admin = BigtableTableAdminSettings.newBuilderForEmulator(hp[0], port);
        }
      } else {
        data = BigtableDataSettings.newBuilder();
        if (withAdmin) {
          admin = BigtableTableAdminSettings.newBuilder();
        }
      }
      data.setProjectId(config.project()).setInstanceId(config.instance());
      if (config.endpoint() != null) {
        data.stubSettings().setEndpoint(config.endpoint());
      }
      if (config.credentialsFile() != null) {
        com.google.auth.Credentials credentials;
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(
            java.nio.file.Path.of(config.credentialsFile()))) {
          credentials = com.google.auth.oauth2.GoogleCredentials.fromStream(in);
        } catch (IOException | RuntimeException e) {
          throw new io.objectmeta.api.error.InvalidArgumentException("credentialsFile",
              "cannot read a service account key from \"" + config.credentialsFile() + "\": "
              + e.getMessage());
        }
        com.google.api.gax.core.CredentialsProvider provider =
            com.google.api.gax.core.FixedCredentialsProvider.create(credentials);
        data.setCredentialsProvider(provider);
        if (withAdmin) {
          admin.setCredentialsProvider(provider);
        }
      }
      if (config.appProfile() != null) {
        data.setAppProfileId(config.appProfile());
      }
      BigtableDataClient d = BigtableDataClient.create(data.build());
      BigtableTableAdminClient a = null;
      if (admin != null) {
        admin.setProjectId(config.project()).setInstanceId(config.instance());
        // the check for tables on open is the first request: an unreachable endpoint fails it
        // within seconds instead of the client's default of a minute of retries
        com.google.api.gax.rpc.UnaryCallSettings.Builder<?, ?> getTable =
            admin.stubSettings().getTableSettings();
        getTable.setRetrySettings(getTable.getRetrySettings().toBuilder()
            .setTotalTimeoutDuration(java.time.Duration.ofSeconds(10)).build());
        a = BigtableTableAdminClient.create(admin.build());
      }
      return new Clients(d, a);
    } catch (io.objectmeta.api.error.MetadataException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new ServiceUnavailableException("bigtable: cannot connect to " + config.describe()
          + ": " + e.getMessage(), e);
    }
  }
}
