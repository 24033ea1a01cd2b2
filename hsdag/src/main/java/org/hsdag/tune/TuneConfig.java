package org.hsdag.tune;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.Objects;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.placement.DeviceSet;
import org.hsdag.plan.ProxyChoice;
import org.hsdag.search.SearchLimits;
import org.hsdag.search.SearchStrategy;
import org.hsdag.strategy.StrategyConfig;
import org.hsdag.strategy.Strategies;

/**
 * Everything that determines a tuning run besides the model and the backend. Stored in the run's
 * {@code manifest.json}; {@code --resume} reads it back so a continued run searches exactly as the
 * original would have.
 *
 * @param devices the devices in priority order, resolved once by the command (recorded as names, e.g. {@code [CPU, GPU.1]})
 * @param strategy search strategy name ({@link Strategies})
 * @param strategyConfig the strategy's fully resolved, typed configuration
 * @param budget search measurements (placements actually timed; cache hits are free)
 * @param timeLimitSeconds wall-clock limit of the search in seconds, 0 for none
 * @param seed master seed; every random component gets a split of it
 * @param protocol how each placement is timed
 * @param topK search candidates re-measured at the end
 * @param finalRounds interleaved re-measurement rounds at the end (0 skips the re-measurement)
 * @param checkpointEvery steps between strategy checkpoints
 * @param patience stop the search after this many distinct measurements in a row brought no meaningful
 *     improvement of the best ({@link SearchLimits#patience()}); 0 disables
 * @param proxy the cost model strategies may plan with ({@link ProxyChoice})
 * @param memory the device capacities the run keeps to, as {@code --memory} gave them ("" for none; runs
 *     from before this field kept them in a {@code memory.json} beside the manifest)
 */
public record TuneConfig(
    @JsonSerialize(converter = DeviceSetJson.Names.class) @JsonDeserialize(
        converter = DeviceSetJson.Parsed.class) DeviceSet devices,
    String strategy,
    StrategyConfig strategyConfig,
    int budget,
    long timeLimitSeconds,
    long seed,
    MeasurementProtocol protocol,
    int topK,
    int finalRounds,
    int checkpointEvery,
    int patience,
    ProxyChoice proxy,
    String memory) {

  /** Default search budget: enough for the simulator to show a clear best in well under a minute. */
  public static final int DEFAULT_BUDGET = 120;

  /** Default patience: distinct measurements in a row without a meaningful improvement of the best. */
  public static final int DEFAULT_PATIENCE = 20;

  /**
   * The patience of a run that does not name one: {@link #DEFAULT_PATIENCE} for a strategy that plans
   * on the run's cost model, which can tell when further measurements cannot pay; 0 (the budget
   * decides) for a cold start, which has no such model.
   */
  public static int defaultPatience(StrategyConfig strategy, boolean hasCostModel) {
    return hasCostModel && strategy.plansOnCostModel() ? DEFAULT_PATIENCE : 0;
  }

  public TuneConfig {
    Objects.requireNonNull(devices, "devices");
    // Runs recorded before the proxy existed searched cold.
    proxy = proxy == null ? ProxyChoice.NONE : proxy;
    memory = memory == null ? "" : memory;
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(strategyConfig, "strategy configuration");
    if (budget < 1) {
      throw new IllegalArgumentException("budget must be at least 1 measurement (got " + budget + ")");
    }
    if (timeLimitSeconds < 0 || topK < 0 || finalRounds < 0 || checkpointEvery < 1 || patience < 0) {
      throw new IllegalArgumentException(
          "time limit, top-k, final rounds and patience must be >= 0 and the checkpoint interval >= 1");
    }
  }

  /** A run without device capacities of its own. */
  public TuneConfig(DeviceSet devices, String strategy, StrategyConfig strategyConfig, int budget,
      long timeLimitSeconds, long seed, MeasurementProtocol protocol, int topK, int finalRounds, int checkpointEvery,
      int patience, ProxyChoice proxy) {
    this(devices, strategy, strategyConfig, budget, timeLimitSeconds, seed, protocol, topK, finalRounds,
        checkpointEvery, patience, proxy, "");
  }

  /** A run with the backend's own cost model ({@link ProxyChoice#AUTO}). */
  public TuneConfig(DeviceSet devices, String strategy, StrategyConfig strategyConfig, int budget,
      long timeLimitSeconds,
      long seed, MeasurementProtocol protocol, int topK, int finalRounds, int checkpointEvery, int patience) {
    this(devices, strategy, strategyConfig, budget, timeLimitSeconds, seed, protocol, topK, finalRounds,
        checkpointEvery,
        patience, ProxyChoice.AUTO);
  }

  /** The engine's stop rules for this run. */
  public SearchLimits limits() {
    return SearchLimits.of(budget).withTimeLimit(timeLimitSeconds).withPatience(patience);
  }

  /**
   * The measurements the search keeps time for: every finalist so far (the baselines, up to the top K of the
   * {@code searchCandidates} placements measured) in the rounds needed to race on (3, or fewer when fewer are
   * asked for); the race runs more rounds when they still fit.
   */
  public int raceMeasurements(int searchCandidates) {
    return (devices.size() + Math.min(topK, searchCandidates)) * Math.min(finalRounds, 3);
  }

  /** A new, uninitialised strategy as configured. */
  public SearchStrategy newStrategy() {
    return strategyConfig.create(strategy);
  }

  /** The same run with another budget and time limit (what {@code --resume} may change). */
  public TuneConfig withLimits(int newBudget, long newTimeLimitSeconds) {
    return new TuneConfig(devices, strategy, strategyConfig, newBudget, newTimeLimitSeconds, seed, protocol, topK,
        finalRounds,
        checkpointEvery, patience, proxy, memory);
  }

  /** The same run with another {@code patience} (a run that expected a cost model and searches cold). */
  public TuneConfig withPatience(int newPatience) {
    return new TuneConfig(devices, strategy, strategyConfig, budget, timeLimitSeconds, seed, protocol, topK,
        finalRounds, checkpointEvery, newPatience, proxy, memory);
  }

  /** The same run keeping to the device capacities {@code memoryText} ({@code --memory}'s text, "" for none). */
  public TuneConfig withMemory(String memoryText) {
    return new TuneConfig(devices, strategy, strategyConfig, budget, timeLimitSeconds, seed, protocol, topK,
        finalRounds, checkpointEvery, patience, proxy, memoryText);
  }
}
