package org.hsdag.search;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.hsdag.placement.Placement;

/**
 * What a search did.
 *
 * @param stop why it stopped
 * @param stopText the same for humans, with the numbers
 * @param steps every step in order (replayed ones included)
 * @param measurements distinct placements measured
 * @param cacheHits proposals answered from the cache
 * @param failures measurements that failed
 * @param atBatchBoundary whether the strategy was told its last batch whole (its state may be saved)
 */
public record SearchOutcome(StopReason stop, String stopText, List<SearchStep> steps, int measurements, int cacheHits,
    int failures, boolean atBatchBoundary) {
  public SearchOutcome {
    steps = List.copyOf(steps);
  }

  /** Measured (not cached) successful steps, fastest first, ties by step. */
  public List<SearchStep> ranked() {
    List<SearchStep> out = new ArrayList<>();
    for (SearchStep s : steps) {
      if (!s.cached() && s.measurement().ok()) {
        out.add(s);
      }
    }
    out.sort(Comparator.comparingDouble(SearchStep::latencyMillis).thenComparingInt(SearchStep::index));
    return out;
  }

  /** The {@code k} fastest distinct placements measured, leaving out {@code exclude}. */
  public List<SearchStep> top(int k, Set<Placement> exclude) {
    Set<Placement> seen = new HashSet<>(exclude);
    List<SearchStep> out = new ArrayList<>();
    for (SearchStep s : ranked()) {
      if (out.size() >= k) {
        break;
      }
      if (seen.add(s.placement())) {
        out.add(s);
      }
    }
    return out;
  }

  /** The fastest measured step, or null when none succeeded. */
  public SearchStep best() {
    List<SearchStep> r = ranked();
    return r.isEmpty() ? null : r.get(0);
  }

  /** Best latency after each measurement (cache hits and memory refusals add no point; +∞ until one succeeds). */
  public double[] bestSoFarPerMeasurement() {
    double[] out = new double[measurements];
    double best = Double.POSITIVE_INFINITY;
    int i = 0;
    for (SearchStep s : steps) {
      if (!s.spentMeasurement()) {
        continue;
      }
      if (s.measurement().ok()) {
        best = Math.min(best, s.measurement().latencyMillis());
      }
      out[i++] = best;
    }
    return out;
  }
}
