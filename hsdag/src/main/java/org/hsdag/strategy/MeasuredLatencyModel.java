package org.hsdag.strategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.hsdag.coarsen.IntGraph;
import org.hsdag.placement.Placement;
import org.hsdag.plan.LatencyModel;
import org.hsdag.plan.LinearSystems;

/**
 * A latency model learned from a run's own measurements, for a search that has no cost model.
 * HETERO latency is close to additive, so a placement (a device per coarse node) is modelled as a
 * constant, plus a term per node on each device but the first, plus a term per coarse edge whose
 * ends are on different devices (its boundary copy), plus a term per device change along the
 * topological order (a sub-model start). The terms are fitted by ridge regression to latencies
 * relative to the median measured one. Each term is informed by every measurement that exercises
 * it, so the model ranks near-identical placements better than their single noisy measurements do
 * (a 2 % run-to-run spread hides the 0.1–1 % steps between neighbouring placements); a second fit
 * leaves out the measurements the first explains worst (outlier runs).
 */
final class MeasuredLatencyModel implements LatencyModel {
  /** Ridge strength per term: (relative noise of a measurement, ~1 %) / (typical term, ~2 %), squared. */
  static final double RIDGE = 0.25;
  /** Residuals beyond this many median absolute residuals are left out of the second fit. */
  static final double OUTLIER_MADS = 4.0;
  /**
   * The most terms a model may have: each fit is a dense solve, cubic in the terms (billions of
   * operations at 2,000, twice per episode); a larger coarse graph goes without a model. The
   * bundled models and IR samples stay below it (checked with 3 devices).
   */
  static final int MAX_TERMS = 2_000;

  private final int nodes;
  private final int devices;
  private final int[] order;
  private final int[] unitOf; // op -> coarse node; null when the nodes are the ops themselves
  private final int[] edgeSrc;
  private final int[] edgeDst;
  private final int changeTerm;
  private final List<int[]> placements = new ArrayList<>();
  private final Set<SegmentMoves.Key> seen = new HashSet<>();
  private final List<Double> millis = new ArrayList<>();
  private double[] theta; // relative to scale; null until fitted for the current observations
  private double scale;

  /**
   * @param quotient the coarse graph (parallel edges and self-loops count once or not at all)
   * @param order every coarse node once, producers before consumers
   */
  MeasuredLatencyModel(IntGraph quotient, int[] order, int devices) {
    this(quotient, order, devices, null);
  }

  /**
   * A model over coarse nodes that also reads whole placements: {@code unitOf[op]} is the op's
   * coarse node, whose device is that of its first op (a lifted placement puts all of them on one).
   */
  MeasuredLatencyModel(IntGraph quotient, int[] order, int devices, int[] unitOf) {
    this.unitOf = unitOf == null ? null : unitOf.clone();
    this.nodes = quotient.nodeCount();
    this.devices = devices;
    this.order = order.clone();
    long[] keys = new long[quotient.edgeCount()];
    int m = 0;
    for (int k = 0; k < quotient.edgeCount(); k++) {
      int s = quotient.src(k);
      int d = quotient.dst(k);
      if (s != d) {
        keys[m++] = (long) Math.min(s, d) * nodes + Math.max(s, d);
      }
    }
    long[] distinct = Arrays.stream(keys, 0, m).distinct().sorted().toArray();
    edgeSrc = new int[distinct.length];
    edgeDst = new int[distinct.length];
    for (int k = 0; k < distinct.length; k++) {
      edgeSrc[k] = (int) (distinct[k] / nodes);
      edgeDst[k] = (int) (distinct[k] % nodes);
    }
    changeTerm = 1 + nodes * (devices - 1) + distinct.length;
  }

  /**
   * Adds a measured placement and its latency. A non-positive or infinite latency is ignored, and so
   * is a placement observed before (a repeat is answered from the cache: no new evidence).
   */
  void observe(int[] deviceOf, double latencyMillis) {
    if (deviceOf.length != nodes) {
      throw new IllegalArgumentException("placement of " + deviceOf.length + " nodes, the model has " + nodes);
    }
    if (latencyMillis > 0 && Double.isFinite(latencyMillis) && seen.add(new SegmentMoves.Key(deviceOf))) {
      placements.add(deviceOf.clone());
      millis.add(latencyMillis);
      theta = null;
    }
  }

  /** Terms of the model: the constant, one per node and non-first device, one per coarse edge, one for device changes. */
  int terms() {
    return changeTerm + 1;
  }

  int observations() {
    return placements.size();
  }

  /** The placements observed, in order, and their latencies (for checkpoints). */
  List<int[]> observedPlacements() {
    return placements.stream().map(int[]::clone).toList();
  }

  double[] observedMillis() {
    return millis.stream().mapToDouble(Double::doubleValue).toArray();
  }

  @Override
  public void observe(Placement placement, double measuredMillis) {
    observe(units(placement), measuredMillis);
  }

  @Override
  public double predictMillis(Placement placement) {
    return predict(units(placement));
  }

  /** The device of each coarse node in {@code placement}: that of its first op. */
  int[] units(Placement placement) {
    if (unitOf == null) {
      return placement.deviceOf();
    }
    int[] out = new int[nodes];
    Arrays.fill(out, -1);
    for (int op = 0; op < unitOf.length; op++) {
      if (out[unitOf[op]] < 0) {
        out[unitOf[op]] = placement.deviceOf(op);
      }
    }
    return out;
  }

  /** Predicted latency in ms; NaN before any observation. */
  double predict(int[] deviceOf) {
    if (placements.isEmpty()) {
      return Double.NaN;
    }
    if (theta == null) {
      fit();
    }
    return relative(deviceOf) * scale;
  }

  /**
   * Up to {@code k} observed placements, fastest first by the mean of the model's prediction and
   * the placement's own measurement (two estimates of about equal noise near the optimum: averaged,
   * they rank better than either; ties: first observed first).
   */
  List<int[]> rankedObserved(int k) {
    double[] predicted = new double[placements.size()];
    for (int i = 0; i < predicted.length; i++) {
      predicted[i] = (predict(placements.get(i)) + millis.get(i)) / 2;
    }
    Integer[] index = new Integer[placements.size()];
    Arrays.setAll(index, i -> i);
    Arrays.sort(index, Comparator.comparingDouble(i -> predicted[i]));
    List<int[]> out = new ArrayList<>();
    for (int i = 0; i < Math.min(k, index.length); i++) {
      out.add(placements.get(index[i]).clone());
    }
    return out;
  }

  private double relative(int[] deviceOf) {
    Features f = features(deviceOf);
    double s = 0;
    for (int i = 0; i < f.size; i++) {
      s += theta[f.index[i]] * f.value[i];
    }
    return s;
  }

  /** The non-zero features of a placement: the constant, its nodes off device 0, its cut edges, its device changes. */
  private static final class Features {
    private final int[] index;
    private final double[] value;
    private final int size;

    Features(int[] index, double[] value, int size) {
      this.index = index;
      this.value = value;
      this.size = size;
    }
  }

  private Features features(int[] deviceOf) {
    int[] index = new int[2 + nodes + edgeSrc.length];
    double[] value = new double[index.length];
    int k = 0;
    index[k] = 0;
    value[k++] = 1;
    for (int v = 0; v < nodes; v++) {
      if (deviceOf[v] > 0) {
        index[k] = 1 + v * (devices - 1) + deviceOf[v] - 1;
        value[k++] = 1;
      }
    }
    int edgeBase = 1 + nodes * (devices - 1);
    for (int e = 0; e < edgeSrc.length; e++) {
      if (deviceOf[edgeSrc[e]] != deviceOf[edgeDst[e]]) {
        index[k] = edgeBase + e;
        value[k++] = 1;
      }
    }
    int changes = 0;
    for (int i = 1; i < order.length; i++) {
      if (deviceOf[order[i]] != deviceOf[order[i - 1]]) {
        changes++;
      }
    }
    if (changes > 0) {
      index[k] = changeTerm;
      value[k++] = changes;
    }
    return new Features(index, value, k);
  }

  private void fit() {
    double[] sorted = observedMillis();
    Arrays.sort(sorted);
    scale = sorted[sorted.length / 2];
    List<Features> x = placements.stream().map(this::features).toList();
    boolean[] keep = new boolean[x.size()];
    Arrays.fill(keep, true);
    theta = solve(x, keep);
    double[] residual = new double[x.size()];
    for (int i = 0; i < residual.length; i++) {
      residual[i] = Math.abs(millis.get(i) / scale - relative(placements.get(i)));
    }
    double[] r = residual.clone();
    Arrays.sort(r);
    double mad = r[r.length / 2];
    if (mad > 0) {
      for (int i = 0; i < keep.length; i++) {
        keep[i] = residual[i] <= OUTLIER_MADS * mad;
      }
      theta = solve(x, keep);
    }
  }

  /** Ridge normal equations (the constant not penalised). */
  private double[] solve(List<Features> x, boolean[] keep) {
    int p = changeTerm + 1;
    double[][] a = new double[p][p + 1];
    for (int i = 0; i < x.size(); i++) {
      if (!keep[i]) {
        continue;
      }
      Features f = x.get(i);
      double y = millis.get(i) / scale;
      for (int u = 0; u < f.size; u++) {
        a[f.index[u]][p] += f.value[u] * y;
        for (int w = 0; w < f.size; w++) {
          a[f.index[u]][f.index[w]] += f.value[u] * f.value[w];
        }
      }
    }
    for (int j = 1; j < p; j++) {
      a[j][j] += RIDGE;
    }
    return LinearSystems.solve(a, p, 0.0); // a constant with no observation kept stays 0
  }
}
