package org.hsdag.strategy;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.Objects;
import org.hsdag.coarsen.CoarseningMode;
import org.hsdag.policy.HsdagConfig;
import org.hsdag.search.SearchStrategy;

/**
 * The fully resolved, typed configuration of a strategy: what a run's manifest records and what
 * {@code --resume} builds the strategy from again (never the raw {@code -S key=value} strings).
 * {@link Strategies#configure} makes one from a registry entry's defaults and command-line options.
 * Strategies that search over co-located groups carry the co-location mode ({@code grouping}).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = StrategyConfig.SingleDevice.class, name = "single-device"),
    @JsonSubTypes.Type(value = StrategyConfig.AutoEmulation.class, name = "auto-emulation"),
    @JsonSubTypes.Type(value = StrategyConfig.PipelineParallel.class, name = "pipeline-parallel"),
    @JsonSubTypes.Type(value = StrategyConfig.Random.class, name = "random"),
    @JsonSubTypes.Type(value = StrategyConfig.Greedy.class, name = "greedy"),
    @JsonSubTypes.Type(value = StrategyConfig.Brkga.class, name = "brkga"),
    @JsonSubTypes.Type(value = StrategyConfig.Placeto.class, name = "placeto"),
    @JsonSubTypes.Type(value = StrategyConfig.Rnn.class, name = "rnn"),
    @JsonSubTypes.Type(value = StrategyConfig.Hsdag.class, name = "hsdag"),
    @JsonSubTypes.Type(value = StrategyConfig.Planner.class, name = "planner"),
    @JsonSubTypes.Type(value = StrategyConfig.ColdStart.class, name = "cold-start")})
public sealed interface StrategyConfig {
  /** A new, uninitialised strategy called {@code name} (the method name, e.g. {@code gpu0}). */
  SearchStrategy create(String name);

  /**
   * Whether the strategy plans on the run's cost model when there is one: then {@code tune} stops
   * early by default, when the corrected model says further measurements cannot pay.
   */
  default boolean plansOnCostModel() {
    return false;
  }

  /** Everything on one device ({@link SingleDeviceStrategy}). */
  record SingleDevice(String device) implements StrategyConfig {
    public SingleDevice {
      Objects.requireNonNull(device, "device");
    }

    @Override
    public SearchStrategy create(String name) {
      return new SingleDeviceStrategy(name, device);
    }
  }

  /** What OpenVINO AUTO / HETERO automatic mode would choose ({@link AutoEmulationStrategy}). */
  record AutoEmulation(AutoEmulationStrategy.Preference preference) implements StrategyConfig {
    public AutoEmulation {
      Objects.requireNonNull(preference, "preference");
    }

    @Override
    public SearchStrategy create(String name) {
      return new AutoEmulationStrategy(name, preference);
    }
  }

  /** OpenVINO HETERO's memory-driven pipeline-parallel split ({@link PipelineParallelStrategy}); no settings. */
  record PipelineParallel() implements StrategyConfig {
    @Override
    public SearchStrategy create(String name) {
      return new PipelineParallelStrategy(name);
    }
  }

  /** Uniform random search ({@link RandomSearchStrategy}); no settings. */
  record Random() implements StrategyConfig {
    @Override
    public SearchStrategy create(String name) {
      return new RandomSearchStrategy();
    }
  }

  /**
   * Another strategy with the cold-start add-ons around it ({@link ColdStartStrategy}): single
   * devices first, a latency model learned from the measurements, {@code movesPerRound} segment
   * moves after every {@code round} of the wrapped strategy's measurements, the model's favourites.
   */
  record ColdStart(StrategyConfig inner, CoarseningMode grouping, int round,
      int movesPerRound) implements StrategyConfig {
    @Override
    public SearchStrategy create(String name) {
      return new ColdStartStrategy(inner.create(name), grouping, round, movesPerRound);
    }
  }

  /** Hill climbing over co-located groups ({@link LocalSearchStrategy}). */
  record Greedy(CoarseningMode grouping) implements StrategyConfig {
    public Greedy {
      Objects.requireNonNull(grouping, "grouping");
    }

    @Override
    public SearchStrategy create(String name) {
      return new LocalSearchStrategy(Grouping.colocation(grouping));
    }
  }

  /** BRKGA over co-located groups ({@link BrkgaStrategy}). */
  record Brkga(CoarseningMode grouping, BrkgaStrategy.Config settings) implements StrategyConfig {
    public Brkga {
      Objects.requireNonNull(grouping, "grouping");
      Objects.requireNonNull(settings, "settings");
    }

    @Override
    public SearchStrategy create(String name) {
      return new BrkgaStrategy(name, Grouping.colocation(grouping), settings);
    }
  }

  /** Placeto over co-located groups ({@link PlacetoStrategy}). */
  record Placeto(CoarseningMode grouping, PlacetoStrategy.Config settings) implements StrategyConfig {
    public Placeto {
      Objects.requireNonNull(grouping, "grouping");
      Objects.requireNonNull(settings, "settings");
    }

    @Override
    public SearchStrategy create(String name) {
      return new PlacetoStrategy(Grouping.colocation(grouping), settings);
    }
  }

  /** The RNN placer of Mirhoseini et al. over co-located groups ({@link RnnPlacerStrategy}). */
  record Rnn(CoarseningMode grouping, RnnPlacerStrategy.Config settings) implements StrategyConfig {
    public Rnn {
      Objects.requireNonNull(grouping, "grouping");
      Objects.requireNonNull(settings, "settings");
    }

    @Override
    public SearchStrategy create(String name) {
      return new RnnPlacerStrategy(Grouping.colocation(grouping), settings);
    }
  }

  /**
   * HSDAG ({@link HsdagStrategy}); its co-location mode is {@link HsdagConfig#coarsening()}. With
   * {@code warmStart} and a cost model ({@link WarmStartStrategy}) the policy is first trained for
   * {@code pretrainEpisodes} episodes against the cost model's latency, then the planner spends the
   * first measurements; without, it starts cold as published.
   */
  record Hsdag(HsdagConfig settings, boolean warmStart, int pretrainEpisodes) implements StrategyConfig {
    /**
     * Episodes of cost-model pre-training a warm-started HSDAG gets unless told otherwise: none.
     * Under --mismatch 0.3 (a cost model 30 % off) 200 episodes improved one model (resnet50, three
     * devices) but made another worse (alexnet): they narrow what the measured phase explores.
     */
    public static final int DEFAULT_PRETRAIN_EPISODES = 0;

    public Hsdag {
      Objects.requireNonNull(settings, "settings");
      if (pretrainEpisodes < 0) {
        throw new IllegalArgumentException("pretrain must be >= 0 episodes (got " + pretrainEpisodes + ")");
      }
      if (pretrainEpisodes > 0 && !warmStart) {
        throw new IllegalArgumentException("pretrain trains on the cost model, which only the warm start uses "
            + "(this configuration starts cold: hsdag-paper or warm-start=false)");
      }
    }

    /** Cold HSDAG. */
    public Hsdag(HsdagConfig settings) {
      this(settings, false, 0);
    }

    /** Warm-started HSDAG with the default pre-training. */
    public static Hsdag warm(HsdagConfig settings) {
      return new Hsdag(settings, true, DEFAULT_PRETRAIN_EPISODES);
    }

    @Override
    public boolean plansOnCostModel() {
      return warmStart;
    }

    @Override
    public SearchStrategy create(String name) {
      HsdagStrategy hsdag = new HsdagStrategy(settings);
      return warmStart ? new WarmStartStrategy(new PlannerStrategy("planner"), hsdag, pretrainEpisodes) : hsdag;
    }
  }

  /** The cost-model planner, corrected by measurements ({@link PlannerStrategy}); no settings. */
  record Planner() implements StrategyConfig {
    @Override
    public boolean plansOnCostModel() {
      return true;
    }

    @Override
    public SearchStrategy create(String name) {
      return new PlannerStrategy(name);
    }
  }
}
