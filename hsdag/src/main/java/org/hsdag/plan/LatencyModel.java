package org.hsdag.plan;

import org.hsdag.placement.Placement;

/**
 * What a latency model does, whatever it is made of (as TVM's cost models: update, predict): a
 * fixed cost model ({@link PlacementProxy}), a cost model corrected by measurements ({@link
 * CostCorrection}), or one learned from the run's measurements alone ({@code
 * MeasuredLatencyModel}). Latencies in milliseconds.
 */
public interface LatencyModel {
  /** Learns from one measured placement; a model that cannot learn ignores it. A non-positive or infinite latency is ignored. */
  void observe(Placement placement, double measuredMillis);

  /** The predicted latency of {@code placement} in ms: infinite when it cannot run, NaN before the model knows anything. */
  double predictMillis(Placement placement);
}
