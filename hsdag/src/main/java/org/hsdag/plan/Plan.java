package org.hsdag.plan;

import java.util.List;

/**
 * What the {@link Planner} returns: a few distinct placements, fastest on the proxy first (the
 * first is never slower on the proxy than {@link #bestSingleDevice}), and the best single device.
 *
 * @param candidates distinct placements, best first
 * @param bestSingleDevice the fastest single-device placement on the proxy (null when no device runs every op)
 * @param evaluations exact proxy evaluations spent
 */
public record Plan(List<PlanCandidate> candidates, PlanCandidate bestSingleDevice, long evaluations) {
  public Plan {
    candidates = List.copyOf(candidates);
    if (candidates.isEmpty()) {
      throw new IllegalArgumentException("a plan has at least one candidate");
    }
  }

  public PlanCandidate best() {
    return candidates.get(0);
  }
}
