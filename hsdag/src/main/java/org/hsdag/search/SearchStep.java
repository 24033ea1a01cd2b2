package org.hsdag.search;

import org.hsdag.backend.Measurement;
import org.hsdag.cost.HeteroRefusal;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.placement.Placement;

/**
 * One proposal of a search and its measurement.
 *
 * @param index position in the search (0-based, cache hits included)
 * @param placement the proposed placement
 * @param measurement its measurement (failed ones included)
 * @param cached whether it was answered from the cache (no measurement spent)
 */
public record SearchStep(int index, Placement placement, Measurement measurement, boolean cached) {
  /** Whether it cost a measurement: not a cache hit, nor a placement the memory model refused before running it. */
  public boolean spentMeasurement() {
    return !cached && (measurement.ok() || (!measurement.reason().startsWith(MemoryCheck.REJECTED)
        && !measurement.reason().startsWith(HeteroRefusal.PREFIX)
        && !measurement.reason().startsWith(LearnedRefusals.PREFIX)));
  }

  /** Its latency, NaN when it failed. */
  public double latencyMillis() {
    return measurement.ok() ? measurement.latencyMillis() : Double.NaN;
  }
}
