package org.hsdag.arch.layered.search;

import org.hsdag.plan.LatencyModel;
import org.hsdag.plan.Planner;

/** A deliberate layer violation, for {@code LayerRulesTest}: the search calling the planner, not a latency model. */
public final class PlansByItself {
  public Planner planner(LatencyModel model) {
    return new Planner();
  }
}
