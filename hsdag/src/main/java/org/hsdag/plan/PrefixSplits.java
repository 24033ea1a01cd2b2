package org.hsdag.plan;

import java.util.ArrayList;
import java.util.List;
import org.hsdag.cost.HeteroCostModel;

/**
 * Two-stage splits of a device pair: the first k ops in topological order on one device, the rest on
 * the other, for a few k within both budgets. The capped planner's last resort: when every priced cut
 * of a model with shape chains (a T5) is one HETERO refuses, a contiguous stage crosses few tensors and
 * the runtime usually takes it.
 */
final class PrefixSplits {
  private static final int TRIALS = 9;

  private PrefixSplits() {}

  /**
   * The labeling of {@code pair} (devices 0 and 1) the model rates fastest among the stage splits within
   * {@code budget}, each refused one repaired by {@code starts} when the repair still holds; null when none.
   */
  static int[] fastest(HeteroCostModel pair, OpBudget budget, int[] order, FeasibleStarts starts, String origin) {
    HeteroCostModel.Evaluator exact = pair.evaluator();
    int[] best = null;
    double bestMicros = Double.POSITIVE_INFINITY;
    for (int first = 0; first < 2; first++) {
      for (int[] label : withinBudget(pair, budget, order, first)) {
        int[] l = starts.feasible(pair, label, origin);
        if (l == null || !budget.holds(l)) {
          continue;
        }
        double micros = exact.micros(l);
        if (micros < bestMicros) {
          bestMicros = micros;
          best = l;
        }
      }
    }
    return best;
  }

  /** Up to {@link #TRIALS} stage splits with ops {@code order[0..k)} on {@code first}, k spread over the range that fits. */
  private static List<int[]> withinBudget(HeteroCostModel pair, OpBudget budget, int[] order, int first) {
    int n = order.length;
    int second = 1 - first;
    long total = 0;
    for (int i : order) {
      total += budget.bytes(i);
    }
    // Stages fit from the first k whose suffix fits the second device to the last k whose prefix fits the first.
    boolean[] suffixRuns = new boolean[n + 1];
    suffixRuns[n] = true;
    for (int k = n - 1; k >= 0; k--) {
      suffixRuns[k] = suffixRuns[k + 1] && pair.supported(order[k], second);
    }
    List<Integer> ks = new ArrayList<>();
    long prefix = 0;
    for (int k = 1; k < n; k++) {
      int op = order[k - 1];
      if (!pair.supported(op, first)) {
        break;
      }
      prefix += budget.bytes(op);
      if (prefix > budget.budget(first)) {
        break;
      }
      if (suffixRuns[k] && total - prefix <= budget.budget(second)) {
        ks.add(k);
      }
    }
    List<int[]> out = new ArrayList<>();
    int trials = Math.min(TRIALS, ks.size());
    for (int t = 0; t < trials; t++) {
      int k = ks.get(trials == 1 ? 0 : (int) ((long) t * (ks.size() - 1) / (trials - 1)));
      int[] label = new int[n];
      for (int r = 0; r < n; r++) {
        label[order[r]] = r < k ? first : second;
      }
      out.add(label);
    }
    return out;
  }
}
