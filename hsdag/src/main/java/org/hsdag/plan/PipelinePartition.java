package org.hsdag.plan;

import java.util.ArrayList;
import java.util.List;
import org.hsdag.cost.HeteroCostModel;

/**
 * Pipeline seeds of the {@link ThroughputPlanner}: the ops cut into contiguous stages along their
 * topological order (the model's op order), one stage per device in a given device order, so the
 * sub-models form a chain. For each order, a bisection on a bound B of the busiest stage's load
 * with a greedy feasibility test (each stage takes ops while its load stays within B and its weights
 * within the device's memory budget) finds the smallest B at which the stages cover every op. The
 * loads are estimates (kernels, the stage's start, one copy of the tensors crossing each of its two
 * cuts); the planner evaluates every seed on the exact model. A transformer's layers make such
 * chains the natural throughput placements, and under memory caps they are how OpenVINO's
 * pipeline-parallel split fills devices, here balanced by time instead of by memory alone.
 */
final class PipelinePartition {
  /** Halvings of the interval of B (a relative precision of 2^-40). */
  private static final int BISECTIONS = 40;

  private final HeteroCostModel model;
  private final OpBudget budget;
  /** Bytes of the tensors crossing the cut before op s (produced before s, consumed at or after s). */
  private final double[] cutBytes;

  /** Partitions of {@code model}'s ops; {@code budget} (null: none) bounds each device's weights. */
  PipelinePartition(HeteroCostModel model, OpBudget budget) {
    this.model = model;
    this.budget = budget;
    this.cutBytes = cutBytes(model);
  }

  /** One labeling per device order (every permutation of the devices) for which a partition exists. */
  List<int[]> partitions() {
    List<int[]> out = new ArrayList<>();
    for (int[] order : permutations(model.deviceCount())) {
      int[] label = balanced(order);
      if (label != null) {
        out.add(label);
      }
    }
    return out;
  }

  /** The stages in {@code order} at the smallest bound the greedy test meets, or null when none does. */
  int[] balanced(int[] order) {
    double hi = 0;
    for (int i = 0; i < model.opCount(); i++) {
      double worst = 0;
      for (int d = 0; d < model.deviceCount(); d++) {
        worst = Math.max(worst, model.micros(i, d));
      }
      hi += worst;
    }
    hi = 2 * (hi + maxStageOverhead());
    int[] fit = stages(order, Double.POSITIVE_INFINITY);
    if (fit == null) {
      return null;
    }
    double lo = 0;
    for (int k = 0; k < BISECTIONS; k++) {
      double mid = (lo + hi) / 2;
      int[] trial = stages(order, mid);
      if (trial != null) {
        hi = mid;
        fit = trial;
      } else {
        lo = mid;
      }
    }
    return fit;
  }

  /** The greedy test: stages in {@code order}, each as long as its estimated load ≤ {@code bound}; null when ops are left. */
  int[] stages(int[] order, double bound) {
    int ops = model.opCount();
    int[] label = new int[ops];
    int stage = 0;
    int start = 0;
    double kernels = 0;
    long bytes = 0;
    for (int i = 0; i < ops; i++) {
      while (true) {
        if (stage >= order.length) {
          return null;
        }
        int d = order[stage];
        double kernel = kernelMicros(i, d, start);
        long b = budget == null ? 0 : budget.bytes(i);
        boolean fits = model.supported(i, d) && (budget == null || bytes + b <= budget.budget(d))
            && load(d, start, i + 1, kernels + kernel) <= bound;
        if (fits) {
          label[i] = d;
          kernels += kernel;
          bytes += b;
          break;
        }
        // Op i opens the next stage (an empty stage leaves its device out).
        stage++;
        start = i;
        kernels = 0;
        bytes = 0;
      }
    }
    return label;
  }

  /** Op i's kernel on d in a stage starting at op {@code start} (fused when its producer is in the stage). */
  private double kernelMicros(int i, int d, int start) {
    int f = model.fuseInto(i);
    return f >= start ? model.fusedMicros(i, d) : model.micros(i, d);
  }

  /** Estimated load of the stage of ops [start, end) on d with these kernels: its start and its two cuts' copies. */
  private double load(int d, int start, int end, double kernels) {
    double copies = (start > 0 ? model.copyMicros(d, cutBytes[start]) : 0)
        + (end < model.opCount() ? model.copyMicros(d, cutBytes[end]) : 0);
    return kernels + model.subModelOverhead(d) + copies;
  }

  private double maxStageOverhead() {
    double worst = 0;
    double all = 0;
    for (double b : cutBytes) {
      all = Math.max(all, b);
    }
    for (int d = 0; d < model.deviceCount(); d++) {
      worst = Math.max(worst, model.subModelOverhead(d) + 2 * model.copyMicros(d, all));
    }
    return worst;
  }

  /** Bytes crossing each cut s (between ops s-1 and s; entry opCount unused), by a difference sweep. */
  private static double[] cutBytes(HeteroCostModel model) {
    int ops = model.opCount();
    double[] diff = new double[ops + 2];
    for (int t = 0; t < model.tensorCount(); t++) {
      int p = model.tensorProducer(t);
      if (p < 0) {
        continue; // a model input starts in host memory whatever the cut
      }
      int last = p;
      for (int k = 0; k < model.tensorConsumerCount(t); k++) {
        last = Math.max(last, model.tensorConsumer(t, k));
      }
      if (last > p) {
        diff[p + 1] += model.tensorBytes(t);
        diff[last + 1] -= model.tensorBytes(t);
      }
    }
    double[] out = new double[ops + 1];
    double running = 0;
    for (int s = 0; s <= ops; s++) {
      running += diff[s];
      out[s] = running;
    }
    return out;
  }

  /** Every order of {@code n} devices (n! of them; n is at most a handful). */
  static List<int[]> permutations(int n) {
    List<int[]> out = new ArrayList<>();
    permute(new int[n], new boolean[n], 0, out);
    return out;
  }

  private static void permute(int[] current, boolean[] used, int k, List<int[]> out) {
    if (k == current.length) {
      out.add(current.clone());
      return;
    }
    for (int d = 0; d < current.length; d++) {
      if (!used[d]) {
        used[d] = true;
        current[k] = d;
        permute(current, used, k + 1, out);
        used[d] = false;
      }
    }
  }
}
