package org.hsdag.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.cost.CostTerms;
import org.hsdag.placement.Placement;
import org.hsdag.cost.HeteroCostModel;

/**
 * A cost model corrected by measurements. The additive model's terms are grouped (per device: the
 * kernels of each of the costliest op types and of all other ops, boundary copies, sub-model
 * starts); each group gets a multiplier fitted to the measured latencies by ridge regression
 * towards 1 (relative errors, so small and large placements weigh alike). With no measurement the
 * correction is the identity; every measurement pulls the groups it exercises towards the truth.
 * The corrected model is what the planner re-plans on: the measured phase exists to fix the cost
 * model's errors, not to search blindly.
 *
 * <p>A start or copy cost the model sets to 0 (a cost model that never measured a split) cannot be
 * corrected by a multiplier alone: such a term is priced at a nominal cost ({@value #NOMINAL_START_US}
 * µs per sub-model, {@value #NOMINAL_COPY_US} µs per copy) whose multiplier starts at 0 (the
 * uncorrected model is unchanged) and may grow to {@value #MAX_NOMINAL_SCALE}: the measurements
 * decide what splits cost.
 */
public final class CostCorrection implements LatencyModel {
  /** Distinct op types with their own kernel multiplier; the rest share one. */
  static final int TYPE_GROUPS = 6;
  /** Ridge strength per observation-equivalent, towards multiplier 1. */
  static final double RIDGE = 0.05;
  static final double MIN_SCALE = 0.25;
  static final double MAX_SCALE = 4.0;
  static final double NOMINAL_START_US = 100;
  static final double NOMINAL_COPY_US = 10;
  static final double MAX_NOMINAL_SCALE = 100;

  private final PlacementProxy proxy;
  /** The proxy's model with a nominal cost where it has no start or copy cost. */
  private final HeteroCostModel base;
  /** Per parameter: the multiplier of the uncorrected model (1, or 0 for a nominal term). */
  private final double[] prior;
  private final int devices;
  private final int groups;
  private final int[] groupOfOp;
  private final List<double[]> features = new ArrayList<>();
  private final List<Double> targets = new ArrayList<>();
  private PlacementProxy fitted; // the corrected proxy for the current observations; null until asked

  public CostCorrection(PlacementProxy proxy) {
    this.proxy = proxy;
    Basis b = proxy.correctionMemo.basis(Basis.class, () -> Basis.of(proxy));
    this.base = b.base;
    this.devices = b.devices;
    this.groups = b.groups;
    this.groupOfOp = b.groupOfOp;
    this.prior = b.prior;
  }

  /**
   * The grouping of a proxy's terms, the same for every correction of it ({@link CorrectionMemo}); its arrays
   * are never written after {@link #of}.
   */
  private static final class Basis {
    final HeteroCostModel base;
    final int devices;
    final int groups;
    final int[] groupOfOp;
    final double[] prior;

    private Basis(HeteroCostModel base, int devices, int groups, int[] groupOfOp, double[] prior) {
      this.base = base;
      this.devices = devices;
      this.groups = groups;
      this.groupOfOp = groupOfOp;
      this.prior = prior;
    }

    static Basis of(PlacementProxy proxy) {
      HeteroCostModel given = proxy.model();
      int devices = given.deviceCount();
      int ops = given.opCount();
      boolean[] nominalCopy = new boolean[devices];
      boolean[] nominalStart = new boolean[devices];
      List<org.hsdag.cost.HeteroDevice> costs = new ArrayList<>();
      for (int d = 0; d < devices; d++) {
        org.hsdag.cost.HeteroDevice c = given.device(d);
        nominalCopy[d] = c.linkLatencyUs() == 0 && c.linkMicrosPerByte() == 0;
        nominalStart[d] = c.subModelOverheadUs() == 0;
        costs.add(new org.hsdag.cost.HeteroDevice(c.name(), nominalCopy[d] ? NOMINAL_COPY_US : c.linkLatencyUs(),
            c.linkMicrosPerByte(), nominalStart[d] ? NOMINAL_START_US : c.subModelOverheadUs()));
      }
      HeteroCostModel base = given.withDeviceCosts(costs, given.requestOverhead());
      // Op types by their total time, averaged over devices: the costliest get their own multiplier.
      Map<String, Double> byType = new HashMap<>();
      for (int i = 0; i < ops; i++) {
        double mean = 0;
        for (int d = 0; d < devices; d++) {
          mean += base.micros(i, d) / devices;
        }
        byType.merge(type(proxy, base, i), mean, Double::sum);
      }
      List<String> ranked = new ArrayList<>(byType.keySet());
      ranked.sort(Comparator.comparing((String t) -> -byType.get(t)).thenComparing(Comparator.naturalOrder()));
      Map<String, Integer> index = new HashMap<>();
      for (int k = 0; k < Math.min(TYPE_GROUPS, ranked.size()); k++) {
        index.put(ranked.get(k), k);
      }
      int groups = Math.min(TYPE_GROUPS, ranked.size()) + 1;
      int[] groupOfOp = new int[ops];
      for (int i = 0; i < ops; i++) {
        groupOfOp[i] = index.getOrDefault(type(proxy, base, i), groups - 1);
      }
      double[] prior = new double[devices * groups + 2 * devices];
      Arrays.fill(prior, 1);
      for (int d = 0; d < devices; d++) {
        prior[devices * groups + d] = nominalCopy[d] ? 0 : 1;
        prior[devices * groups + devices + d] = nominalStart[d] ? 0 : 1;
      }
      return new Basis(base, devices, groups, groupOfOp, prior);
    }

    private static String type(PlacementProxy proxy, HeteroCostModel base, int op) {
      return proxy.graph().node(base.node(op)).type();
    }
  }

  /** Parameters: kernel multiplier per (device, group), then copy and sub-model multipliers per device. */
  private int parameters() {
    return devices * groups + 2 * devices;
  }

  /** The term sums of a placement, one per parameter, and its constant part (µs). */
  private double[] features(int[] opDevices) {
    CostTerms t = base.terms(opDevices);
    double[] x = new double[parameters() + 1];
    for (int i = 0; i < opDevices.length; i++) {
      x[opDevices[i] * groups + groupOfOp[i]] += t.opMicros(i);
    }
    for (int d = 0; d < devices; d++) {
      x[devices * groups + d] = t.copyMicros(d);
      x[devices * groups + devices + d] = t.subModels(d) * base.subModelOverhead(d);
    }
    x[parameters()] = t.requestMicros();
    return proxy.throughputRequests() == 0 ? x
        : ThroughputProxy.linearised(x, devices, groups, proxy.throughputRequests());
  }

  /** Adds a measured placement (a successful measurement's latency). */
  @Override
  public void observe(Placement placement, double measuredMillis) {
    if (!(measuredMillis > 0) || Double.isInfinite(measuredMillis)) {
      return;
    }
    fitted = null;
    features.add(proxy.correctionMemo.features(proxy.opDevices(placement), this::features));
    targets.add(measuredMillis * 1000.0);
  }

  /** The corrected cost model's latency of {@code placement} (the uncorrected one's before any measurement). */
  @Override
  public double predictMillis(Placement placement) {
    if (fitted == null) {
      fitted = corrected();
    }
    return fitted.predictMillis(placement);
  }

  /** A fresh correction of the same cost model, with none of this one's measurements. */
  @Override
  public java.util.Optional<LatencyModel> correction() {
    return java.util.Optional.of(new CostCorrection(proxy));
  }

  /** The cost model's capacities. */
  @Override
  public java.util.Optional<org.hsdag.memory.MemoryCheck> memory() {
    return proxy.memory();
  }

  /** The cost model's prediction: a correction changes times, not what HETERO refuses. */
  @Override
  public java.util.Optional<String> predictedRefusal(Placement placement) {
    return proxy.predictedRefusal(placement);
  }

  /** Measurements observed. */
  public int observations() {
    return features.size();
  }

  /** The fitted multipliers (1 where the measurements say nothing). */
  double[] fit() {
    int p = parameters();
    double[][] a = new double[p][p + 1];
    double[] scale = new double[p];
    for (int k = 0; k < features.size(); k++) {
      double[] x = features.get(k);
      double w = 1.0 / (targets.get(k) * targets.get(k));
      for (int j = 0; j < p; j++) {
        scale[j] += w * x[j] * x[j];
      }
    }
    for (int k = 0; k < features.size(); k++) {
      double[] x = features.get(k);
      double y = targets.get(k) - x[p];
      double w = 1.0 / (targets.get(k) * targets.get(k));
      for (int i = 0; i < p; i++) {
        if (x[i] == 0) {
          continue;
        }
        for (int j = 0; j < p; j++) {
          a[i][j] += w * x[i] * x[j];
        }
        a[i][p] += w * x[i] * y;
      }
    }
    for (int j = 0; j < p; j++) {
      // Ridge towards 1, in the units of the term's own weight so each group is pulled alike; a term
      // never seen gets a tiny weight and stays at exactly 1.
      double lambda = RIDGE * Math.max(scale[j], 1e-12);
      a[j][j] += lambda;
      a[j][p] += lambda * prior[j];
    }
    double[] theta = LinearSystems.solve(a, p, 1.0);
    for (int j = 0; j < p; j++) {
      double lo = prior[j] == 0 ? 0 : MIN_SCALE;
      double hi = prior[j] == 0 ? MAX_NOMINAL_SCALE : MAX_SCALE;
      theta[j] = Double.isFinite(theta[j]) ? Math.max(lo, Math.min(hi, theta[j])) : prior[j];
    }
    return theta;
  }

  /** The proxy with the fitted multipliers applied. */
  public PlacementProxy corrected() {
    double[] theta = fit();
    int ops = base.opCount();
    double[] kernel = new double[devices * ops];
    for (int d = 0; d < devices; d++) {
      for (int i = 0; i < ops; i++) {
        kernel[d * ops + i] = theta[d * groups + groupOfOp[i]];
      }
    }
    double[] link = Arrays.copyOfRange(theta, devices * groups, devices * groups + devices);
    double[] sub = Arrays.copyOfRange(theta, devices * groups + devices, devices * groups + 2 * devices);
    return proxy.withModel(base.rescaled(kernel, link, sub));
  }
}
