package org.hsdag.train;

import org.hsdag.backend.Measurement;

/**
 * Turns measurements into REINFORCE rewards: r = 1 / latency in seconds (paper §2.5). A failed or
 * non-finite measurement gets a penalty instead of an exception: in the improved mode the reward
 * of a latency twice the slowest successful one seen so far (0 before any success), so a failure
 * ranks below every working placement without dwarfing the reward scale; in paper-faithful mode
 * the reference code's 1e10 s latency, i.e. r = 1e-10.
 */
public final class RewardModel {
  /** Latency the reference code assigns to a failed placement, in seconds. */
  public static final double PAPER_FAILURE_SECONDS = 1e10;

  private final boolean paperFaithful;
  private double slowestSeconds = Double.NaN;

  public RewardModel(boolean paperFaithful) {
    this.paperFaithful = paperFaithful;
  }

  /** Whether a measurement counts as a success (ok with a finite positive latency). */
  public static boolean usable(Measurement m) {
    return m.ok() && Double.isFinite(m.latencyMillis()) && m.latencyMillis() > 0;
  }

  /** The reward for {@code m}, updating the slowest-success statistic. */
  public double reward(Measurement m) {
    if (usable(m)) {
      double s = m.latencySeconds();
      if (Double.isNaN(slowestSeconds) || s > slowestSeconds) {
        slowestSeconds = s;
      }
      return 1.0 / s;
    }
    return failureReward();
  }

  /** The reward a failure gets right now. */
  public double failureReward() {
    if (paperFaithful) {
      return 1.0 / PAPER_FAILURE_SECONDS;
    }
    return Double.isNaN(slowestSeconds) ? 0.0 : 1.0 / (2 * slowestSeconds);
  }

  /** Slowest successful latency seen, in seconds (NaN before any). */
  public double slowestSeconds() {
    return slowestSeconds;
  }

  void restore(double slowestSeconds) {
    this.slowestSeconds = slowestSeconds;
  }
}
