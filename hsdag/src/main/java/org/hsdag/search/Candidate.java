package org.hsdag.search;

import org.hsdag.placement.Placement;

/**
 * A placement that took part in the final re-measurement: a single-device baseline or one of the
 * search's best.
 *
 * @param label {@code CPU-only}, {@code GPU.1-only}, or {@code step 137} for a search placement
 * @param baseline whether it is a single-device baseline
 * @param placement the placement
 * @param step the search step that found it, or -1 for a baseline
 * @param searchMs its latency when first measured (NaN when that failed)
 * @param finalMs median of its final round latencies (NaN when it failed or was not re-measured)
 * @param ciLowMs 95% CI of the mean of the final round latencies, lower end (NaN if unknown)
 * @param ciHighMs upper end of that CI
 * @param rounds final rounds that succeeded
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
    int rounds,
    int samples,
    int subModels,
    String reason) {

  /** True when it has a final latency. */
  public boolean ok() {
    return !Double.isNaN(finalMs);
  }
}
