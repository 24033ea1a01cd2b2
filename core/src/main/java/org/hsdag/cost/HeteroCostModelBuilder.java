package org.hsdag.cost;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Collects a {@link HeteroCostModel} op by op: ops in topological order (predecessors first), their
 * times per device, fusion, and boundary tensors. For tests and for sources that are not an
 * {@link org.hsdag.ir.OpGraph}. Start with {@link HeteroCostModel#builder}.
 */
public final class HeteroCostModelBuilder {
  private final List<HeteroDevice> devices;
  private final double requestOverhead;
  private final List<int[]> preds = new ArrayList<>();
  private final List<Integer> nodes = new ArrayList<>();
  private final List<double[]> times = new ArrayList<>();
  private final List<double[]> fused = new ArrayList<>();
  private final List<boolean[]> support = new ArrayList<>();
  private final List<Integer> fuse = new ArrayList<>();
  private final List<int[]> tensorConsumers = new ArrayList<>();
  private final List<double[]> tensorInfo = new ArrayList<>();

  HeteroCostModelBuilder(List<HeteroDevice> devices, double requestOverhead) {
    this.devices = List.copyOf(devices);
    this.requestOverhead = requestOverhead;
  }

  /**
   * Adds an op (graph node {@code node}) with stand-alone times per device ({@code micros[d]}),
   * supported on every device, not fusing. Returns its op index.
   */
  public int op(int node, double[] micros, int... predecessors) {
    int i = nodes.size();
    for (int p : predecessors) {
      if (p < 0 || p >= i) {
        throw new IllegalArgumentException("op " + i + ": predecessor " + p + " must be an earlier op");
      }
    }
    if (micros.length != devices.size()) {
      throw new IllegalArgumentException(
          "op " + i + ": " + micros.length + " times for " + devices.size() + " devices");
    }
    nodes.add(node);
    preds.add(predecessors.clone());
    times.add(micros.clone());
    fused.add(micros.clone());
    boolean[] s = new boolean[devices.size()];
    Arrays.fill(s, true);
    support.add(s);
    fuse.add(-1);
    return i;
  }

  /** Op {@code op} fuses into {@code producer} (one of its predecessors) with these fused times. */
  public HeteroCostModelBuilder fuse(int op, int producer, double[] fusedMicros) {
    if (producer < 0 || producer >= op) {
      throw new IllegalArgumentException("op " + op + " can only fuse into an earlier op");
    }
    fuse.set(op, producer);
    fused.set(op, fusedMicros.clone());
    return this;
  }

  /** Device {@code device} cannot run op {@code op}. */
  public HeteroCostModelBuilder unsupported(int op, int device) {
    support.get(op)[device] = false;
    return this;
  }

  /** A boundary tensor of {@code bytes} from {@code producer} (-1: a model input) to ops and Results. */
  public HeteroCostModelBuilder tensor(int producer, double bytes, int results, int... consumers) {
    tensorConsumers.add(consumers.clone());
    tensorInfo.add(new double[] {producer, bytes, results});
    return this;
  }

  public HeteroCostModel build() {
    int nc = nodes.size();
    int devs = devices.size();
    int[] node = new int[nc];
    int[] predStart = new int[nc + 1];
    for (int i = 0; i < nc; i++) {
      node[i] = nodes.get(i);
      predStart[i + 1] = predStart[i] + preds.get(i).length;
    }
    int[] pred = new int[predStart[nc]];
    double[] t = new double[devs * nc];
    double[] f = new double[devs * nc];
    boolean[] s = new boolean[devs * nc];
    int[] fuseInto = new int[nc];
    for (int i = 0; i < nc; i++) {
      System.arraycopy(preds.get(i), 0, pred, predStart[i], preds.get(i).length);
      fuseInto[i] = fuse.get(i);
      for (int d = 0; d < devs; d++) {
        t[d * nc + i] = times.get(i)[d];
        f[d * nc + i] = fused.get(i)[d];
        s[d * nc + i] = support.get(i)[d];
      }
    }
    int tensors = tensorInfo.size();
    int[] producer = new int[tensors];
    double[] bytes = new double[tensors];
    int[] results = new int[tensors];
    int[] start = new int[tensors + 1];
    for (int k = 0; k < tensors; k++) {
      producer[k] = (int) tensorInfo.get(k)[0];
      bytes[k] = tensorInfo.get(k)[1];
      results[k] = (int) tensorInfo.get(k)[2];
      start[k + 1] = start[k] + tensorConsumers.get(k).length;
    }
    int[] consumers = new int[start[tensors]];
    for (int k = 0; k < tensors; k++) {
      System.arraycopy(tensorConsumers.get(k), 0, consumers, start[k], tensorConsumers.get(k).length);
    }
    int maxNode = -1;
    for (int v : node) {
      maxNode = Math.max(maxNode, v);
    }
    return new HeteroCostModel(devices, maxNode + 1, node, predStart, pred, t, f, fuseInto, s, producer, bytes, start,
        consumers, results, requestOverhead, HeteroSplit.ofOps(predStart, pred, producer, start, consumers, results));
  }
}
