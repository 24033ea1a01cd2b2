package org.hsdag.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hsdag.memory.NoPlacementFitsException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryUse;

/**
 * The {@link Planner} under device memory capacities (the proxy's {@link MemoryCheck}). The
 * additive part of memory, each op's weights, is a budget per device: capacity less the runtime
 * overhead less a reserve for activations. Lagrangian relaxation prices a byte on each capped
 * device: the minimum cut (two devices) or α-expansion (three or more) is solved with op i costing
 * {@code price[d] · bytes[i]} more on d, the prices of the over-budget devices scaled together by
 * geometric bisection to the lowest factor at which every budget holds; knapsack rounding toward the
 * labeling just below that factor and the cap-preserving
 * {@link LocalSearch} then fill what the relaxation left free. Every result is checked on the full
 * memory model (activation peaks included); when one misses, the reserve of that device grows by
 * the miss and the search repeats; when all fit, the reserves shrink to what they really need and the
 * search runs once more, so the weights fill the devices. When HETERO refuses every priced cut and no repair
 * holds the budgets, contiguous {@link PrefixSplits stages} stand in. Every candidate returned fits.
 */
final class CappedPlanner {
  private static final int ROUNDS = 4;
  private static final int BISECTIONS = 14;

  private final Planner planner;

  CappedPlanner(Planner planner) {
    this.planner = planner;
  }

  Planner.OpPlan planOps(PlacementProxy proxy) {
    HeteroCostModel model = proxy.model();
    MemoryCheck check = proxy.memory().orElseThrow();
    int devices = model.deviceCount();
    long[] bytes = OpBudget.weightsPerOp(proxy, check);
    long[] reserve = OpBudget.startingReserves(proxy, check);
    long[] evaluations = {0};
    HeteroCostModel.Evaluator exact = model.evaluator();
    List<Planner.OpCandidate> fitting = new ArrayList<>();
    boolean refined = false;
    for (int round = 0; round < ROUNDS; round++) {
      long[] budget = OpBudget.budgetsAfter(check, reserve);
      long[] miss = new long[devices];
      long[] need = new long[devices];
      for (Planner.OpCandidate c : candidates(proxy, new OpBudget(bytes, budget), exact, evaluations)) {
        List<MemoryUse> use = check.use(proxy.placement(c.label()));
        boolean fits = true;
        for (int d = 0; d < devices; d++) {
          long over = use.get(d).totalBytes() - use.get(d).capacityBytes();
          if (use.get(d).limited() && over > 0) {
            fits = false;
            miss[d] = Math.max(miss[d], over);
          }
        }
        if (fits) {
          fitting.add(
              new Planner.OpCandidate(c.label(), c.micros(), c.subModels(), c.origin(), c.family(), fitting.size()));
          for (int d = 0; d < devices; d++) {
            need[d] = Math.max(need[d], use.get(d).totalBytes() - use.get(d).weightBytes());
          }
        }
      }
      boolean missed = Arrays.stream(miss).anyMatch(m -> m > 0);
      boolean slack = false;
      for (int d = 0; d < devices; d++) {
        slack |= need[d] > 0 && need[d] < reserve[d];
      }
      if (!missed && (refined || !slack)) {
        break;
      }
      for (int d = 0; d < devices; d++) {
        // A miss grows the reserve by it; otherwise the reserve shrinks to what the fitting plans really need.
        reserve[d] = missed ? reserve[d] + miss[d] : need[d] > 0 ? Math.min(reserve[d], need[d]) : reserve[d];
      }
      refined |= !missed;
    }
    if (!fitting.isEmpty()) {
      Planner.OpCandidate single = fitting.stream().filter(c -> c.family().equals("single"))
          .min(java.util.Comparator.comparingDouble(Planner.OpCandidate::micros)).orElse(null);
      return new Planner.OpPlan(planner.select(fitting), single, evaluations[0]);
    }
    throw NoPlacementFitsException.of(check);
  }

  /** Single devices within budget, then priced cuts / α-expansion per λ, each polished by the capped local search. */
  private List<Planner.OpCandidate> candidates(PlacementProxy proxy, OpBudget ob, HeteroCostModel.Evaluator exact,
      long[] evaluations) {
    HeteroCostModel model = proxy.model();
    int devices = model.deviceCount();
    int ops = model.opCount();
    List<Planner.OpCandidate> pool = new ArrayList<>();
    int[] start = null;
    for (int d = 0; d < devices; d++) {
      int[] label = new int[ops];
      Arrays.fill(label, d);
      if (supportsAll(model, d) && ob.holds(label)) {
        pool.add(
            Planner.candidate(exact, label, "single " + model.device(d).name(), "single", pool.size(), evaluations));
        if (start == null || pool.get(pool.size() - 1).micros() < exact.micros(start)) {
          start = label;
        }
      }
    }
    int[][] groups = proxy.colocationGroups();
    int[] order = topologicalOps(proxy);
    PlannerConfig config = planner.config();
    // Seeds by pair (-1: all devices) and labeling: λ often changes nothing, and each distinct seed is polished once.
    Map<String, Seed> seeds = new LinkedHashMap<>();
    Map<Integer, double[]> hints = new java.util.HashMap<>();
    for (double lambda : config.subModelWeights()) {
      String lam = String.format(Locale.ROOT, "λ=%s", lambda);
      int k = 0;
      for (int a = 0; a < devices; a++) {
        for (int b = a + 1; b < devices; b++, k++) {
          if (ob.budget(a) <= 0 || ob.budget(b) <= 0) {
            continue; // a device that holds no weights gives no split worth pricing
          }
          HeteroCostModel pm = model.withDevices(List.of(model.device(a).name(), model.device(b).name()));
          OpBudget pb = new OpBudget(ob.bytes(), new long[] {ob.budget(a), ob.budget(b)});
          double[] start2 = startPrices(pm, pb.bytes());
          double[] hint = hints.computeIfAbsent(k, x -> new double[] {Double.NaN});
          int[] label = fastest(pm.evaluator(), priced(pb, pm, order, start2, hint,
              price -> Expansion.twoDevices(new CutModel(pm, lambda, pb.bytes(), price))));
          if (label != null) {
            String family = "capped cut " + model.device(a).name() + "+" + model.device(b).name();
            addSeed(seeds, new Seed(k, new int[] {a, b}, pm, pb, label, family, family + " " + lam));
          }
        }
      }
      if (devices >= 3 && start != null) {
        int[] from = start;
        double[] hint = hints.computeIfAbsent(-1, x -> new double[] {Double.NaN});
        int[] label = fastest(exact, priced(ob, model, order, startPrices(model, ob.bytes()), hint,
            price -> Expansion.alphaExpansion(new CutModel(model, lambda, ob.bytes(), price), from)));
        if (label != null) {
          addSeed(seeds, new Seed(-1, null, model, ob, label, "capped α-expansion", "capped α-expansion " + lam));
        }
      }
    }
    // A priced cut knows nothing of the splits HETERO refuses: repaired as the uncapped planner repairs its starts,
    // or every capped split of a model with shape chains (a T5) is dropped and nothing is said to fit.
    FeasibleStarts starts = new FeasibleStarts();
    for (Seed sd : seeds.values()) {
      int[] from = starts.feasible(sd.model, sd.label, sd.origin);
      if (from == null) {
        continue;
      }
      int[] label = sd.budget.holds(from) ? polish(sd.model, groups, sd.budget, from, config, evaluations) : from;
      Planner.addUnlessRefused(pool, Planner.candidate(exact, sd.pair == null ? label : toFull(label, sd.pair),
          sd.origin + (from != sd.label ? " (repaired)" : "") + (config.localSearch() ? " + local search" : ""),
          sd.family, pool.size(), evaluations));
    }
    if (pool.stream().noneMatch(c -> !c.family().equals("single") && ob.holds(c.label()))) {
      addStages(pool, model, ob, order, groups, starts, exact, evaluations);
    }
    return pool;
  }

  /** Per device pair, the fastest {@link PrefixSplits} stage split within budget, polished. */
  private void addStages(List<Planner.OpCandidate> pool, HeteroCostModel model, OpBudget ob, int[] order,
      int[][] groups, FeasibleStarts starts, HeteroCostModel.Evaluator exact, long[] evaluations) {
    PlannerConfig config = planner.config();
    for (int a = 0; a < model.deviceCount(); a++) {
      for (int b = a + 1; b < model.deviceCount(); b++) {
        if (ob.budget(a) <= 0 || ob.budget(b) <= 0) {
          continue;
        }
        HeteroCostModel pm = model.withDevices(List.of(model.device(a).name(), model.device(b).name()));
        OpBudget pb = new OpBudget(ob.bytes(), new long[] {ob.budget(a), ob.budget(b)});
        String family = "capped stages " + model.device(a).name() + "+" + model.device(b).name();
        int[] label = PrefixSplits.fastest(pm, pb, order, starts, family);
        if (label != null) {
          int[] polished = polish(pm, groups, pb, label, config, evaluations);
          Planner.addUnlessRefused(pool, Planner.candidate(exact, toFull(polished, new int[] {a, b}),
              family + (config.localSearch() ? " + local search" : ""), family, pool.size(), evaluations));
        }
      }
    }
  }

  /** A labeling to polish: on a device pair ({@code pair} maps its devices) or on all devices ({@code pair} null). */
  private static final class Seed {
    private final int key;
    private final int[] pair;
    private final HeteroCostModel model;
    private final OpBudget budget;
    private final int[] label;
    private final String family;
    private final String origin;

    Seed(int key, int[] pair, HeteroCostModel model, OpBudget budget, int[] label, String family, String origin) {
      this.key = key;
      this.pair = pair;
      this.model = model;
      this.budget = budget;
      this.label = label;
      this.family = family;
      this.origin = origin;
    }
  }

  private static void addSeed(Map<String, Seed> seeds, Seed s) {
    seeds.merge(s.key + ":" + Arrays.toString(s.label), s,
        (old, dup) -> new Seed(old.key, old.pair, old.model,
            old.budget, old.label, old.family,
            old.origin + ", " + dup.origin.substring(dup.origin.lastIndexOf(' ') + 1)));
  }

  /**
   * The labeling of {@code labels} the exact model rates fastest; the first when it refuses them all (the seed
   * loop repairs it); null when there is none.
   */
  private static int[] fastest(HeteroCostModel.Evaluator exact, List<int[]> labels) {
    int[] best = labels.isEmpty() ? null : labels.get(0);
    double bestMicros = Double.POSITIVE_INFINITY;
    for (int[] l : labels) {
      double e = exact.micros(l);
      if (e < bestMicros) {
        bestMicros = e;
        best = l;
      }
    }
    return best;
  }

  private static int[] polish(HeteroCostModel model, int[][] groups, OpBudget budget, int[] label, PlannerConfig config,
      long[] evaluations) {
    if (!config.localSearch() || Double.isInfinite(model.evaluator().micros(label))) {
      // A start the model refuses is not polished; the candidate check drops it.
      return label;
    }
    LocalSearch.Result r = new LocalSearch(new CutModel(model, 1.0), groups, config.evaluations(model.opCount()),
        budget)
        .run(label);
    evaluations[0] += r.evaluations();
    return r.label();
  }

  /**
   * Labelings within budget from the Lagrangian: {@code solve} at the lowest price factor under
   * which every budget holds, and that labeling rounded toward the one just below
   * those prices (which breaks a budget): its extra ops are taken over in topological order while every budget still holds. When weights are worth about the same time per
   * byte everywhere (a transformer's layers), the relaxation jumps from "all" to "nothing" at one
   * price and the rounding is what fills the device (up to the first op that no longer fits: a
   * contiguous stage, few sub-models), or the knapsack eviction below fills it. Empty when no price makes every budget hold.
   */
  private static List<int[]> priced(OpBudget ob, HeteroCostModel model, int[] opOrder, double[] startPrice,
      double[] hint, Function<double[], int[]> solve) {
    int devices = model.deviceCount();
    double[] price = new double[devices];
    int[] label = solve.apply(price);
    if (label == null) {
      return List.of();
    }
    if (ob.holds(label)) {
      return List.of(label);
    }
    // Prices on the over-budget devices only, all scaled together by one factor found by geometric bisection
    // between a price too low to move anything and one at which every weighted op costs more there than
    // the whole model takes anywhere.
    long[] load = ob.loads(label, devices);
    boolean[] priced = new boolean[devices];
    for (int d = 0; d < devices; d++) {
      priced[d] = load[d] > ob.budget(d);
    }
    // A factor found for another λ narrows the search to around it.
    boolean near = !Double.isNaN(hint[0]);
    double lo = near ? hint[0] - 1 : Math.log(1e-6);
    double hi = near ? hint[0] + 1 : Math.log(Math.max(startPrice[devices], 1));
    int[] over = label;
    int[] fit = null;
    for (int k = 0; k < (near ? BISECTIONS / 2 : BISECTIONS); k++) {
      double mid = k == 0 ? hi : (lo + hi) / 2;
      for (int d = 0; d < devices; d++) {
        price[d] = priced[d] ? startPrice[d] * Math.exp(mid) : 0;
      }
      int[] trial = solve.apply(price);
      if (ob.holds(trial)) {
        hi = mid;
        fit = trial;
      } else if (k == 0) {
        if (near) {
          hint[0] = Double.NaN;
          return priced(ob, model, opOrder, startPrice, hint, solve);
        }
        // Pricing the over-budget devices only pushed their excess onto devices that are capped too (every
        // device capped below the model): fill each device up to its budget instead, if that holds.
        int[] filled = evict(ob, model, label, label);
        return ob.holds(filled) ? List.of(filled) : List.of();
      } else {
        lo = mid;
        over = trial;
      }
    }
    label = fit;
    hint[0] = hi;
    List<int[]> out = new ArrayList<>(List.of(label));
    if (over != null) {
      out.add(round(ob, devices, label, over, opOrder));
      out.add(evict(ob, model, label, over));
    }
    return out;
  }

  /** {@code fits} with the ops where {@code over} differs moved as {@code over} has them, in order, while budgets hold. */
  private static int[] round(OpBudget ob, int devices, int[] fits, int[] over, int[] opOrder) {
    int[] label = fits.clone();
    long[] load = ob.loads(label, devices);
    int[] one = new int[1];
    int[] from = new int[1];
    for (int k = 0; k < opOrder.length; k++) {
      int i = opOrder[k];
      if (over[i] == label[i]) {
        continue;
      }
      one[0] = i;
      if (!ob.allows(load, one, 1, label, over[i])) {
        break;
      }
      from[0] = label[i];
      label[i] = over[i];
      ob.move(load, one, 1, from, over[i]);
    }
    return label;
  }

  /**
   * {@code over} with ops taken off its over-budget devices, least kernel time lost per byte freed
   * first, until every budget holds (greedy knapsack rounding: the ops that gain most per byte stay).
   * An op goes where {@code fits} has it, or else to its fastest other device.
   */
  static int[] evict(OpBudget ob, HeteroCostModel model, int[] fits, int[] over) {
    int devices = model.deviceCount();
    int[] label = over.clone();
    long[] bytes = ob.bytes();
    long[] load = ob.loads(label, devices);
    int[] to = new int[label.length];
    List<Integer> movable = new ArrayList<>();
    for (int i = 0; i < label.length; i++) {
      to[i] = fits[i] != over[i] ? fits[i] : fastestOther(model, i, over[i]);
      if (bytes[i] > 0 && load[over[i]] > ob.budget(over[i]) && to[i] >= 0) {
        movable.add(i);
      }
    }
    movable.sort(
        java.util.Comparator.comparingDouble(i -> (model.micros(i, to[i]) - model.micros(i, over[i])) / bytes[i]));
    for (int i : movable) {
      if (load[label[i]] > ob.budget(label[i]) && load[to[i]] + bytes[i] <= ob.budget(to[i])) {
        load[label[i]] -= bytes[i];
        load[to[i]] += bytes[i];
        label[i] = to[i];
      }
    }
    return ob.holds(label) ? label : fits;
  }

  private static int fastestOther(HeteroCostModel model, int i, int not) {
    int best = -1;
    for (int d = 0; d < model.deviceCount(); d++) {
      if (d != not && model.supported(i, d) && (best < 0 || model.micros(i, d) < model.micros(i, best))) {
        best = d;
      }
    }
    return best;
  }

  /** Per device, a first price: the mean kernel time a byte of weights saves there against the slowest device. */
  static double[] startPrices(HeteroCostModel model, long[] bytes) {
    int devices = model.deviceCount();
    double[] saving = new double[devices];
    long total = 0;
    for (int i = 0; i < model.opCount(); i++) {
      total += bytes[i];
      if (bytes[i] == 0) {
        continue;
      }
      double worst = 0;
      for (int d = 0; d < devices; d++) {
        worst = model.supported(i, d) ? Math.max(worst, model.micros(i, d)) : worst;
      }
      for (int d = 0; d < devices; d++) {
        saving[d] += model.supported(i, d) ? worst - model.micros(i, d) : 0;
      }
    }
    // One more entry: a factor on these prices at which every weighted op is priced off its device.
    double[] out = new double[devices + 1];
    double totalMicros = 0;
    long minBytes = Long.MAX_VALUE;
    for (int i = 0; i < model.opCount(); i++) {
      double worst = 0;
      for (int d = 0; d < devices; d++) {
        worst = model.supported(i, d) ? Math.max(worst, model.micros(i, d)) : worst;
      }
      totalMicros += worst;
      minBytes = bytes[i] > 0 ? Math.min(minBytes, bytes[i]) : minBytes;
    }
    double least = Double.POSITIVE_INFINITY;
    for (int d = 0; d < devices; d++) {
      out[d] = Math.max(saving[d] / Math.max(1, total), 1e-12);
      least = Math.min(least, out[d]);
    }
    out[devices] = 4 * totalMicros / Math.max(1, minBytes == Long.MAX_VALUE ? 1 : minBytes) / least;
    return out;
  }

  /** Op indices in the graph's topological order. */
  private static int[] topologicalOps(PlacementProxy proxy) {
    HeteroCostModel model = proxy.model();
    return java.util.stream.IntStream.range(0, model.opCount()).boxed()
        .sorted(java.util.Comparator.comparingInt(i -> proxy.graph().topologicalRank(model.node(i))))
        .mapToInt(Integer::intValue).toArray();
  }

  static boolean supportsAll(HeteroCostModel model, int d) {
    for (int i = 0; i < model.opCount(); i++) {
      if (!model.supported(i, d)) {
        return false;
      }
    }
    return true;
  }

  private static int[] toFull(int[] pairLabel, int[] pair) {
    int[] full = new int[pairLabel.length];
    for (int i = 0; i < full.length; i++) {
      full[i] = pair[pairLabel[i]];
    }
    return full;
  }
}
