package org.hsdag.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.hsdag.cost.HeteroCostModel;

/**
 * The {@link ThroughputPlanner}'s descent on the bound on the time per inference (the busiest
 * device's load, or the latency over the requests in flight; the latency as a small tie-break):
 * first-improvement moves of single ops and co-location groups to another device that runs all of
 * them and keeps its memory budget.
 *
 * <p>Passes over the frontier moves (an op with a neighbour on another device, or a group holding
 * one), ops of the busiest device first: they shift a boundary between sub-models, which is how a
 * pipeline is balanced. Only when a pass keeps nothing, an interior move (from inside a same-device
 * run), at most {@link #INTERIOR_EVALUATIONS} per descent and only where an optimistic estimate
 * says it could pay: such a move cuts a run into more sub-models, and on a residual network it makes
 * the sub-model graph cyclic, whose HETERO split is what made the exact evaluations of the
 * unrestricted descent take minutes on decoder_9b (profiled: nearly all planner time in the split's
 * cycle breaking). Deterministic.
 */
final class BottleneckDescent {
  /** Exact evaluations one descent may spend on interior moves (each cuts a run, so few pay). */
  static final int INTERIOR_EVALUATIONS = 60;

  private final HeteroCostModel model;
  private final int[][] moves;
  private final int requests;
  private final OpBudget budget;
  private final int[][] neighbours;

  /**
   * @param groups co-location groups moved as one (single ops are moves of their own)
   * @param budget each device's weight budget (null: none)
   */
  BottleneckDescent(HeteroCostModel model, int[][] groups, int requests, OpBudget budget) {
    this.model = model;
    this.requests = requests;
    this.budget = budget;
    List<int[]> all = new ArrayList<>(Arrays.asList(groups));
    for (int i = 0; i < model.opCount(); i++) {
      all.add(new int[] {i});
    }
    this.moves = all.toArray(new int[0][]);
    this.neighbours = neighbours(model);
  }

  /** The result and the evaluations spent. */
  /** Where a descent ended and how many exact evaluations it spent. */
  static final class Result {
    final int[] label;
    final long evaluations;

    Result(int[] label, long evaluations) {
      this.label = label;
      this.evaluations = evaluations;
    }
  }

  /** Descends from {@code start} (within budget) for at most {@code maxEvaluations} exact evaluations. */
  Result run(int[] start, int maxEvaluations) {
    State s = new State(start.clone(), maxEvaluations);
    while (s.spent < maxEvaluations) {
      boolean[] onFrontier = frontierOps(s.label);
      if (frontierPass(s, onFrontier) || interiorMove(s, onFrontier)) {
        continue;
      }
      break;
    }
    return new Result(s.label, s.spent);
  }

  /** The descent's placement, its resources ({@link ThroughputPlanner#resources}), cost and spending. */
  private final class State {
    final int[] label;
    final long[] load;
    final int maxEvaluations;
    double[] resources;
    double cost;
    int spent = 1;
    int interiorLeft = INTERIOR_EVALUATIONS;

    State(int[] label, int maxEvaluations) {
      this.label = label;
      this.maxEvaluations = maxEvaluations;
      load = budget == null ? null : budget.loads(label, model.deviceCount());
      resources = ThroughputPlanner.resources(model, label, requests);
      cost = ThroughputPlanner.cost(resources, requests);
    }

    /** Evaluates moving {@code g} to {@code d} and keeps the move when it lowers the cost. */
    boolean tryMove(int[] g, int d) {
      int[] from = new int[g.length];
      int[] next = label.clone();
      for (int m = 0; m < g.length; m++) {
        from[m] = label[g[m]];
        next[g[m]] = d;
      }
      spent++;
      double[] r = ThroughputPlanner.resources(model, next, requests);
      double c = ThroughputPlanner.cost(r, requests);
      if (c >= cost * (1 - 1e-9)) {
        return false;
      }
      System.arraycopy(next, 0, label, 0, label.length);
      if (load != null) {
        budget.move(load, g, g.length, from, d);
      }
      resources = r;
      cost = c;
      return true;
    }

    boolean allowed(int[] g, int d) {
      return movable(label, g, d) && (load == null || budget.allows(load, g, g.length, label, d));
    }
  }

  /** One pass over the frontier moves, ops of the busiest device first; whether a move was kept. */
  private boolean frontierPass(State s, boolean[] onFrontier) {
    int busiest = busiest(s.resources);
    List<int[]> ordered = new ArrayList<>();
    for (int[] g : moves) {
      if (touches(g, onFrontier)) {
        ordered.add(g);
      }
    }
    ordered.sort(Comparator.comparingInt(g -> s.label[g[0]] == busiest ? 0 : 1));
    boolean improved = false;
    for (int[] g : ordered) {
      for (int d = 0; d < model.deviceCount() && s.spent < s.maxEvaluations; d++) {
        if (s.allowed(g, d)) {
          improved |= s.tryMove(g, d);
        }
      }
    }
    return improved;
  }

  /**
   * When no frontier move pays: the first interior move that does, among those whose optimistic
   * estimate (kernels alone move, the new sub-model's start on the target) could lower the cost,
   * within {@link #INTERIOR_EVALUATIONS} exact evaluations per descent.
   */
  private boolean interiorMove(State s, boolean[] onFrontier) {
    for (int[] g : moves) {
      for (int d = 0; d < model.deviceCount(); d++) {
        if (s.interiorLeft <= 0 || s.spent >= s.maxEvaluations) {
          return false;
        }
        if (touches(g, onFrontier) || !s.allowed(g, d) || optimisticCost(s, g, d) >= s.cost * (1 - 1e-9)) {
          continue;
        }
        s.interiorLeft--;
        if (s.tryMove(g, d)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * A lower estimate of the cost after moving interior group {@code g} (its neighbours all on its
   * device) to {@code d}: its kernels leave their device whole and arrive fused, and d starts one
   * more sub-model; the copies it adds are left out.
   */
  private double optimisticCost(State s, int[] g, int d) {
    int devices = model.deviceCount();
    double[] loads = Arrays.copyOf(s.resources, devices);
    double latency = s.resources[devices] * requests;
    for (int op : g) {
      int a = s.label[op];
      double arrives = Math.min(model.micros(op, d), model.fusedMicros(op, d));
      loads[a] -= model.micros(op, a);
      loads[d] += arrives;
      latency += arrives - model.micros(op, a);
    }
    loads[d] += model.subModelOverhead(d);
    latency += model.subModelOverhead(d);
    double[] r = Arrays.copyOf(loads, devices + 1);
    r[devices] = latency / requests;
    return ThroughputPlanner.cost(r, requests);
  }

  private static boolean touches(int[] g, boolean[] onFrontier) {
    for (int op : g) {
      if (onFrontier[op]) {
        return true;
      }
    }
    return false;
  }

  /** Whether each op has a neighbour on another device. */
  private boolean[] frontierOps(int[] label) {
    boolean[] edge = new boolean[label.length];
    for (int i = 0; i < label.length; i++) {
      for (int j : neighbours[i]) {
        edge[i] |= label[j] != label[i];
      }
    }
    return edge;
  }

  private boolean movable(int[] label, int[] group, int device) {
    boolean changes = false;
    for (int op : group) {
      if (!model.supported(op, device)) {
        return false;
      }
      changes |= label[op] != device;
    }
    return changes;
  }

  private int busiest(double[] resources) {
    int b = 0;
    for (int d = 1; d < model.deviceCount(); d++) {
      if (resources[d] > resources[b]) {
        b = d;
      }
    }
    return b;
  }

  /** Predecessor and successor ops of every op. */
  private static int[][] neighbours(HeteroCostModel model) {
    int ops = model.opCount();
    int[] count = new int[ops];
    for (int i = 0; i < ops; i++) {
      for (int k = 0; k < model.predecessorCount(i); k++) {
        count[i]++;
        count[model.predecessor(i, k)]++;
      }
    }
    int[][] out = new int[ops][];
    for (int i = 0; i < ops; i++) {
      out[i] = new int[count[i]];
    }
    int[] fill = new int[ops];
    for (int i = 0; i < ops; i++) {
      for (int k = 0; k < model.predecessorCount(i); k++) {
        int p = model.predecessor(i, k);
        out[i][fill[i]++] = p;
        out[p][fill[p]++] = i;
      }
    }
    return out;
  }
}
