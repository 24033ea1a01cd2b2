package org.hsdag.train;

import org.hsdag.backend.Measurement;
import org.hsdag.search.FailurePenalty;

/**
 * Turns measurements into REINFORCE rewards: r = 1 / latency in seconds (paper §2.5). A failed or
 * non-finite measurement is costed by the one {@link FailurePenalty} rule every strategy shares:
 * in the improved mode twice the slowest successful latency seen so far (reward 0 before any
 * success); in paper-faithful mode the reference code's 1e10 s, i.e. r = 1e-10.
 */
public final class RewardModel {
  private final FailurePenalty penalty;

  public RewardModel(boolean paperFaithful) {
    this.penalty = paperFaithful ? FailurePenalty.paper() : FailurePenalty.twiceSlowest();
  }

  /** The reward for {@code m}, updating the slowest-success statistic. */
  public double reward(Measurement m) {
    if (FailurePenalty.usable(m)) {
      penalty.costMillis(m);
      return 1.0 / m.latencySeconds();
    }
    return failureReward();
  }

  /** The reward a failure gets right now. */
  public double failureReward() {
    return 1.0 / (penalty.penaltyMillis() / 1000.0);
  }

  /** Slowest successful latency seen, in milliseconds (NaN before any). */
  public double slowestMillis() {
    return penalty.slowestMillis();
  }

  void restore(double slowestMillis) {
    penalty.restoreSlowest(slowestMillis);
  }
}
