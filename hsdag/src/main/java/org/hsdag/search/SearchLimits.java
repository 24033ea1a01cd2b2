package org.hsdag.search;

/**
 * When a search stops.
 *
 * @param budget distinct placements measured (cache hits are free, failed measurements count)
 * @param timeLimitSeconds wall-clock limit, 0 for none
 * @param patience stop after this many distinct measurements in a row brought no meaningful improvement (none
 *     {@value #MEANINGFUL_IMPROVEMENT_PERCENT} % faster than the best so far); 0 never
 * @param maxProposals proposals allowed in total (cache hits included), so a strategy that keeps
 *     re-proposing measured placements still stops
 * @param maxConsecutiveFailures failed measurements in a row after which the search gives up
 */
public record SearchLimits(int budget, long timeLimitSeconds, int patience, long maxProposals,
    int maxConsecutiveFailures) {
  /** Consecutive failed measurements after which the search gives up. */
  public static final int DEFAULT_MAX_CONSECUTIVE_FAILURES = 50;

  /**
   * An improvement smaller than this (percent of the best so far) does not reset the patience: it is
   * within the noise of one measurement (the simulator's 2 % per run, averaged over 5 runs).
   */
  public static final double MEANINGFUL_IMPROVEMENT_PERCENT = 1.0;

  /** Proposals allowed per budgeted measurement. */
  public static final int PROPOSALS_PER_MEASUREMENT = 10;

  public SearchLimits {
    if (budget < 1) {
      throw new IllegalArgumentException("budget must be at least 1 measurement (got " + budget + ")");
    }
    if (timeLimitSeconds < 0 || patience < 0 || maxProposals < 1 || maxConsecutiveFailures < 1) {
      throw new IllegalArgumentException("time limit and patience must be >= 0, proposal and failure limits >= 1");
    }
  }

  /** {@code budget} measurements, no time limit, no patience, 10 proposals per measurement, 50 failures in a row. */
  public static SearchLimits of(int budget) {
    return new SearchLimits(budget, 0, 0, Math.min(Long.MAX_VALUE / 2, (long) PROPOSALS_PER_MEASUREMENT * budget),
        DEFAULT_MAX_CONSECUTIVE_FAILURES);
  }

  public SearchLimits withTimeLimit(long seconds) {
    return new SearchLimits(budget, seconds, patience, maxProposals, maxConsecutiveFailures);
  }

  public SearchLimits withPatience(int measurements) {
    return new SearchLimits(budget, timeLimitSeconds, measurements, maxProposals, maxConsecutiveFailures);
  }
}
