package org.hsdag.tune;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.strategy.Strategies;

/**
 * Everything that determines a tuning run besides the model and the backend. Stored in the run's
 * {@code manifest.json}; {@code --resume} reads it back so a continued run searches exactly as the
 * original would have.
 *
 * @param devices device names in priority order, e.g. {@code [CPU, GPU.1]}
 * @param strategy search strategy name ({@link Strategies})
 * @param strategyOptions {@code key=value} options passed through to the strategy
 * @param budget search measurements (placements actually timed; cache hits are free)
 * @param timeLimitSeconds wall-clock limit of the search in seconds, 0 for none
 * @param seed master seed; every random component gets a split of it
 * @param protocol how each placement is timed
 * @param topK search candidates re-measured at the end
 * @param finalRounds interleaved re-measurement rounds at the end (0 skips the re-measurement)
 * @param checkpointEvery steps between strategy checkpoints
 * @param patience stop the search after this many proposals in a row were placements already
 *     measured (the strategy has converged); 0 disables
 */
public record TuneConfig(
    List<String> devices,
    String strategy,
    Map<String, String> strategyOptions,
    int budget,
    long timeLimitSeconds,
    long seed,
    MeasurementProtocol protocol,
    int topK,
    int finalRounds,
    int checkpointEvery,
    int patience) {

  /** Default search budget: enough for the simulator to show a clear best in well under a minute. */
  public static final int DEFAULT_BUDGET = 120;

  /** Default patience: proposals in a row that were all measured before. */
  public static final int DEFAULT_PATIENCE = 40;

  public TuneConfig {
    devices = List.copyOf(devices);
    strategyOptions = java.util.Collections.unmodifiableMap(new TreeMap<>(strategyOptions));
    if (devices.isEmpty()) {
      throw new IllegalArgumentException("at least one device is needed");
    }
    if (budget < 1) {
      throw new IllegalArgumentException("budget must be at least 1 measurement (got " + budget + ")");
    }
    if (timeLimitSeconds < 0 || topK < 0 || finalRounds < 0 || checkpointEvery < 1 || patience < 0) {
      throw new IllegalArgumentException(
          "time limit, top-k, final rounds and patience must be >= 0 and the checkpoint interval >= 1");
    }
  }

  /** Proposals allowed in total, so a strategy that keeps re-proposing cached placements still stops. */
  public long maxProposals() {
    return Math.min(Long.MAX_VALUE / 2, 10L * budget);
  }
}
