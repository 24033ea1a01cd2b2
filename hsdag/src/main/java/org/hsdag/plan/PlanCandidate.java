package org.hsdag.plan;

import org.hsdag.placement.Placement;

/**
 * One placement a {@link Planner} proposes.
 *
 * @param placement the placement of the whole graph (followers resolved)
 * @param proxyMicros its latency on the proxy, µs
 * @param subModels its number of HETERO sub-models on the proxy
 * @param origin how it was found, e.g. {@code cut CPU+GPU.1 λ=1 + local search}, {@code single GPU.1}
 */
public record PlanCandidate(Placement placement, double proxyMicros, int subModels, String origin) {
  /** The proxy latency in milliseconds. */
  public double proxyMillis() {
    return proxyMicros / 1000.0;
  }
}
