package org.hsdag.cli;

import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.LoadPolicy;
import org.hsdag.backend.LoadWatchingBackend;
import picocli.CommandLine.Option;

/**
 * The {@code --load-limit} / {@code --load-retakes} picocli mixin: how a real measurement taken
 * while other processes load the machine is treated ({@link LoadPolicy}). The simulator is never
 * watched (not applicable).
 */
public final class LoadOptions {
  @Option(names = "--load-limit", paramLabel = "SHARE", defaultValue = "0.25",
      description = "Real backends: a measurement during which other processes used more than this share of the "
          + "machine's CPU time (0-1; read from /proc) is taken again, then kept and flagged. A latency-mode inference "
          + "uses every core, so a share s stretches it by up to s/(1-s). Default: ${DEFAULT-VALUE}.")
  double limit = LoadPolicy.DEFAULT.limit();

  @Option(names = "--load-retakes", paramLabel = "N", defaultValue = "2",
      description = "Real backends: how often a loaded measurement is taken again before it is kept flagged. "
          + "Default: ${DEFAULT-VALUE}.")
  int retakes = LoadPolicy.DEFAULT.retakes();

  /**
   * The policy asked for.
   *
   * @throws UserInputException when out of range
   */
  public LoadPolicy policy() {
    try {
      return new LoadPolicy(limit, retakes);
    } catch (IllegalArgumentException e) {
      throw new UserInputException("--load-limit/--load-retakes: " + e.getMessage());
    }
  }

  /** {@code backend} with its measurements watched for foreign load, unless it is simulated. */
  public LatencyBackend apply(LatencyBackend backend) {
    return LoadWatchingBackend.wrap(backend, policy());
  }
}
