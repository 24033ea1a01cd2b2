package org.hsdag.plan;

import java.util.Arrays;
import org.hsdag.cost.HeteroCostModel;

/**
 * Descent on the exact proxy: moves a set of ops to another device when the {@link
 * HeteroCostModel}'s evaluator says the placement gets faster. Move families: single ops,
 * co-location groups (chains and trees that HETERO would rather keep together), and whole current
 * sub-models (moving one onto a neighbour's device merges them, the saving the additive model
 * does not see). Each round ranks every move by its change of the additive {@link CutModel}
 * energy (cheap, local) and checks the promising ones on the exact evaluator (one linear pass
 * each), accepting every improvement; sub-model moves are always checked. Deterministic: no
 * randomness, ties broken by move order, a budget of exact evaluations instead of a clock.
 */
final class LocalSearch {
  private static final int SINGLE = 0;
  private static final int GROUP = 1;
  private static final int SUB_MODEL = 2;

  private final CutModel cut;
  private final HeteroCostModel model;
  private final HeteroCostModel.Evaluator evaluator;
  private final int[] groupStart;
  private final int[] groupOps;
  private final int maxEvaluations;
  private final double threshold;
  private final int[] opStamp;
  private final int[] tensorStamp;
  private int stamp;
  private int[] work = new int[16];
  private int[] old = new int[16];
  /** Ops of each current sub-model, CSR by root op. */
  private final int[] subStart;
  private final int[] subOps;
  /** Byte budgets no accepted move may exceed (null: none). */
  private final OpBudget budget;

  /**
   * @param cut the screening energy (its model is the exact proxy)
   * @param groups op groups moved as one (each of at least two ops)
   * @param maxEvaluations exact evaluations allowed
   */
  LocalSearch(CutModel cut, int[][] groups, int maxEvaluations) {
    this(cut, groups, maxEvaluations, null);
  }

  /** A descent that never moves bytes onto a device beyond its {@code budget} (null: unlimited). */
  LocalSearch(CutModel cut, int[][] groups, int maxEvaluations, OpBudget budget) {
    this.budget = budget;
    this.cut = cut;
    this.model = cut.model;
    this.evaluator = model.evaluator();
    this.maxEvaluations = maxEvaluations;
    int total = 0;
    for (int[] g : groups) {
      total += g.length;
    }
    groupStart = new int[groups.length + 1];
    groupOps = new int[total];
    for (int k = 0; k < groups.length; k++) {
      System.arraycopy(groups[k], 0, groupOps, groupStart[k], groups[k].length);
      groupStart[k + 1] = groupStart[k] + groups[k].length;
    }
    double maxOverhead = 0;
    for (int d = 0; d < model.deviceCount(); d++) {
      maxOverhead = Math.max(maxOverhead, model.subModelOverhead(d));
    }
    // A move the additive energy rates worse than this cannot pay for itself by merging sub-models.
    threshold = maxOverhead;
    opStamp = new int[model.opCount()];
    tensorStamp = new int[model.tensorCount()];
    subStart = new int[model.opCount() + 1];
    subOps = new int[model.opCount()];
  }

  /** Recomputes the sub-models of {@code label} into {@code root} and their member lists. */
  private void subModels(int[] label, int[] root) {
    model.subModels(label, root);
    int n = root.length;
    Arrays.fill(subStart, 0);
    for (int i = 0; i < n; i++) {
      subStart[root[i] + 1]++;
    }
    for (int i = 0; i < n; i++) {
      subStart[i + 1] += subStart[i];
    }
    int[] fill = Arrays.copyOf(subStart, n);
    for (int i = 0; i < n; i++) {
      subOps[fill[root[i]]++] = i;
    }
  }

  /** Outcome: a device per op, its exact latency (µs), the exact evaluations spent. */
  static final class Result {
    private final int[] label;
    private final double micros;
    private final int evaluations;

    Result(int[] label, double micros, int evaluations) {
      this.label = label.clone();
      this.micros = micros;
      this.evaluations = evaluations;
    }

    int[] label() {
      return label.clone();
    }

    double micros() {
      return micros;
    }

    int evaluations() {
      return evaluations;
    }
  }

  Result run(int[] start) {
    int n = model.opCount();
    int devices = model.deviceCount();
    int[] label = start.clone();
    double best = evaluator.micros(label);
    int evaluations = 1;
    if (Double.isInfinite(best)) {
      throw new IllegalArgumentException("local search needs a feasible start");
    }
    int[] root = new int[n];
    subModels(label, root);
    int groups = groupStart.length - 1;
    Moves moves = new Moves((2 * n + groups) * devices);
    int[] kind = moves.kind;
    int[] index = moves.index;
    int[] target = moves.target;
    double[] delta = moves.delta;
    int[] saved = new int[n];
    long[] load = budget == null ? null : budget.loads(label, devices);
    while (evaluations < maxEvaluations) {
      collectMoves(moves, label, root);
      int count = moves.count;
      Integer[] order = ranked(delta, count);
      int accepted = 0;
      for (int r = 0; r < count && evaluations < maxEvaluations; r++) {
        int k = order[r];
        if (delta[k] > threshold) {
          break;
        }
        int kd = kind[k];
        int ix = index[k];
        int d = target[k];
        // The placement changed since ranking: re-check the move against it.
        if (accepted > 0 && stale(kd, ix, d, label, root)) {
          continue;
        }
        int size = members(kd, ix);
        if (load != null && !budget.allows(load, work, size, label, d)) {
          continue;
        }
        for (int m = 0; m < size; m++) {
          saved[m] = label[work[m]];
          label[work[m]] = d;
        }
        double e = evaluator.micros(label);
        evaluations++;
        if (e < best - 1e-9 * best) {
          best = e;
          accepted++;
          if (load != null) {
            budget.move(load, work, size, saved, d);
          }
          subModels(label, root);
        } else {
          for (int m = 0; m < size; m++) {
            label[work[m]] = saved[m];
          }
        }
      }
      if (accepted == 0) {
        break;
      }
    }
    return new Result(label, best, evaluations);
  }

  /** Every move of this round: single ops and groups with their additive change, current sub-models first. */
  private void collectMoves(Moves moves, int[] label, int[] root) {
    int n = model.opCount();
    int devices = model.deviceCount();
    int groups = groupStart.length - 1;
    moves.count = 0;
    for (int i = 0; i < n; i++) {
      for (int d = 0; d < devices; d++) {
        if (d != label[i] && model.supported(i, d)) {
          moves.add(SINGLE, i, d, delta(SINGLE, i, d, label));
        }
      }
    }
    for (int g = 0; g < groups; g++) {
      for (int d = 0; d < devices; d++) {
        if (movable(GROUP, g, d, label)) {
          moves.add(GROUP, g, d, delta(GROUP, g, d, label));
        }
      }
    }
    for (int i = 0; i < n; i++) {
      for (int d = 0; d < devices; d++) {
        if (root[i] == i && movable(SUB_MODEL, i, d, label)) {
          // Always checked: ranked first.
          moves.add(SUB_MODEL, i, d, Double.NEGATIVE_INFINITY);
        }
      }
    }
  }

  /** Move indices by additive change, ties by move order. */
  private static Integer[] ranked(double[] delta, int count) {
    Integer[] order = new Integer[count];
    for (int k = 0; k < count; k++) {
      order[k] = k;
    }
    final double[] dl = delta;
    Arrays.sort(order,
        (a, b) -> a.equals(b) ? 0 : dl[a] != dl[b] ? Double.compare(dl[a], dl[b]) : Integer.compare(a, b));
    return order;
  }

  /** Whether a move ranked before the placement changed no longer applies or no longer looks worth checking. */
  private boolean stale(int kd, int ix, int d, int[] label, int[] root) {
    if (kd == SUB_MODEL && root[ix] != ix) {
      return true;
    }
    if (kd != SINGLE && !movable(kd, ix, d, label)) {
      return true;
    }
    if (kd == SINGLE && label[ix] == d) {
      return true;
    }
    if (kd != SUB_MODEL && delta(kd, ix, d, label) > threshold) {
      return true;
    }
    return false;
  }

  /** The moves of one round: kind, op / group / sub-model root, target device, additive change. */
  private static final class Moves {
    final int[] kind;
    final int[] index;
    final int[] target;
    final double[] delta;
    int count;

    Moves(int capacity) {
      kind = new int[capacity];
      index = new int[capacity];
      target = new int[capacity];
      delta = new double[capacity];
    }

    void add(int k, int ix, int d, double change) {
      kind[count] = k;
      index[count] = ix;
      target[count] = d;
      delta[count] = change;
      count++;
    }
  }

  /** Whether moving the group / sub-model to d changes something and d runs all of it. */
  private boolean movable(int kind, int ix, int d, int[] label) {
    int size = members(kind, ix);
    boolean changes = false;
    for (int m = 0; m < size; m++) {
      int i = work[m];
      if (!model.supported(i, d)) {
        return false;
      }
      changes |= label[i] != d;
    }
    return changes;
  }

  /** The ops of a move into {@link #work}; returns their number. */
  private int members(int kind, int ix) {
    int size = 0;
    switch (kind) {
      case SINGLE -> {
        ensure(1);
        work[size++] = ix;
      }
      case GROUP -> {
        ensure(groupStart[ix + 1] - groupStart[ix]);
        for (int k = groupStart[ix]; k < groupStart[ix + 1]; k++) {
          work[size++] = groupOps[k];
        }
      }
      default -> {
        ensure(subStart[ix + 1] - subStart[ix]);
        for (int k = subStart[ix]; k < subStart[ix + 1]; k++) {
          work[size++] = subOps[k];
        }
      }
    }
    return size;
  }

  private void ensure(int size) {
    if (work.length < size) {
      work = Arrays.copyOf(work, Math.max(size, work.length * 2));
    }
  }

  /** Change of the additive energy when the move's ops go to d (evaluated on the terms they touch). */
  private double delta(int kind, int ix, int d, int[] label) {
    int size = members(kind, ix);
    stamp++;
    if (stamp == Integer.MAX_VALUE) {
      Arrays.fill(opStamp, 0);
      Arrays.fill(tensorStamp, 0);
      stamp = 1;
    }
    for (int m = 0; m < size; m++) {
      opStamp[work[m]] = stamp;
    }
    double before = localEnergy(size, label);
    if (old.length < size) {
      old = new int[Math.max(size, old.length * 2)];
    }
    for (int m = 0; m < size; m++) {
      old[m] = label[work[m]];
      label[work[m]] = d;
    }
    stamp++;
    for (int m = 0; m < size; m++) {
      opStamp[work[m]] = stamp;
    }
    double after = localEnergy(size, label);
    for (int m = 0; m < size; m++) {
      label[work[m]] = old[m];
    }
    return after - before;
  }

  /** The energy terms that involve the ops in {@link #work} (marked with the current stamp). */
  private double localEnergy(int size, int[] label) {
    double e = 0;
    for (int m = 0; m < size; m++) {
      int i = work[m];
      e += cut.unary(i, label[i]);
      int f = model.fuseInto(i);
      if (f >= 0) {
        e += cut.fusionTerm(i, label[i], label[f]);
      }
      for (int k = cut.fusedByStart[i]; k < cut.fusedByStart[i + 1]; k++) {
        int j = cut.fusedBy[k];
        if (opStamp[j] != stamp) {
          // Pairs inside the move were counted from their fusing op.
          e += cut.fusionTerm(j, label[j], label[i]);
        }
      }
      for (int k = cut.producedStart[i]; k < cut.producedStart[i + 1]; k++) {
        int t = cut.produced[k];
        if (tensorStamp[t] != stamp) {
          tensorStamp[t] = stamp;
          e += cut.tensorTerm(t, label);
        }
      }
      for (int k = cut.consumedStart[i]; k < cut.consumedStart[i + 1]; k++) {
        int t = cut.consumed[k];
        if (tensorStamp[t] != stamp) {
          tensorStamp[t] = stamp;
          e += cut.tensorTerm(t, label);
        }
      }
    }
    return e;
  }
}
