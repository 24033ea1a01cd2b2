package org.hsdag.plan;

import java.util.List;
import java.util.SplittableRandom;
import org.hsdag.cost.HeteroCostModel;

/**
 * A long reference search on the exact proxy, to estimate how far a plan is from the optimum (a
 * "best known" latency): simulated annealing from several starts, each move evaluated exactly,
 * then the planner's {@link LocalSearch} descent on the result. Moves: one op, one co-location
 * group or one current sub-model to another device. Temperature falls geometrically from 2 % to
 * 0.001 % of the start's latency. Reproducible for a seed; far slower than the planner (it spends
 * {@code evaluations} exact evaluations per start).
 */
public final class AnnealingSearch {
  /** Start temperature as a fraction of the start's latency: a 2 % worse move is accepted with probability 1/e. */
  static final double START_TEMPERATURE = 0.02;
  /** End temperature as a fraction of the start's latency: by then only improvements pass. */
  static final double END_TEMPERATURE = 1e-5;
  /** Share of moves that take a whole current sub-model (draws below it). */
  static final double SUB_MODEL_MOVES_BELOW = 0.05;
  /** Draws from {@link #SUB_MODEL_MOVES_BELOW} up to this move a co-location group (20 %); the rest one op. */
  static final double GROUP_MOVES_BELOW = 0.25;

  private final int evaluations;
  private final long seed;

  /**
   * @param evaluations exact evaluations per start
   * @param seed seed of the move choices and acceptance draws
   */
  public AnnealingSearch(int evaluations, long seed) {
    if (evaluations < 1) {
      throw new IllegalArgumentException("evaluations must be >= 1");
    }
    this.evaluations = evaluations;
    this.seed = seed;
  }

  /** The result: a device per op, its exact latency (µs) and how many starts were infeasible (skipped). */
  public static final class Result {
    private final int[] opDevices;
    private final double micros;
    private final int skippedStarts;

    public Result(int[] opDevices, double micros) {
      this(opDevices, micros, 0);
    }

    public Result(int[] opDevices, double micros, int skippedStarts) {
      this.opDevices = opDevices.clone();
      this.micros = micros;
      this.skippedStarts = skippedStarts;
    }

    /** Starts the cost model rejects (infinite latency: an unsupported op, a refused split), left out. */
    public int skippedStarts() {
      return skippedStarts;
    }

    public int[] opDevices() {
      return opDevices.clone();
    }

    public double micros() {
      return micros;
    }
  }

  /**
   * Anneals from each start (a device per op of {@code model}) and returns the best placement
   * seen; never worse than the best start. A start the model rejects is skipped (counted in
   * {@link Result#skippedStarts}); without any feasible start it throws.
   */
  public Result run(HeteroCostModel model, int[][] groups, List<int[]> starts) {
    return run(model, groups, starts, null);
  }

  /**
   * {@link #run(HeteroCostModel, int[][], List)} never accepting a move that puts more bytes on a
   * device than {@code budget} allows (null: unlimited); the starts must be within it.
   */
  public Result run(HeteroCostModel model, int[][] groups, List<int[]> starts, OpBudget budget) {
    HeteroCostModel.Evaluator exact = model.evaluator();
    SplittableRandom rnd = new SplittableRandom(seed);
    int n = model.opCount();
    int devices = model.deviceCount();
    int[] best = null;
    double bestMicros = Double.POSITIVE_INFINITY;
    int skipped = 0;
    for (int[] start : starts) {
      int[] label = start.clone();
      double e = exact.micros(label);
      if (!Double.isFinite(e) || (budget != null && !budget.holds(label))) {
        skipped++; // e.g. a random block start that splits where the model refuses to: nothing to anneal from
        continue;
      }
      if (e < bestMicros) {
        bestMicros = e;
        best = label.clone();
      }
      if (devices < 2 || n == 0) {
        continue;
      }
      double t0 = START_TEMPERATURE * e;
      double t1 = END_TEMPERATURE * e;
      double cool = Math.pow(t1 / t0, 1.0 / evaluations);
      double temperature = t0;
      int[] root = new int[n];
      int[] moved = new int[n];
      int[] saved = new int[n];
      long[] load = budget == null ? null : budget.loads(label, devices);
      for (int k = 0; k < evaluations; k++, temperature *= cool) {
        int d = rnd.nextInt(devices);
        int size = randomMove(model, groups, rnd, label, root, moved);
        boolean ok = true;
        boolean changes = false;
        for (int m = 0; m < size && ok; m++) {
          ok = model.supported(moved[m], d);
          changes |= label[moved[m]] != d;
        }
        if (!ok || !changes || (load != null && !budget.allows(load, moved, size, label, d))) {
          continue;
        }
        for (int m = 0; m < size; m++) {
          saved[m] = label[moved[m]];
          label[moved[m]] = d;
        }
        double next = exact.micros(label);
        if (next <= e || rnd.nextDouble() < Math.exp((e - next) / temperature)) {
          e = next;
          if (load != null) {
            budget.move(load, moved, size, saved, d);
          }
          if (e < bestMicros) {
            bestMicros = e;
            best = label.clone();
          }
        } else {
          for (int m = 0; m < size; m++) {
            label[moved[m]] = saved[m];
          }
        }
      }
    }
    if (best == null) {
      throw new IllegalArgumentException(
          starts.isEmpty() ? "no start" : "no feasible start (" + skipped + " rejected)");
    }
    if (devices >= 2 && n > 0) {
      return polish(model, groups, budget, best, bestMicros, skipped);
    }
    return new Result(best, bestMicros, skipped);
  }

  /**
   * Draws one move into {@code moved}: a whole current sub-model (its ops recomputed into
   * {@code root}), a co-location group or a single op. Returns how many ops it moves.
   */
  private static int randomMove(HeteroCostModel model, int[][] groups, SplittableRandom rnd, int[] label, int[] root,
      int[] moved) {
    int n = model.opCount();
    int size = 0;
    double kind = rnd.nextDouble();
    if (kind < SUB_MODEL_MOVES_BELOW) {
      // A whole current sub-model (root of a random op).
      model.subModels(label, root);
      int r = root[rnd.nextInt(n)];
      for (int i = r; i < n; i++) {
        if (root[i] == r) {
          moved[size++] = i;
        }
      }
    } else if (kind < GROUP_MOVES_BELOW && groups.length > 0) {
      for (int i : groups[rnd.nextInt(groups.length)]) {
        moved[size++] = i;
      }
    } else {
      moved[size++] = rnd.nextInt(n);
    }
    return size;
  }

  /** The best placement after a final descent from it (never worse). */
  private static Result polish(HeteroCostModel model, int[][] groups, OpBudget budget, int[] best, double bestMicros,
      int skipped) {
    LocalSearch.Result polished = new LocalSearch(new CutModel(model, 1.0), groups, Integer.MAX_VALUE, budget)
        .run(best);
    return polished.micros() < bestMicros ? new Result(polished.label(), polished.micros(), skipped)
        : new Result(best, bestMicros, skipped);
  }
}
