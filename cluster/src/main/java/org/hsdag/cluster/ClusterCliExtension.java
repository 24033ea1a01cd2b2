package org.hsdag.cluster;

import org.hsdag.cli.CliExtension;

/** Contributes {@code hsdag cluster} (no Pekko class is loaded until a subcommand runs). */
public final class ClusterCliExtension implements CliExtension {
  @Override
  public Object newCommand() {
    return new ClusterCommand();
  }
}
