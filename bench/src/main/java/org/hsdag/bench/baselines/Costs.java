package org.hsdag.bench.baselines;

import org.hsdag.backend.Measurement;

/** How baselines turn a measurement into a cost to minimise: a failed placement costs +infinity. */
final class Costs {
  private Costs() {}

  static double of(Measurement m) {
    return m.ok() && Double.isFinite(m.latencyMillis()) ? m.latencyMillis() : Double.POSITIVE_INFINITY;
  }
}
