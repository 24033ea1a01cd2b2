package org.hsdag.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryUse;
import org.hsdag.placement.Placement;

/**
 * The best placement known under the proxy's memory capacities, independent of how the planner
 * rounds its Lagrangian: capped {@link AnnealingSearch} (every move kept within the weight
 * budgets) from the given placements, and again from random placements repaired into the budgets
 * (random blocks and every single device, over-budget ops moved off at random until each budget
 * holds), each result checked on the full memory model. The weight budgets are each capacity less
 * the larger of the runtime overhead and the activations the fitting starts need there (never
 * below what a start already holds). Reproducible for a seed.
 */
public final class CappedReference {
  private CappedReference() {}

  /**
   * The result.
   *
   * @param placement the fastest placement found that fits every capacity
   * @param proxyMillis its latency on the proxy (noise-free)
   * @param source {@code start} (no annealing improved on the best start), {@code annealing from
   *     the starts} or {@code annealing from random feasible starts}
   */
  public record Result(Placement placement, double proxyMillis, String source) {}

  /**
   * Searches with {@code evaluations} exact evaluations per annealing start.
   *
   * @param starts placements to start from; those that do not fit are skipped, at least one must fit
   * @param randomRounds draws of {@link BestKnown#independentStarts} repaired into the budgets
   */
  public static Result search(PlacementProxy proxy, List<Placement> starts, int evaluations, int randomRounds,
      long seed) {
    MemoryCheck check = proxy.memory().orElseThrow(() -> new IllegalArgumentException("the proxy has no memory caps"));
    HeteroCostModel model = proxy.model();
    List<int[]> fitting = new ArrayList<>();
    Placement bestStart = null;
    double bestStartMicros = Double.POSITIVE_INFINITY;
    for (Placement p : starts) {
      if (check.fits(p) && proxy.evaluate(p).ok()) {
        int[] ops = proxy.opDevices(p);
        if (fitting.stream().noneMatch(l -> Arrays.equals(l, ops))) {
          fitting.add(ops); // the planner's candidates often share a labeling: anneal from each once
        }
        double micros = proxy.latencyMicros(p);
        if (micros < bestStartMicros) {
          bestStartMicros = micros;
          bestStart = p;
        }
      }
    }
    if (bestStart == null) {
      throw new IllegalArgumentException("no start fits the memory capacities");
    }
    OpBudget budget = budget(proxy, check, starts, fitting);
    Result best = new Result(bestStart, bestStartMicros / 1000.0, "start");
    List<AnnealingSearch.Result> annealed = anneal(model, proxy.colocationGroups(), fitting, budget, evaluations,
        randomRounds, seed);
    best = better(proxy, check, best, annealed.get(0), "annealing from the starts");
    if (annealed.size() > 1) {
      best = better(proxy, check, best, annealed.get(1), "annealing from random feasible starts");
    }
    return best;
  }

  /**
   * The capped annealing on the op level: from {@code starts} (within {@code budget}), then from
   * random placements repaired into it (when any can be).
   *
   * @return the result from the starts, then the one from the random starts if there were any
   */
  static List<AnnealingSearch.Result> anneal(HeteroCostModel model, int[][] groups, List<int[]> starts, OpBudget budget,
      int evaluations, int randomRounds, long seed) {
    List<AnnealingSearch.Result> out = new ArrayList<>();
    out.add(new AnnealingSearch(evaluations, seed).run(model, groups, starts, budget));
    List<int[]> random = randomFeasible(model, budget, randomRounds, new SplittableRandom(seed + 1));
    if (!random.isEmpty()) {
      out.add(new AnnealingSearch(evaluations, seed + 2).run(model, groups, random, budget));
    }
    return out;
  }

  private static Result better(PlacementProxy proxy, MemoryCheck check, Result best, AnnealingSearch.Result r,
      String source) {
    Placement p = proxy.placement(r.opDevices());
    // The budgets hold the weights; the activations are checked here on the full model.
    return r.micros() / 1000.0 < best.proxyMillis() && check.fits(p) ? new Result(p, r.micros() / 1000.0, source)
        : best;
  }

  /** Weight budgets: capacity less the larger of overhead and the fitting starts' activations, never below a start's load. */
  private static OpBudget budget(PlacementProxy proxy, MemoryCheck check, List<Placement> starts, List<int[]> fitting) {
    int devices = proxy.devices().size();
    long[] bytes = OpBudget.weightsPerOp(proxy, check);
    long[] budget = new long[devices];
    Arrays.fill(budget, Long.MAX_VALUE);
    for (Placement p : starts) {
      if (!check.fits(p)) {
        continue;
      }
      List<MemoryUse> use = check.use(p);
      for (int d = 0; d < devices; d++) {
        if (check.capacity(d) != Long.MAX_VALUE) {
          long activations = use.get(d).totalBytes() - use.get(d).weightBytes();
          budget[d] = Math.min(budget[d], check.capacity(d) - Math.max(activations, check.overhead(d)));
        }
      }
    }
    for (int[] l : fitting) {
      long[] load = new OpBudget(bytes, budget).loads(l, devices);
      for (int d = 0; d < devices; d++) {
        budget[d] = Math.max(budget[d], load[d]);
      }
    }
    return new OpBudget(bytes, budget);
  }

  /**
   * {@link BestKnown#independentStarts} (every single device and random blocks) drawn {@code rounds}
   * times, the single devices once, each repaired into the budgets; those that cannot be are left out.
   */
  static List<int[]> randomFeasible(HeteroCostModel model, OpBudget budget, int rounds, SplittableRandom rnd) {
    List<int[]> raw = new ArrayList<>();
    for (int k = 0; k < rounds; k++) {
      List<int[]> drawn = BestKnown.independentStarts(model, rnd);
      raw.addAll(k == 0 ? drawn : drawn.subList(drawn.size() - BestKnown.RANDOM_STARTS, drawn.size()));
    }
    List<int[]> out = new ArrayList<>();
    for (int[] label : raw) {
      if (repair(model, budget, label, rnd)) {
        out.add(label);
      }
    }
    return out;
  }

  /** Moves random weighted ops off each over-budget device to a random device with room; false when stuck. */
  static boolean repair(HeteroCostModel model, OpBudget budget, int[] label, SplittableRandom rnd) {
    int devices = model.deviceCount();
    long[] load = budget.loads(label, devices);
    long[] bytes = budget.bytes();
    int[] order = new int[label.length];
    for (int i = 0; i < order.length; i++) {
      int j = rnd.nextInt(i + 1); // Fisher-Yates, inside out
      order[i] = order[j];
      order[j] = i;
    }
    for (int d = 0; d < devices; d++) {
      for (int k = 0; k < order.length && load[d] > budget.budget(d); k++) {
        int i = order[k];
        if (label[i] != d || bytes[i] == 0) {
          continue;
        }
        int to = -1;
        int seen = 0;
        for (int e = 0; e < devices; e++) {
          if (e != d && model.supported(i, e) && load[e] + bytes[i] <= budget.budget(e) && rnd.nextInt(++seen) == 0) {
            to = e; // uniform among the devices with room
          }
        }
        if (to >= 0) {
          label[i] = to;
          load[d] -= bytes[i];
          load[to] += bytes[i];
        }
      }
      if (load[d] > budget.budget(d)) {
        return false;
      }
    }
    return true;
  }
}
