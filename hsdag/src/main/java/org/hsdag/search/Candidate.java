package org.hsdag.search;

import java.util.List;
import org.hsdag.placement.Placement;

/**
 * A placement that took part in the final re-measurement: a single-device baseline, one of the
 * search's best, or the placement {@code apply} checks.
 *
 * @param label {@code CPU-only}, {@code GPU.1-only}, {@code step 137} for a search placement, ...
 * @param baseline whether it is a single-device baseline
 * @param placement the placement
 * @param step the search step that found it, or -1
 * @param searchMs its latency when first measured (NaN when that failed or never happened)
 * @param finalMs median of its final round latencies (NaN when it failed or was not re-measured)
 * @param ciLowMs 95% CI of the mean of the final round latencies, lower end (NaN if unknown)
 * @param ciHighMs upper end of that CI
 * @param roundsMs each final round's latency, in round order
 * @param samples final samples pooled
 * @param subModels HETERO sub-models it compiles into (0 when unknown)
 * @param reason why it failed, or null
 */
public record Candidate(
    String label,
    boolean baseline,
    Placement placement,
    int step,
    double searchMs,
    double finalMs,
    double ciLowMs,
    double ciHighMs,
    List<Double> roundsMs,
    int samples,
    int subModels,
    String reason) {

  public Candidate {
    roundsMs = List.copyOf(roundsMs);
  }

  /** Final rounds that succeeded. */
  public int rounds() {
    return roundsMs.size();
  }

  /** True when it has a final latency. */
  public boolean ok() {
    return !Double.isNaN(finalMs);
  }

  /** True when {@code this}'s interval lies entirely below {@code other}'s, or, without intervals, it is faster. */
  public boolean clearlyFasterThan(Candidate other) {
    if (Double.isNaN(ciHighMs) || Double.isNaN(other.ciLowMs)) {
      return finalMs < other.finalMs;
    }
    return ciHighMs < other.ciLowMs;
  }
}
