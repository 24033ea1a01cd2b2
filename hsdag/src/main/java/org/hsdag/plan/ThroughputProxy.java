package org.hsdag.plan;

import org.hsdag.cost.HeteroCostModel;
import org.hsdag.throughput.PipelineStages;
import org.hsdag.throughput.PipelineThroughput;

/**
 * The throughput objective on a cost model: a placement's figure is its time per inference with N
 * requests in flight ({@link PipelineThroughput}), so the same "smaller is better" machinery (the
 * planner, the correction, the veto, the finalists) maximises inferences per second.
 */
final class ThroughputProxy {
  private ThroughputProxy() {}

  /** {@code latency} (a successful evaluation of {@code opDevices}) with the time per inference as its figure. */
  static HeteroCostModel.Evaluation evaluation(HeteroCostModel model, int[] opDevices, int requests,
      HeteroCostModel.Evaluation latency) {
    double period = PipelineThroughput.simulatedPeriodMicros(PipelineStages.of(model, opDevices), requests);
    return new HeteroCostModel.Evaluation(true, period, latency.subModels(), -1, -1);
  }

  /**
   * A placement's cost-model terms ({@link CostCorrection}'s features: kernel groups per device,
   * then copies per device, then sub-model starts per device, then the constant) linearised for the
   * time per inference: the terms of the busiest device alone, or every term over {@code requests}
   * when one inference's latency over the requests in flight is larger (Little's law).
   */
  static double[] linearised(double[] x, int devices, int groups, int requests) {
    double[] load = new double[devices];
    double latency = 0;
    for (int j = 0; j < x.length; j++) {
      latency += x[j];
      int d = deviceOf(j, devices, groups);
      if (d >= 0) {
        load[d] += x[j];
      }
    }
    int busiest = 0;
    for (int d = 1; d < devices; d++) {
      if (load[d] > load[busiest]) {
        busiest = d;
      }
    }
    double[] out = new double[x.length];
    if (latency / requests > load[busiest]) {
      for (int j = 0; j < x.length; j++) {
        out[j] = x[j] / requests;
      }
      return out;
    }
    for (int j = 0; j < x.length; j++) {
      out[j] = deviceOf(j, devices, groups) == busiest ? x[j] : 0;
    }
    return out;
  }

  /** The device a feature index belongs to, or -1 for the constant. */
  private static int deviceOf(int j, int devices, int groups) {
    if (j < devices * groups) {
      return j / groups;
    }
    j -= devices * groups;
    return j < 2 * devices ? j % devices : -1;
  }
}
