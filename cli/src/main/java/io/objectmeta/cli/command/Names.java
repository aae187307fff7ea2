package io.objectmeta.cli.command;

import io.objectmeta.api.model.VersioningState;

/** The words S3 users know for the model's values. */
final class Names {
  private Names() {}

  /** S3's versioning status: Enabled, Suspended; a bucket never versioned has none. */
  static String versioning(VersioningState s) {
    return switch (s) {
      case ENABLED -> "Enabled";
      case SUSPENDED -> "Suspended";
      case UNVERSIONED -> "Unversioned";
    };
  }

  /** A value for a shell command line: quoted when it holds more than word characters. */
  static String shellWord(String s) {
    return s.matches("[A-Za-z0-9_./:=+-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
  }
}
