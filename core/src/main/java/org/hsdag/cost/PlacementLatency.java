package org.hsdag.cost;

import java.util.List;
import org.hsdag.cost.HeteroCostModel.Evaluation;

/**
 * The evaluator of a {@link HeteroCostModel}: one noise-free HETERO inference of a placement (a
 * model device per op) on the model's tables, under HETERO's rules. Sub-models split as the model's
 * {@link HeteroSplit} splits them, run one after another: each pays its device's start cost, its
 * kernels are charged fused into their producer's kernel when both share a sub-model, and boundary
 * tensors are copied through host memory. Holds the model's tables (shared with it, never written)
 * as flat arrays that its loops read directly: the simulator's and the planners' hot path. Immutable.
 */
final class PlacementLatency {
  private final int nc;
  private final int deviceCount;
  private final int[] node;
  private final HeteroSplit split;
  /** Kernel time in µs, [device * nc + i]. */
  private final double[] time;
  /** Time when fused into {@code fuseInto[i]}'s kernel, [device * nc + i]. */
  private final double[] fusedTime;
  private final int[] fuseInto;
  private final boolean[] supported;
  private final int[] tensorProducer;
  private final double[] tensorBytes;
  private final int[] tensorConsumerStart;
  private final int[] tensorConsumer;
  private final int[] tensorResults;
  private final double[] linkLatency;
  private final double[] linkInvBandwidth;
  private final double[] subModelOverhead;
  /** Per device, the factor on its kernels when it runs the whole model alone ({@link HeteroDevice#aloneScale}). */
  private final double[] aloneScale;
  private final double requestOverhead;

  /** Over a model's tables, checked by it ({@link HeteroCostModel}'s constructor); shares the arrays. */
  PlacementLatency(List<HeteroDevice> devices, int[] node, double[] time, double[] fusedTime, int[] fuseInto,
      boolean[] supported, int[] tensorProducer, double[] tensorBytes, int[] tensorConsumerStart, int[] tensorConsumer,
      int[] tensorResults, double requestOverhead, HeteroSplit split) {
    this.nc = node.length;
    this.deviceCount = devices.size();
    this.node = node;
    this.split = split;
    this.time = time;
    this.fusedTime = fusedTime;
    this.fuseInto = fuseInto;
    this.supported = supported;
    this.tensorProducer = tensorProducer;
    this.tensorBytes = tensorBytes;
    this.tensorConsumerStart = tensorConsumerStart;
    this.tensorConsumer = tensorConsumer;
    this.tensorResults = tensorResults;
    this.requestOverhead = requestOverhead;
    linkLatency = new double[deviceCount];
    linkInvBandwidth = new double[deviceCount];
    subModelOverhead = new double[deviceCount];
    aloneScale = new double[deviceCount];
    for (int k = 0; k < deviceCount; k++) {
      HeteroDevice dev = devices.get(k);
      aloneScale[k] = dev.aloneScale();
      linkLatency[k] = dev.linkLatencyUs();
      linkInvBandwidth[k] = dev.linkMicrosPerByte();
      subModelOverhead[k] = dev.subModelOverheadUs();
    }
  }

  /** One boundary copy of {@code bytes} to or from {@code device}, µs. */
  double copyMicros(int device, double bytes) {
    return linkLatency[device] + bytes * linkInvBandwidth[device];
  }

  /** The start cost of one sub-model on {@code device}, µs. */
  double subModelOverhead(int device) {
    return subModelOverhead[device];
  }

  /** The failure of the first op its device cannot run, or null. */
  Evaluation unsupported(int[] dc) {
    if (dc.length != nc) {
      throw new IllegalArgumentException("placement has " + dc.length + " ops but the model has " + nc);
    }
    for (int i = 0; i < nc; i++) {
      if (!supported[dc[i] * nc + i]) {
        return Evaluation.failure(i, dc[i]);
      }
    }
    return null;
  }

  /**
   * A placement given per graph node ({@code deviceMap[deviceOfNode[node]]} is the model device),
   * mapped and checked for support in one pass: the simulator's hot path.
   */
  Evaluation ofNodes(int[] deviceOfNode, int[] deviceMap) {
    int[] dc = new int[nc];
    for (int i = 0; i < nc; i++) {
      dc[i] = deviceMap[deviceOfNode[node[i]]];
      if (!supported[dc[i] * nc + i]) {
        return Evaluation.failure(i, dc[i]);
      }
    }
    return evaluate(dc, new int[nc], new int[deviceCount], null);
  }

  /**
   * Split, kernels with fusion, overheads, copies of a placement whose devices run all their ops
   * ({@code parent}: work array; {@code subs}: zeroed per-device counts; {@code stamp}: zeroed work
   * array, or null for a fresh one).
   */
  Evaluation evaluate(int[] dc, int[] parent, int[] subs, int[] stamp) {
    int subModels = split.splitUnlessRefused(dc, parent, subs);
    if (subModels < 0) {
      return Evaluation.refused();
    }
    double total = requestOverhead;
    // Every sub-model pays its start, those without a kernel (a Result cut from its producer) included.
    for (int d = 0; d < subs.length; d++) {
      total += subs[d] * subModelOverhead[d];
    }
    double kernels = 0;
    for (int i = 0; i < nc; i++) {
      int r = parent[i];
      int f = fuseInto[i];
      kernels += f >= 0 && parent[f] == r ? fusedTime[dc[i] * nc + i] : time[dc[i] * nc + i];
    }
    int alone = CostTerms.onlyDevice(subs);
    total += alone >= 0 ? kernels * aloneScale[alone] : kernels;
    // A fresh stamp array is allocated only now: allocating it before the split measurably slows the simulator.
    total += transfers(dc, parent, stamp != null ? stamp : new int[nc], null);
    return new Evaluation(true, total, subModels, -1, -1);
  }

  /** The {@link CostTerms} of a placement (support is not checked). */
  CostTerms terms(int[] dc) {
    int[] parent = new int[nc];
    int[] subs = new int[deviceCount];
    split.split(dc, parent, subs);
    double[] op = new double[nc];
    int alone = CostTerms.onlyDevice(subs);
    double factor = alone >= 0 ? aloneScale[alone] : 1.0;
    for (int i = 0; i < nc; i++) {
      int r = parent[i];
      int f = fuseInto[i];
      op[i] = factor * (f >= 0 && parent[f] == r ? fusedTime[dc[i] * nc + i] : time[dc[i] * nc + i]);
    }
    double[] copies = new double[deviceCount];
    transfers(dc, parent, new int[nc], copies);
    return new CostTerms(op, copies, subs, requestOverhead);
  }

  /**
   * Boundary copies through host memory: the producer's device copies a tensor out once if any
   * consumer sits in another sub-model (or it is a model output); each other consumer sub-model
   * copies it in once. Model inputs start in host memory. {@code byDevice}, when not null, gets
   * each device's share.
   */
  private double transfers(int[] dc, int[] root, int[] stamp, double[] byDevice) {
    // stamp[c] == t + 1 once tensor t has been copied into sub-model c (a fresh array is all zero).
    double total = 0;
    int tensors = tensorProducer.length;
    for (int t = 0; t < tensors; t++) {
      int p = tensorProducer[t];
      int pc = p >= 0 ? root[p] : -1;
      double bytes = tensorBytes[t];
      boolean crossed = false;
      for (int j = tensorConsumerStart[t]; j < tensorConsumerStart[t + 1]; j++) {
        int c = tensorConsumer[j];
        int cc = root[c];
        if (cc != pc && stamp[cc] != t + 1) {
          stamp[cc] = t + 1;
          int d = dc[c];
          double cost = linkLatency[d] + bytes * linkInvBandwidth[d];
          total += cost;
          if (byDevice != null) {
            byDevice[d] += cost;
          }
          crossed = true;
        }
      }
      if (p >= 0 && (crossed || tensorResults[t] > 0)) {
        int d = dc[p];
        double cost = linkLatency[d] + bytes * linkInvBandwidth[d];
        total += cost;
        if (byDevice != null) {
          byDevice[d] += cost;
        }
      }
    }
    return total;
  }
}
