package org.hsdag.bench.run;

import org.hsdag.placement.Placement;

/**
 * What one method did on one model with one seed: every measured latency in order (NaN for a
 * failed placement), the best-so-far curve, and the best placement found.
 *
 * @param method method name
 * @param seed the strategy's seed
 * @param latenciesMillis measured latency per proposal, NaN when the placement failed
 * @param bestSoFarMillis best latency after each measurement (+infinity until one succeeds)
 * @param best the best placement, or null when none succeeded
 * @param bestMillis its latency, or +infinity
 * @param failures how many proposals failed
 * @param wallMillis wall-clock time of the run (search plus measurement)
 */
public record RunTrace(
    String method,
    long seed,
    double[] latenciesMillis,
    double[] bestSoFarMillis,
    Placement best,
    double bestMillis,
    int failures,
    long wallMillis) {
  public RunTrace {
    latenciesMillis = latenciesMillis.clone();
    bestSoFarMillis = bestSoFarMillis.clone();
  }

  @Override
  public double[] latenciesMillis() {
    return latenciesMillis.clone();
  }

  @Override
  public double[] bestSoFarMillis() {
    return bestSoFarMillis.clone();
  }

  public int measurements() {
    return latenciesMillis.length;
  }
}
