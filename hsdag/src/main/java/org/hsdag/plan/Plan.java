package org.hsdag.plan;

import java.util.List;

/**
 * What the {@link Planner} returns: a few distinct placements, fastest on the proxy first (the
 * first is never slower on the proxy than {@link #bestSingleDevice}), and the best single device.
 *
 * @param candidates distinct placements, best first
 * @param bestSingleDevice the fastest single-device placement on the proxy (null when no device runs every op)
 * @param evaluations exact proxy evaluations spent
 * @param notes what the planner had to work around (e.g. a start HETERO refuses, repaired or skipped)
 */
public record Plan(List<PlanCandidate> candidates, PlanCandidate bestSingleDevice, long evaluations,
    List<String> notes) {
  public Plan {
    candidates = List.copyOf(candidates);
    notes = List.copyOf(notes);
    if (candidates.isEmpty()) {
      throw new IllegalArgumentException("a plan has at least one candidate");
    }
  }

  public Plan(List<PlanCandidate> candidates, PlanCandidate bestSingleDevice, long evaluations) {
    this(candidates, bestSingleDevice, evaluations, List.of());
  }

  public PlanCandidate best() {
    return candidates.get(0);
  }
}
