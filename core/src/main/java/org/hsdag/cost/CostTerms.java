package org.hsdag.cost;

/** Where a feasible placement's latency goes, the terms {@link HeteroCostModel#evaluate} adds up. Immutable. */
public final class CostTerms {
  private final double[] opMicros;
  private final double[] copyMicros;
  private final int[] subModels;
  private final double requestMicros;

  /**
   * @param opMicros each op's kernel time as charged (fused into its producer's kernel or not)
   * @param copyMicros boundary-copy time charged to each device
   * @param subModels sub-models on each device
   * @param requestMicros the per-request overhead
   */
  public CostTerms(double[] opMicros, double[] copyMicros, int[] subModels, double requestMicros) {
    this.opMicros = opMicros.clone();
    this.copyMicros = copyMicros.clone();
    this.subModels = subModels.clone();
    this.requestMicros = requestMicros;
  }

  /** Kernel time charged to model op {@code op}. */
  public double opMicros(int op) {
    return opMicros[op];
  }

  /** Boundary-copy time charged to device {@code device}. */
  public double copyMicros(int device) {
    return copyMicros[device];
  }

  /** Sub-models on device {@code device}. */
  public int subModels(int device) {
    return subModels[device];
  }

  public double requestMicros() {
    return requestMicros;
  }

  /** The device every sub-model runs on (a placement on one device alone), or -1 when several have sub-models. */
  static int onlyDevice(int[] subModels) {
    int only = -1;
    for (int d = 0; d < subModels.length; d++) {
      if (subModels[d] > 0) {
        if (only >= 0) {
          return -1;
        }
        only = d;
      }
    }
    return only;
  }
}
