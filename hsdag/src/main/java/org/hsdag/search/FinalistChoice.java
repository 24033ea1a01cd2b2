package org.hsdag.search;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import org.hsdag.placement.Placement;
import org.hsdag.plan.CostCorrection;
import org.hsdag.plan.PlacementProxy;

/**
 * Which measured placements go on to the final re-measurement. Ranking by one noisy measurement
 * alone suffers the winner's curse: among many near ties the luckiest measurements win, and one
 * unlucky measurement of the best placement keeps it out of the race. So the slots go in turn to
 * the fastest measured, the strategy's own favourites ({@link SearchStrategy#favourites}, e.g. by a
 * latency model fitted to all its measurements), the fastest by the cost model corrected on every
 * measurement of the run ({@link CostCorrection}) and by the cost model as given (a correction can
 * fit one bad measurement) when there is one, and the placements the search proposed again, most
 * often first (a learned policy that keeps returning to a placement despite its measurement has
 * evidence from its neighbours). Each placement gets in on any of these; the race itself decides on
 * measurements only.
 */
public final class FinalistChoice {
  private FinalistChoice() {}

  /** {@link #choose(SearchOutcome, int, Set, PlacementProxy, List)} for a strategy without favourites. */
  public static List<SearchStep> choose(SearchOutcome outcome, int k, Set<Placement> exclude, PlacementProxy costModel) {
    return choose(outcome, k, exclude, costModel, List.of());
  }

  /**
   * Up to {@code k} distinct measured placements, leaving out {@code exclude}: in turn the next
   * fastest measured, the next of the strategy's {@code favourites} (best first; those never measured
   * are skipped), by the corrected and by the given {@code costModel} (when not null) and the next
   * most often proposed of those proposed more than once.
   */
  public static List<SearchStep> choose(SearchOutcome outcome, int k, Set<Placement> exclude, PlacementProxy costModel,
      List<Placement> favourites) {
    List<SearchStep> measured = outcome.ranked();
    List<List<SearchStep>> sources = new ArrayList<>();
    sources.add(measured);
    if (!favourites.isEmpty()) {
      Map<Placement, SearchStep> byPlacement = new HashMap<>();
      for (SearchStep s : measured) {
        byPlacement.putIfAbsent(s.placement(), s);
      }
      List<SearchStep> fav = new ArrayList<>();
      for (Placement p : favourites) {
        SearchStep s = byPlacement.get(p);
        if (s != null) {
          fav.add(s);
        }
      }
      sources.add(fav);
    }
    if (costModel != null) {
      CostCorrection correction = new CostCorrection(costModel);
      for (SearchStep s : measured) {
        correction.observe(s.placement(), s.latencyMillis());
      }
      PlacementProxy corrected = correction.corrected();
      sources.add(rankedBy(measured, s -> corrected.latencyMicros(s.placement())));
      sources.add(rankedBy(measured, s -> costModel.latencyMicros(s.placement())));
    }
    Map<Placement, Integer> proposals = new HashMap<>();
    for (SearchStep s : outcome.steps()) {
      proposals.merge(s.placement(), 1, Integer::sum);
    }
    // Only placements proposed again: ranking the rest by one proposal each would just repeat the measured order.
    List<SearchStep> repeated = new ArrayList<>(measured);
    repeated.removeIf(s -> proposals.get(s.placement()) < 2);
    sources.add(rankedBy(repeated, s -> -proposals.get(s.placement())));
    Set<Placement> seen = new HashSet<>(exclude);
    List<SearchStep> out = new ArrayList<>();
    int[] next = new int[sources.size()];
    for (int turn = 0; out.size() < k && turn < sources.size() * measured.size(); turn++) {
      int source = turn % sources.size();
      // Each source skips what is already in, so every turn adds a placement while it has any left.
      while (next[source] < sources.get(source).size()) {
        SearchStep s = sources.get(source).get(next[source]++);
        if (seen.add(s.placement())) {
          out.add(s);
          break;
        }
      }
    }
    return out;
  }

  /** {@code steps} ordered by {@code key}, then by measured latency (they come fastest first; the sort is stable). */
  private static List<SearchStep> rankedBy(List<SearchStep> steps, ToDoubleFunction<SearchStep> key) {
    List<SearchStep> out = new ArrayList<>(steps);
    out.sort(Comparator.comparingDouble(key));
    return out;
  }
}
