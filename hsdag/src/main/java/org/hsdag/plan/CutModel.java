package org.hsdag.plan;

import org.hsdag.cost.HeteroCostModel;

/**
 * The planner's additive approximation of a {@link HeteroCostModel}, the energy its minimum cuts
 * minimise exactly (two devices) or approximately (α-expansion). For a device per op:
 *
 * <pre>
 * E = Σ_i time_i(d_i)                                   kernels (+∞ where d_i cannot run op i)
 *   − Σ_{i fuses into f, d_i = d_f} saving_i(d_i)       fusion when both stay on one device
 *   + Σ_tensors out(d_p) · [results ∨ ∃ consumer c: d_c ≠ d_p]
 *             + Σ_{d ≠ d_p} in_λ(d) · [∃ consumer c: d_c = d]
 * </pre>
 *
 * where saving = max(0, time − fused time), out(d) and in(d) are one boundary copy to or from
 * device d, and {@code in_λ(d) = in(d) + λ · subModelOverhead(d)}: entering a device usually
 * starts a sub-model there, so λ weighs the (non-additive) sub-model start cost onto the copies.
 * A model input (no producer) pays only the copies in. It differs from the exact evaluator in
 * treating same-device neighbours as one sub-model (no cycle-breaking cuts) and in approximating
 * sub-model starts by λ; the constant request overhead is left out.
 */
final class CutModel {
  final HeteroCostModel model;
  final double lambda;
  final int ops;
  final int devices;
  /** Per tensor: copy cost out of / into each device, [t * devices + d]. */
  final double[] out;
  final double[] in;
  /** Ops' tensors: produced (CSR) and consumed (CSR, each tensor once per op). */
  final int[] producedStart;
  final int[] produced;
  final int[] consumedStart;
  final int[] consumed;
  /** Ops fusing into each op (CSR). */
  final int[] fusedByStart;
  final int[] fusedBy;
  /** Lagrangian memory prices: op i on device d costs {@code price[d] * bytes[i]} more (null: none). */
  private final long[] bytes;
  private final double[] price;

  CutModel(HeteroCostModel model, double lambda) {
    this(model, lambda, null, null);
  }

  /** A cut model whose op i costs {@code price[d]} µs per byte of {@code bytes[i]} more on device d. */
  CutModel(HeteroCostModel model, double lambda, long[] bytes, double[] price) {
    if (!(lambda >= 0) || Double.isInfinite(lambda)) {
      throw new IllegalArgumentException("sub-model weight must be >= 0 (got " + lambda + ")");
    }
    this.model = model;
    this.lambda = lambda;
    this.bytes = bytes;
    this.price = price;
    ops = model.opCount();
    devices = model.deviceCount();
    int tensors = model.tensorCount();
    out = new double[tensors * devices];
    in = new double[tensors * devices];
    for (int t = 0; t < tensors; t++) {
      for (int d = 0; d < devices; d++) {
        double copy = model.copyMicros(d, model.tensorBytes(t));
        out[t * devices + d] = copy;
        in[t * devices + d] = copy + lambda * model.subModelOverhead(d);
      }
    }
    producedStart = new int[ops + 1];
    consumedStart = new int[ops + 1];
    fusedByStart = new int[ops + 1];
    int[] stamp = new int[ops];
    for (int t = 0; t < tensors; t++) {
      int p = model.tensorProducer(t);
      if (p >= 0) {
        producedStart[p + 1]++;
      }
      for (int k = 0; k < model.tensorConsumerCount(t); k++) {
        int c = model.tensorConsumer(t, k);
        if (stamp[c] != t + 1) {
          stamp[c] = t + 1;
          consumedStart[c + 1]++;
        }
      }
    }
    for (int i = 0; i < ops; i++) {
      if (model.fuseInto(i) >= 0) {
        fusedByStart[model.fuseInto(i) + 1]++;
      }
    }
    for (int i = 0; i < ops; i++) {
      producedStart[i + 1] += producedStart[i];
      consumedStart[i + 1] += consumedStart[i];
      fusedByStart[i + 1] += fusedByStart[i];
    }
    produced = new int[producedStart[ops]];
    consumed = new int[consumedStart[ops]];
    fusedBy = new int[fusedByStart[ops]];
    int[] pf = java.util.Arrays.copyOf(producedStart, ops);
    int[] cf = java.util.Arrays.copyOf(consumedStart, ops);
    int[] ff = java.util.Arrays.copyOf(fusedByStart, ops);
    java.util.Arrays.fill(stamp, 0);
    for (int t = 0; t < tensors; t++) {
      int p = model.tensorProducer(t);
      if (p >= 0) {
        produced[pf[p]++] = t;
      }
      for (int k = 0; k < model.tensorConsumerCount(t); k++) {
        int c = model.tensorConsumer(t, k);
        if (stamp[c] != t + 1) {
          stamp[c] = t + 1;
          consumed[cf[c]++] = t;
        }
      }
    }
    for (int i = 0; i < ops; i++) {
      if (model.fuseInto(i) >= 0) {
        fusedBy[ff[model.fuseInto(i)]++] = i;
      }
    }
  }

  /** Kernel time of op i on d, +∞ when d cannot run it. */
  double unary(int i, int d) {
    if (!model.supported(i, d)) {
      return Double.POSITIVE_INFINITY;
    }
    return price == null ? model.micros(i, d) : model.micros(i, d) + price[d] * bytes[i];
  }

  /** Fusion saving of op i on device d when it shares d with the op it fuses into. */
  double saving(int i, int d) {
    return Math.max(0, model.micros(i, d) - model.fusedMicros(i, d));
  }

  /** The fusion term of op i (which has a fuse target) under the devices di, df. */
  double fusionTerm(int i, int di, int df) {
    return di == df ? -saving(i, di) : 0;
  }

  /** The term of tensor t under {@code label} (device per op). */
  double tensorTerm(int t, int[] label) {
    int p = model.tensorProducer(t);
    int lp = p >= 0 ? label[p] : -1;
    int n = model.tensorConsumerCount(t);
    long seen = 0;
    boolean crossed = false;
    for (int k = 0; k < n; k++) {
      int lc = label[model.tensorConsumer(t, k)];
      if (lc != lp) {
        crossed = true;
        seen |= 1L << lc;
      }
    }
    double cost = 0;
    int base = t * devices;
    if (p >= 0 && (crossed || model.tensorResults(t) > 0)) {
      cost += out[base + lp];
    }
    for (long s = seen; s != 0; s &= s - 1) {
      cost += in[base + Long.numberOfTrailingZeros(s)];
    }
    return cost;
  }

  /** The energy of a whole labeling (without the constant request overhead). */
  double energy(int[] label) {
    double e = 0;
    for (int i = 0; i < ops; i++) {
      e += unary(i, label[i]);
      int f = model.fuseInto(i);
      if (f >= 0) {
        e += fusionTerm(i, label[i], label[f]);
      }
    }
    for (int t = 0; t < model.tensorCount(); t++) {
      e += tensorTerm(t, label);
    }
    return e;
  }
}
