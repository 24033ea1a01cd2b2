package org.hsdag.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.HeteroCostModelBuilder;
import org.hsdag.cost.HeteroDevice;
import org.hsdag.memory.MemoryCheck;

/**
 * A proven lower bound on the latency of every placement that respects additive weight budgets
 * ({@link OpBudget}), by Lagrangian duality. For prices μ ≥ 0 on the capped devices,
 *
 * <pre>
 * L(μ) = min over labelings of [ E₀(label) + Σ_d μ_d · load_d(label) ] − Σ_d μ_d · budget_d + request overhead
 * </pre>
 *
 * is at most the exact latency of any labeling within budget, because {@link CutModel}'s energy
 * with no sub-model weight (λ = 0) never exceeds the exact evaluation less the request overhead:
 * fusion is granted whenever both ops share a device (the evaluator also needs one sub-model),
 * copies are charged once per other device (the evaluator once per other sub-model), sub-model
 * starts are left out. For two devices the inner minimum is one exact s-t cut. For more, each
 * split of the devices into two groups gives a two-device relaxation whose terms are no larger
 * (an op's cheapest device of a group, the largest fusion saving, the cheapest link), solved
 * exactly; the bound is the best over splits and over the prices tried, every one of them valid.
 * The prices are searched by coordinate-wise bisection on the sign of the budget excess.
 * Activations, which take memory but not additively, enter by splitting the labelings into
 * classes ({@link #of(HeteroCostModel, OpBudget, long[])}).
 */
public final class CapBound {
  /** Bisection steps of each price. */
  private static final int BISECTIONS = 24;
  /** Coordinate-ascent rounds over the capped devices (one is exact when only one device is capped). */
  private static final int ROUNDS = 2;
  /** Largest price tried, µs per byte (a byte of weights is never worth a millisecond). */
  private static final double MAX_PRICE = 1e3;
  /** Activation classes per device whose budget can bind (shared among such devices). */
  private static final int CLASSES = 3;

  private CapBound() {}

  /**
   * The bound.
   *
   * @param micros the lower bound on the latency of any labeling within the budgets, µs
   * @param price the prices (µs per byte, per device) at which it was reached
   * @param evaluations minimum cuts solved
   */
  public record Bound(double micros, List<Double> price, int evaluations) {
    public Bound {
      price = List.copyOf(price);
    }

    Bound(double micros, double[] price, int evaluations) {
      this(micros, Arrays.stream(price).boxed().toList(), evaluations);
    }
  }

  /**
   * The bound for the proxy's capacities: a device's weights never exceed its capacity less its
   * runtime overhead less its activation peak, and that peak is at least the output of any op it
   * runs (see {@link #of(HeteroCostModel, OpBudget, long[])}).
   */
  public static Bound of(PlacementProxy proxy) {
    MemoryCheck check = proxy.memory().orElseThrow(() -> new IllegalArgumentException("the proxy has no memory caps"));
    HeteroCostModel model = proxy.model();
    long[] budget = new long[proxy.devices().size()];
    for (int d = 0; d < budget.length; d++) {
      budget[d] = check.capacity(d) == Long.MAX_VALUE ? Long.MAX_VALUE
          : Math.max(0, check.capacity(d) - check.overhead(d));
    }
    long[] activation = new long[model.opCount()];
    for (int i = 0; i < activation.length; i++) {
      activation[i] = check.model().outputBytes(model.node(i));
    }
    return of(model, new OpBudget(OpBudget.weightsPerOp(proxy, check), budget), activation);
  }

  /** The bound on {@code model} under {@code budget} (weights only). */
  public static Bound of(HeteroCostModel model, OpBudget budget) {
    return of(model, budget, new long[model.opCount()]);
  }

  /**
   * The bound when op i also occupies {@code activation[i]} bytes of its device's budget while it
   * runs (not additively: a device holds its weights and the largest such figure at least). The
   * labelings are split into classes by the largest activation on each device whose budget can
   * bind: "at least v₁" (budget less v₁), "below v₁, at least v₂" (ops of v₁ or more kept off it,
   * budget less v₂), …, "below v_K" (budget as given). Each class gets its own dual bound; the
   * smallest is the bound, since every labeling is in one class.
   */
  public static Bound of(HeteroCostModel model, OpBudget budget, long[] activation) {
    int devices = model.deviceCount();
    long[] bytes = budget.bytes();
    List<Integer> branching = new ArrayList<>();
    for (int d = 0; d < devices; d++) {
      long held = 0;
      long peak = 0;
      for (int i = 0; i < model.opCount(); i++) {
        held += model.supported(i, d) ? bytes[i] : 0;
        peak = Math.max(peak, model.supported(i, d) ? activation[i] : 0);
      }
      held += peak;
      if (budget.budget(d) != Long.MAX_VALUE && held > budget.budget(d)) {
        branching.add(d);
      }
    }
    int levels = branching.isEmpty() ? 0 : Math.max(1, CLASSES / branching.size());
    List<long[]> thresholds = new ArrayList<>();
    for (int d : branching) {
      thresholds.add(largestActivations(model, activation, d, levels));
    }
    Bound best = null;
    int evaluations = 0;
    int[] pick = new int[branching.size()];
    while (true) {
      Bound b = classBound(model, budget, activation, branching, thresholds, pick);
      evaluations += b.evaluations();
      if (best == null || b.micros() < best.micros()) {
        best = b;
      }
      int k = 0;
      while (k < pick.length && ++pick[k] > thresholds.get(k).length) {
        pick[k++] = 0;
      }
      if (k == pick.length) {
        break;
      }
    }
    return new Bound(best.micros(), best.price(), evaluations);
  }

  /** The distinct largest activations of the ops d can run, at most {@code levels}, descending. */
  private static long[] largestActivations(HeteroCostModel model, long[] activation, int d, int levels) {
    return java.util.stream.IntStream.range(0, model.opCount()).filter(i -> model.supported(i, d) && activation[i] > 0)
        .mapToLong(i -> activation[i]).boxed().distinct().sorted(java.util.Comparator.reverseOrder()).limit(levels)
        .mapToLong(Long::longValue).toArray();
  }

  /**
   * The bound of one class: on branching device {@code branching[k]} with thresholds v, class
   * {@code pick[k]} = j keeps ops of activation v_{j-1} or more off it (none for j = 0) and takes
   * v_j off its budget (0 past the last threshold). An empty class is +∞.
   */
  private static Bound classBound(HeteroCostModel model, OpBudget budget, long[] activation, List<Integer> branching,
      List<long[]> thresholds, int[] pick) {
    int devices = model.deviceCount();
    int ops = model.opCount();
    long[] classBudget = new long[devices];
    for (int d = 0; d < devices; d++) {
      classBudget[d] = budget.budget(d);
    }
    boolean[] banned = new boolean[devices * ops];
    for (int k = 0; k < pick.length; k++) {
      int d = branching.get(k);
      long[] v = thresholds.get(k);
      int j = pick[k];
      classBudget[d] -= j < v.length ? v[j] : 0;
      for (int i = 0; i < ops && j > 0; i++) {
        banned[d * ops + i] = activation[i] >= v[j - 1];
      }
    }
    for (int i = 0; i < ops; i++) {
      boolean runs = false;
      for (int d = 0; d < devices; d++) {
        runs |= model.supported(i, d) && !banned[d * ops + i];
      }
      if (!runs) {
        return new Bound(Double.POSITIVE_INFINITY, new double[devices], 0);
      }
    }
    for (long b : classBudget) {
      if (b < 0) {
        return new Bound(Double.POSITIVE_INFINITY, new double[devices], 0);
      }
    }
    OpBudget ob = new OpBudget(budget.bytes(), classBudget);
    Bound best = new Bound(Double.NEGATIVE_INFINITY, new double[devices], 0);
    int evaluations = 0;
    for (boolean[] group : splits(devices)) {
      Bound b = new Dual(model, ob, group, banned).maximise();
      evaluations += b.evaluations();
      if (b.micros() > best.micros()) {
        best = b;
      }
    }
    return new Bound(best.micros(), best.price(), evaluations);
  }

  /** Each way to split the devices into two non-empty groups (true: group 1), once. */
  static List<boolean[]> splits(int devices) {
    List<boolean[]> out = new ArrayList<>();
    for (int mask = 1; mask < (1 << devices) - 1; mask++) {
      if ((mask & 1) != 0) {
        continue; // device 0 always in group 0: each split once
      }
      boolean[] g = new boolean[devices];
      for (int d = 0; d < devices; d++) {
        g[d] = (mask >> d & 1) != 0;
      }
      out.add(g);
    }
    return out;
  }

  /** The dual function of one split of the devices. */
  private static final class Dual {
    private final HeteroCostModel model;
    private final OpBudget budget;
    private final boolean[] group;
    /** [d * ops + i]: op i may not go to d in this class. */
    private final boolean[] banned;
    private final long[] load;
    /** Bytes per op (the budget's, read once). */
    private final long[] bytes;
    /** The capped planner's first prices: where each price's search starts. */
    private final double[] first;
    private int evaluations;

    Dual(HeteroCostModel model, OpBudget budget, boolean[] group, boolean[] banned) {
      this.model = model;
      this.budget = budget;
      this.group = group;
      this.banned = banned;
      this.load = new long[model.deviceCount()];
      this.bytes = budget.bytes();
      this.first = CappedPlanner.startPrices(model, bytes);
    }

    Bound maximise() {
      int devices = model.deviceCount();
      double[] price = new double[devices];
      double best = value(price);
      double[] bestPrice = price.clone();
      for (int round = 0; round < ROUNDS; round++) {
        for (int d = 0; d < devices; d++) {
          if (budget.budget(d) == Long.MAX_VALUE) {
            continue;
          }
          double v = maximiseAlong(price, d);
          if (v > best) {
            best = v;
            bestPrice = price.clone();
          }
        }
      }
      return new Bound(best, bestPrice, evaluations);
    }

    /**
     * Sets {@code price[d]} to the best price found along d (others fixed) and returns the dual
     * value there: doubling until the budget of d holds, bisection on the excess's sign, then the
     * crossing of the two pieces of the dual met last (the maximum when they are adjacent).
     */
    private double maximiseAlong(double[] price, int d) {
      double[] p = price.clone();
      p[d] = 0;
      double best = value(p);
      double bestAt = 0;
      if (excess(d) <= 0) {
        price[d] = 0;
        return best;
      }
      double lo = 0;
      double loValue = best;
      long loLoad = load[d];
      double hi = first[d];
      double hiValue;
      long hiLoad;
      while (true) {
        p[d] = hi;
        hiValue = value(p);
        hiLoad = load[d];
        if (hiValue > best) {
          best = hiValue;
          bestAt = hi;
        }
        if (excess(d) <= 0 || hi >= MAX_PRICE) {
          break;
        }
        lo = hi;
        loValue = hiValue;
        loLoad = hiLoad;
        hi *= 2;
      }
      if (excess(d) > 0) {
        price[d] = bestAt;
        return best; // no price tried keeps d within budget: the best value seen stands
      }
      for (int k = 0; k < BISECTIONS; k++) {
        double mid = lo == 0 ? hi / 2 : Math.sqrt(lo * hi);
        p[d] = mid;
        double v = value(p);
        if (v > best) {
          best = v;
          bestAt = mid;
        }
        if (excess(d) > 0) {
          lo = mid;
          loValue = v;
          loLoad = load[d];
        } else {
          hi = mid;
          hiValue = v;
          hiLoad = load[d];
        }
      }
      if (loLoad > hiLoad) {
        // Each side's labeling is a line in the price of d; where they cross is the dual's peak between them.
        long cap = budget.budget(d);
        double cross = (hiValue - hi * (hiLoad - cap) - loValue + lo * (loLoad - cap)) / (loLoad - hiLoad);
        if (cross > lo && cross < hi) {
          p[d] = cross;
          double v = value(p);
          if (v > best) {
            best = v;
            bestAt = cross;
          }
        }
      }
      price[d] = bestAt;
      return best;
    }

    private long excess(int d) {
      return load[d] - budget.budget(d);
    }

    /** L(price) on this split; sets {@link #load} to the per-device loads of the minimising labeling. */
    private double value(double[] price) {
      evaluations++;
      int ops = model.opCount();
      int[] cheapest = new int[ops * 2];
      HeteroCostModel merged = merged(price, cheapest);
      CutModel cut = new CutModel(merged, 0);
      int[] label = Expansion.twoDevices(cut);
      if (label == null) {
        throw new IllegalArgumentException("an op runs on no device");
      }
      Arrays.fill(load, 0);
      for (int i = 0; i < ops; i++) {
        load[cheapest[i * 2 + label[i]]] += bytes[i];
      }
      double value = cut.energy(label) + model.requestOverhead();
      for (int d = 0; d < price.length; d++) {
        if (price[d] > 0) {
          value -= price[d] * budget.budget(d);
        }
      }
      // The cut's capacities are rounded to picoseconds: allow that much per edge.
      return value - 1e-6 * (4.0 * ops + 2.0 * model.tensorCount());
    }

    /**
     * The two-device relaxation under {@code price}: per op and group, the cheapest priced kernel
     * time of the group's devices ({@code cheapest[2i + g]} gets that device), the largest fusion
     * saving, the cheapest link and start.
     */
    private HeteroCostModel merged(double[] price, int[] cheapest) {
      int devices = model.deviceCount();
      List<HeteroDevice> two = new ArrayList<>();
      for (int g = 0; g < 2; g++) {
        double latency = Double.POSITIVE_INFINITY;
        double perByte = Double.POSITIVE_INFINITY;
        double start = Double.POSITIVE_INFINITY;
        for (int d = 0; d < devices; d++) {
          if (group[d] == (g == 1)) {
            HeteroDevice dev = model.device(d);
            latency = Math.min(latency, dev.linkLatencyUs());
            perByte = Math.min(perByte, dev.linkMicrosPerByte());
            start = Math.min(start, dev.subModelOverheadUs());
          }
        }
        two.add(new HeteroDevice("G" + g, latency, perByte, start));
      }
      HeteroCostModelBuilder b = HeteroCostModel.builder(two, model.requestOverhead());
      for (int i = 0; i < model.opCount(); i++) {
        double[] time = new double[2];
        double[] fused = new double[2];
        boolean[] runs = new boolean[2];
        for (int g = 0; g < 2; g++) {
          double t = Double.POSITIVE_INFINITY;
          double saving = 0;
          for (int d = 0; d < devices; d++) {
            if (group[d] != (g == 1) || !model.supported(i, d) || banned[d * model.opCount() + i]) {
              continue;
            }
            double priced = model.micros(i, d) + price[d] * bytes[i];
            if (priced < t) {
              t = priced;
              cheapest[i * 2 + g] = d;
            }
            saving = Math.max(saving, model.micros(i, d) - model.fusedMicros(i, d));
          }
          runs[g] = t < Double.POSITIVE_INFINITY;
          time[g] = runs[g] ? t : 0;
          fused[g] = runs[g] ? Math.max(0, t - saving) : 0;
        }
        int[] preds = new int[model.predecessorCount(i)];
        for (int k = 0; k < preds.length; k++) {
          preds[k] = model.predecessor(i, k);
        }
        b.op(model.node(i), time, preds);
        if (model.fuseInto(i) >= 0) {
          b.fuse(i, model.fuseInto(i), fused);
        }
        for (int g = 0; g < 2; g++) {
          if (!runs[g]) {
            b.unsupported(i, g);
          }
        }
      }
      for (int t = 0; t < model.tensorCount(); t++) {
        int[] consumers = new int[model.tensorConsumerCount(t)];
        for (int k = 0; k < consumers.length; k++) {
          consumers[k] = model.tensorConsumer(t, k);
        }
        b.tensor(model.tensorProducer(t), model.tensorBytes(t), model.tensorResults(t), consumers);
      }
      return b.build();
    }
  }
}
