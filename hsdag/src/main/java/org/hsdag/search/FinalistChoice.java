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
import org.hsdag.plan.LatencyModel;

/**
 * Which measured placements go on to the final re-measurement. Ranking by one noisy measurement
 * alone suffers the winner's curse: among many near ties the luckiest measurements win, and one
 * unlucky measurement of the best placement keeps it out of the race. So the slots go in turn to
 * the fastest measured, the fastest by the median of its runs (robust to one outlier run), the
 * strategy's own favourites ({@link SearchStrategy#favourites}, e.g. by a latency model fitted to
 * all its measurements), the fastest by the cost model corrected on every measurement of the run
 * ({@link LatencyModel#correction}) and by the cost model as given (a correction can fit one bad
 * measurement) when there is one, and the placements the search proposed again, most often first (a
 * learned policy that keeps returning to a placement despite its measurement has evidence from its
 * neighbours). Each placement gets in on any of these; the race decides on measurements, with the
 * corrected model weighing in only on near ties ({@link #prediction}).
 */
public final class FinalistChoice {
  private FinalistChoice() {}

  /** {@link #choose(SearchOutcome, int, Set, LatencyModel, List)} for a strategy without favourites. */
  public static List<SearchStep> choose(SearchOutcome outcome, int k, Set<Placement> exclude,
      LatencyModel costModel) {
    return choose(outcome, k, exclude, costModel, List.of());
  }

  /**
   * Up to {@code k} distinct measured placements, leaving out {@code exclude}: in turn the next
   * fastest measured, by the median of its runs, the next of the strategy's {@code favourites} (best
   * first; those never measured are skipped), by the corrected and by the given {@code costModel} (when not null) and the next
   * most often proposed of those proposed more than once.
   */
  public static List<SearchStep> choose(SearchOutcome outcome, int k, Set<Placement> exclude, LatencyModel costModel,
      List<Placement> favourites) {
    List<SearchStep> measured = outcome.ranked();
    List<List<SearchStep>> sources = new ArrayList<>();
    sources.add(measured);
    // The median of a measurement's runs: one outlier run (an OS hiccup) can make the protocol's
    // mean of the best placement look 5-30 % slower and keep it out of every other source.
    sources.add(rankedBy(measured, s -> s.measurement().samplesMillis().length == 0 ? s.latencyMillis()
        : SearchEngine.median(s.measurement().samplesMillis())));
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
      LatencyModel corrected = corrected(outcome, costModel);
      sources.add(rankedBy(measured, s -> corrected.predictMillis(s.placement())));
      sources.add(rankedBy(measured, s -> costModel.predictMillis(s.placement())));
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

  /**
   * {@code costModel} corrected by every successful measurement of the search ({@link
   * LatencyModel#correction}); the model itself when it has no correction.
   */
  public static LatencyModel corrected(SearchOutcome outcome, LatencyModel costModel) {
    return correctedBy(outcome.ranked(), -1, costModel);
  }

  /** A correction of {@code costModel} fed {@code measured} but its {@code leftOut}-th (-1: none); the model when it has none. */
  private static LatencyModel correctedBy(List<SearchStep> measured, int leftOut, LatencyModel costModel) {
    LatencyModel correction = costModel.correction().orElse(null);
    if (correction == null) {
      return costModel;
    }
    for (int j = 0; j < measured.size(); j++) {
      if (j != leftOut) {
        correction.observe(measured.get(j).placement(), measured.get(j).latencyMillis());
      }
    }
    return correction;
  }

  /**
   * {@link #corrected} as a {@link Prediction}. Its typical error is the root mean square of its
   * leave-one-out log errors on the run's measurements (each predicted by the model corrected on all
   * the others): with about as many measurements as multipliers, the model fits its own data almost
   * exactly, so only an error on data it has not seen says how far to trust it. Unknown with fewer
   * than 3 measurements.
   */
  public static Prediction prediction(SearchOutcome outcome, LatencyModel costModel) {
    List<SearchStep> measured = outcome.ranked();
    double sum = 0;
    int n = 0;
    for (int i = 0; i < measured.size() && measured.size() >= 3; i++) {
      LatencyModel others = correctedBy(measured, i, costModel);
      SearchStep s = measured.get(i);
      double r = Math.log(s.latencyMillis() / others.predictMillis(s.placement()));
      if (Double.isFinite(r)) {
        sum += r * r;
        n++;
      }
    }
    double error = n >= 3 ? Math.sqrt(sum / n) : Double.POSITIVE_INFINITY;
    LatencyModel corrected = corrected(outcome, costModel);
    return new Prediction(p -> corrected.predictMillis(p) * 1000, error > 0 ? error : Double.MIN_NORMAL);
  }

  /** {@code steps} ordered by {@code key}, then by measured latency (they come fastest first; the sort is stable). */
  private static List<SearchStep> rankedBy(List<SearchStep> steps, ToDoubleFunction<SearchStep> key) {
    List<SearchStep> out = new ArrayList<>(steps);
    out.sort(Comparator.comparingDouble(key));
    return out;
  }
}
