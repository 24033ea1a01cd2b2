package org.hsdag.search;

/** Why a search stopped. Control flow uses this, never the human-readable text beside it. */
public enum StopReason {
  /** The measurement budget is spent. */
  BUDGET_SPENT,
  /** The wall-clock limit was reached. */
  TIME_LIMIT,
  /** The strategy has nothing more to propose. */
  STRATEGY_FINISHED,
  /** {@code patience} distinct measurements in a row brought no meaningful improvement. */
  CONVERGED,
  /** Ten times the budget in proposals without spending it: the strategy keeps re-proposing. */
  TOO_MANY_PROPOSALS,
  /** Too many failed measurements in a row: something is wrong with the backend or the model. */
  GAVE_UP,
  /** Asked to stop (Ctrl-C); the run stays resumable. */
  INTERRUPTED;

  /** Whether the search ended in a way that has no usable result. */
  public boolean failed() {
    return this == GAVE_UP;
  }
}
