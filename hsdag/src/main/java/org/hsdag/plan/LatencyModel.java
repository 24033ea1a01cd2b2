package org.hsdag.plan;

import java.util.Optional;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.placement.Placement;

/**
 * What a latency model does, whatever it is made of (as TVM's cost models: update, predict): a
 * fixed cost model ({@link PlacementProxy}), a cost model corrected by measurements ({@link
 * CostCorrection}), or one learned from the run's measurements alone ({@code
 * MeasuredLatencyModel}). Latencies in milliseconds. The search sees the planner through this
 * interface only.
 */
public interface LatencyModel {
  /** Learns from one measured placement; a model that cannot learn ignores it. A non-positive or infinite latency is ignored. */
  void observe(Placement placement, double measuredMillis);

  /** The predicted latency of {@code placement} in ms: infinite when it cannot run, NaN before the model knows anything. */
  double predictMillis(Placement placement);

  /**
   * A new model that predicts as the fixed cost model under this one and corrects it by the
   * measurements it then observes ({@link CostCorrection}); this model is unchanged. Empty for a
   * model with no cost model under it.
   */
  default Optional<LatencyModel> correction() {
    return Optional.empty();
  }

  /**
   * Why HETERO would refuse {@code placement} (docs/hetero-rules.md), predicted without a run, when
   * the model knows the rules; empty when it would run or the model cannot tell.
   */
  default Optional<String> predictedRefusal(Placement placement) {
    return Optional.empty();
  }

  /** The device capacities the model's placements must respect, when it carries them. */
  default Optional<MemoryCheck> memory() {
    return Optional.empty();
  }
}
