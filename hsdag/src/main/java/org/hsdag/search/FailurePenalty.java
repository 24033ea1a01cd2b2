package org.hsdag.search;

import org.hsdag.backend.Measurement;

/**
 * What a failed measurement costs a strategy that learns from latencies — the one rule every
 * strategy uses: a failure counts as twice the slowest successful latency seen so far, so it ranks
 * below every working placement without dwarfing the scale; before any success it costs {@code
 * beforeAnySuccessMillis} (+∞ by default, i.e. a reward of 0). The paper-faithful variant uses the
 * HSDAG reference code's 1e10 s instead.
 *
 * <p>Mutable: one instance per strategy, fed every measurement in the order it is told.
 */
public final class FailurePenalty {
  /** The reference code's latency of a failed placement: 1e10 s, in milliseconds. */
  public static final double PAPER_FAILURE_MILLIS = 1e13;

  private final boolean paper;
  private final double beforeAnySuccessMillis;
  private double slowestMillis = Double.NaN;

  private FailurePenalty(boolean paper, double beforeAnySuccessMillis) {
    this.paper = paper;
    this.beforeAnySuccessMillis = beforeAnySuccessMillis;
  }

  /** Twice the slowest success; +∞ before any success. */
  public static FailurePenalty twiceSlowest() {
    return new FailurePenalty(false, Double.POSITIVE_INFINITY);
  }

  /** Twice the slowest success; {@code beforeAnySuccessMillis} before any (strategies that need a finite cost). */
  public static FailurePenalty twiceSlowest(double beforeAnySuccessMillis) {
    return new FailurePenalty(false, beforeAnySuccessMillis);
  }

  /** The HSDAG reference code's rule: every failure costs {@link #PAPER_FAILURE_MILLIS}. */
  public static FailurePenalty paper() {
    return new FailurePenalty(true, PAPER_FAILURE_MILLIS);
  }

  /** Whether a measurement counts as a success (ok with a finite positive latency). */
  public static boolean usable(Measurement m) {
    return m.ok() && Double.isFinite(m.latencyMillis()) && m.latencyMillis() > 0;
  }

  /** The cost of {@code m} in milliseconds: its latency, or the penalty; a success updates the statistic. */
  public double costMillis(Measurement m) {
    if (usable(m)) {
      if (Double.isNaN(slowestMillis) || m.latencyMillis() > slowestMillis) {
        slowestMillis = m.latencyMillis();
      }
      return m.latencyMillis();
    }
    return penaltyMillis();
  }

  /** What a failure costs right now, in milliseconds. */
  public double penaltyMillis() {
    if (paper) {
      return PAPER_FAILURE_MILLIS;
    }
    return Double.isNaN(slowestMillis) ? beforeAnySuccessMillis : 2 * slowestMillis;
  }

  /** Slowest successful latency seen, in milliseconds (NaN before any). */
  public double slowestMillis() {
    return slowestMillis;
  }

  /** Sets the statistic back to a saved value (checkpoints). */
  public void restoreSlowest(double millis) {
    slowestMillis = millis;
  }
}
