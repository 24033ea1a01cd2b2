package org.hsdag.cli;

import picocli.CommandLine.Option;

/** The {@code --seed} picocli mixin with the one default every measuring command shares. */
public final class SeedOptions {
  /** The default master seed. */
  public static final long DEFAULT = 42;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "" + DEFAULT,
      description = "Master seed; the same seed repeats the same run. Default: ${DEFAULT-VALUE}.")
  long seed = DEFAULT;

  /** The seed. */
  public long seed() {
    return seed;
  }
}
