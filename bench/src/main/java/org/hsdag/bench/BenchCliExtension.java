package org.hsdag.bench;

import org.hsdag.cli.CliExtension;

/** Contributes {@code hsdag bench} to the CLI through {@link java.util.ServiceLoader}. */
public final class BenchCliExtension implements CliExtension {
  @Override
  public Object newCommand() {
    return new BenchCommand();
  }
}
