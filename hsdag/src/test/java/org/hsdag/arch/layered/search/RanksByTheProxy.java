package org.hsdag.arch.layered.search;

import org.hsdag.placement.Placement;
import org.hsdag.plan.PlacementProxy;

/**
 * A deliberate layer violation, for {@code LayerRulesTest}: the search ranking by the concrete cost
 * model, not by {@code LatencyModel#predictMillis}.
 */
public final class RanksByTheProxy {
  public double rank(PlacementProxy proxy, Placement p) {
    return proxy.latencyMicros(p);
  }
}
