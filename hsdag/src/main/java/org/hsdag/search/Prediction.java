package org.hsdag.search;

import java.util.function.ToDoubleFunction;
import org.hsdag.placement.Placement;

/**
 * A cost model's latency of a placement (any unit) with how far off it typically is: the evidence the
 * final verdict weighs against the race's medians ({@link Verdict#of(java.util.List, Prediction)}).
 *
 * @param latency the predicted latency of a placement
 * @param relativeError the typical relative error of a prediction (e.g. 0.01 for 1 %), from its
 *     residuals on the run's measurements; +∞ when unknown, which leaves the medians alone
 */
public record Prediction(ToDoubleFunction<Placement> latency, double relativeError) {
  public Prediction {
    if (!(relativeError > 0)) {
      throw new IllegalArgumentException("relative error must be > 0 (got " + relativeError + ")");
    }
  }
}
