package org.hsdag.cost;

import java.util.List;

/** The consistency a {@link HeteroCostModel}'s raw tables must have, checked before it takes them. */
final class CostTableChecks {
  private CostTableChecks() {}

  /** Ops in topological order: predecessors and fusion producers come earlier. */
  static void checkOps(int nc, int[] predStart, int[] pred, int[] fuseInto) {
    for (int i = 0; i < nc; i++) {
      for (int j = predStart[i]; j < predStart[i + 1]; j++) {
        if (pred[j] < 0 || pred[j] >= i) {
          throw new IllegalArgumentException(
              "op " + i + " has predecessor " + pred[j] + ": ops must be in topological order");
        }
      }
      if (fuseInto[i] >= i) {
        throw new IllegalArgumentException("op " + i + " fuses into later op " + fuseInto[i]);
      }
    }
  }

  /** Every tensor's producer is an op or -1 (a model input), its bytes >= 0, its consumers ops. */
  static void checkTensors(int nc, int[] tensorProducer, double[] tensorBytes, int[] tensorConsumer) {
    for (int t = 0; t < tensorProducer.length; t++) {
      if (tensorProducer[t] < -1 || tensorProducer[t] >= nc || !(tensorBytes[t] >= 0)) {
        throw new IllegalArgumentException("tensor " + t + ": bad producer or bytes");
      }
    }
    for (int c : tensorConsumer) {
      if (c < 0 || c >= nc) {
        throw new IllegalArgumentException("tensor consumer " + c + " is not an op");
      }
    }
  }

  /** Kernel and fused times, [device * nc + op], are finite and >= 0. */
  static void checkTimes(int nc, List<HeteroDevice> devices, double[] time, double[] fusedTime) {
    for (int k = 0; k < time.length; k++) {
      if (!(time[k] >= 0) || !(fusedTime[k] >= 0) || Double.isInfinite(time[k]) || Double.isInfinite(fusedTime[k])) {
        throw new IllegalArgumentException(
            "op " + (k % Math.max(nc, 1)) + " on " + devices.get(k / Math.max(nc, 1)).name()
                + ": kernel times must be finite and >= 0");
      }
    }
  }
}
