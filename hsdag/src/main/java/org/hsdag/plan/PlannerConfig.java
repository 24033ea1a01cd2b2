package org.hsdag.plan;

import java.util.List;

/**
 * Settings of the {@link Planner}.
 *
 * @param subModelWeights the λ values tried: each weighs the sub-model start cost onto every
 *     boundary copy into a device (see {@link CutModel}); one cut per λ and device pair
 * @param maxCandidates how many distinct placements a plan returns at most (≥ 1)
 * @param evaluationWork the exact evaluations one local search may spend, as ops × evaluations
 *     (so large graphs get fewer); at least {@link #MIN_EVALUATIONS} and at most
 *     {@link #MAX_EVALUATIONS} evaluations
 * @param localSearch whether to improve the cuts on the exact proxy
 */
public record PlannerConfig(List<Double> subModelWeights, int maxCandidates, long evaluationWork, boolean localSearch) {
  static final int MIN_EVALUATIONS = 40;
  static final int MAX_EVALUATIONS = 5000;

  /** λ ∈ {0, 0.5, 1, 2}, 6 candidates, 3·10^6 op-evaluations per local search. */
  public static final PlannerConfig DEFAULT = new PlannerConfig(List.of(0.0, 0.5, 1.0, 2.0), 6, 3_000_000L, true);

  public PlannerConfig {
    subModelWeights = List.copyOf(subModelWeights);
    if (subModelWeights.isEmpty()) {
      throw new IllegalArgumentException("at least one sub-model weight");
    }
    for (double w : subModelWeights) {
      if (!(w >= 0) || Double.isInfinite(w)) {
        throw new IllegalArgumentException("sub-model weights must be finite and >= 0 (got " + w + ")");
      }
    }
    if (maxCandidates < 1) {
      throw new IllegalArgumentException("maxCandidates must be >= 1");
    }
    if (evaluationWork < 0) {
      throw new IllegalArgumentException("evaluationWork must be >= 0");
    }
  }

  /** Exact evaluations one local search may spend on a model of {@code ops} ops. */
  int evaluations(int ops) {
    long e = evaluationWork / Math.max(1, ops);
    return (int) Math.max(MIN_EVALUATIONS, Math.min(MAX_EVALUATIONS, e));
  }

  public PlannerConfig withLocalSearch(boolean on) {
    return new PlannerConfig(subModelWeights, maxCandidates, evaluationWork, on);
  }
}
