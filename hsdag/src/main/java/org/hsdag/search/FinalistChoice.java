package org.hsdag.search;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.hsdag.placement.Placement;
import org.hsdag.plan.CostCorrection;
import org.hsdag.plan.PlacementProxy;

/**
 * Which measured placements go on to the final re-measurement. Ranking by one noisy measurement
 * alone suffers the winner's curse: among many near ties the luckiest measurements win, and one
 * unlucky measurement of the best placement keeps it out of the race. With a cost model the slots
 * go in turn to the fastest measured, the fastest by the cost model corrected on every measurement
 * of the run ({@link CostCorrection}) and the fastest by the cost model as given (a correction can
 * fit one bad measurement), so each placement gets in on any of the three; the race itself decides
 * on measurements only.
 */
public final class FinalistChoice {
  private FinalistChoice() {}

  /**
   * Up to {@code k} distinct measured placements, leaving out {@code exclude}: the fastest measured
   * when {@code costModel} is null, else in turn the next fastest measured, by the corrected and by
   * the given cost model.
   */
  public static List<SearchStep> choose(SearchOutcome outcome, int k, Set<Placement> exclude, PlacementProxy costModel) {
    if (costModel == null) {
      return outcome.top(k, exclude);
    }
    List<SearchStep> measured = outcome.ranked();
    CostCorrection correction = new CostCorrection(costModel);
    for (SearchStep s : measured) {
      correction.observe(s.placement(), s.latencyMillis());
    }
    List<List<SearchStep>> sources = List.of(measured, rankedBy(measured, correction.corrected()), rankedBy(measured, costModel));
    Set<Placement> seen = new HashSet<>(exclude);
    List<SearchStep> out = new ArrayList<>();
    int[] next = new int[sources.size()];
    for (int turn = 0; out.size() < k && turn < sources.size() * measured.size(); turn++) {
      int source = turn % sources.size();
      // A source's next pick that is already in is skipped: the turn passes to the next source.
      while (next[source] < measured.size()) {
        SearchStep s = sources.get(source).get(next[source]++);
        if (seen.add(s.placement())) {
          out.add(s);
          break;
        }
      }
    }
    return out;
  }

  private static List<SearchStep> rankedBy(List<SearchStep> steps, PlacementProxy model) {
    List<SearchStep> out = new ArrayList<>(steps);
    out.sort(Comparator.comparingDouble((SearchStep s) -> model.latencyMicros(s.placement())).thenComparingInt(SearchStep::index));
    return out;
  }
}
