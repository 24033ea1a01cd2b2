package org.hsdag.cluster;

import org.hsdag.cli.CliExtension;

/** Contributes {@code hsdag worker} (no Pekko class is loaded until it runs). */
public final class WorkerCliExtension implements CliExtension {
  @Override
  public Object newCommand() {
    return new WorkerCommand();
  }
}
