package org.hsdag.cli;

import org.hsdag.plan.Proxies;
import org.hsdag.tune.TuneResult;

/**
 * The planner's optimum on the run's cost model, beside the measured result.
 *
 * @param plannerMillis the planner's best placement, estimated on the cost model
 * @param source which cost model
 * @param measuredGapPercent how far the best measured latency is from that estimate
 */
record PlannerEstimate(double plannerMillis, String source, double measuredGapPercent) {
  static PlannerEstimate of(Proxies.Resolved proxy, TuneResult r) {
    double planned = new org.hsdag.plan.Planner().plan(proxy.proxy()).best().proxyMillis();
    double measured = r.best() == null ? Double.NaN : r.best().finalMs();
    return new PlannerEstimate(planned, proxy.source(), 100 * (measured / planned - 1));
  }
}
