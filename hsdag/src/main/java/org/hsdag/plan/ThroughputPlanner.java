package org.hsdag.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import org.hsdag.memory.NoPlacementFitsException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.hsdag.cost.CostTerms;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.placement.Placement;
import org.hsdag.throughput.PipelineStages;
import org.hsdag.throughput.PipelineThroughput;

/**
 * The planner under the throughput objective: minimises the time per inference with N requests in
 * flight, whose bound is the busiest device's load per inference or the latency over N.
 *
 * <p>Seeds from two sides. A Lagrangian relaxation of that bound: min over placements of max over
 * resources (each device's load, latency / N) equals min over placements of max over weights w on
 * the resources of Σ w_r · value_r, and for fixed weights that sum is the additive cost model with
 * each device's kernels, copies and sub-model starts scaled by w_d + w_latency / N, which the
 * latency planner's cuts ({@link Planner}: min-cut, α-expansion) solve; the weights are searched by
 * multiplicative updates towards the resources that bound the placement found. And a parametric
 * search over the bound itself on pipelines ({@link PipelinePartition}: contiguous stages along the
 * topological order, one per device, by bisection with a greedy feasibility test). Then a
 * {@link BottleneckDescent} from the best seeds, and the candidates ranked by the simulated time per
 * inference. Under memory capacities (the proxy's {@link MemoryCheck}) every seed and move keeps
 * each device's weights within its budget (capacity less runtime overhead less the activation peak
 * of the whole model on it), and a candidate the full memory model rejects is dropped, so every
 * candidate fits. Deterministic.
 */
final class ThroughputPlanner {
  /** Weight updates (one latency plan each). */
  static final int ROUNDS = 10;
  /** Step of the multiplicative update, shrinking each round. */
  static final double STEP = 3.0;
  static final double STEP_DECAY = 0.8;
  /** Weight of the latency in the descent's cost: among placements with the same bound, the faster one. */
  static final double LATENCY_TIE_BREAK = 1e-3;
  /** Starts of the descent: the best candidates by the bound. */
  static final int DESCENT_STARTS = 6;

  private final PlannerConfig config;

  ThroughputPlanner(PlannerConfig config) {
    this.config = config;
  }

  /** The plan of a throughput proxy ({@link PlacementProxy#throughputRequests} > 0), within its memory caps if any. */
  Plan plan(PlacementProxy proxy) {
    long[] evaluations = {0};
    Optional<MemoryCheck> memory = proxy.memory();
    OpBudget budget = memory.map(check -> budget(proxy, check)).orElse(null);
    Map<String, Found> pool = search(proxy.model(), proxy.colocationGroups(), proxy.throughputRequests(), budget,
        evaluations);
    return select(proxy, pool.values(), evaluations[0]);
  }

  /** The best placement found on {@code model} by the simulated time per inference (device per op), without caps. */
  int[] best(HeteroCostModel model, int[][] groups, int requests) {
    return best(model, groups, requests, null);
  }

  /** {@link #best(HeteroCostModel, int[][], int)} with each device's weights within {@code budget}. */
  int[] best(HeteroCostModel model, int[][] groups, int requests, OpBudget budget) {
    int[] best = null;
    double bestPeriod = Double.POSITIVE_INFINITY;
    for (Found f : search(model, groups, requests, budget, new long[1]).values()) {
      double period = PipelineThroughput.simulatedPeriodMicros(PipelineStages.of(model, f.label), requests);
      if (period < bestPeriod) {
        best = f.label;
        bestPeriod = period;
      }
    }
    return best;
  }

  /**
   * Each device's weight budget: its capacity less its runtime overhead and the activation peak of
   * the whole model on it (what {@link CappedPlanner} starts from), the weights following their ops.
   */
  private static OpBudget budget(PlacementProxy proxy, MemoryCheck check) {
    return new OpBudget(OpBudget.weightsPerOp(proxy, check),
        OpBudget.budgetsAfter(check, OpBudget.startingReserves(proxy, check)));
  }

  /** Every distinct placement within budget the weighted plans, the pipelines and the descents found, by label. */
  private Map<String, Found> search(HeteroCostModel model, int[][] groups, int requests, OpBudget budget,
      long[] evaluations) {
    int devices = model.deviceCount();
    Map<String, Found> pool = new LinkedHashMap<>();
    for (int d = 0; d < devices; d++) {
      int[] single = new int[model.opCount()];
      Arrays.fill(single, d);
      if (CappedPlanner.supportsAll(model, d)) {
        add(pool, model, single, "single " + model.device(d).name(), requests, budget, evaluations);
      }
    }
    weightedPlans(model, groups, requests, budget, pool, evaluations);
    for (int[] label : new PipelinePartition(model, budget).partitions()) {
      add(pool, model, label, "pipeline stages", requests, budget, evaluations);
    }
    // An evicted seed scatters ops over the graph (chosen by time per byte): its sub-model graph is cyclic and every
    // exact evaluation of a descent from it costs HETERO's cycle splitting, so descents start there only when nothing else fits.
    List<Found> byBound = new ArrayList<>(pool.values().stream().filter(f -> !f.evicted).toList());
    if (byBound.isEmpty()) {
      byBound.addAll(pool.values());
    }
    byBound.sort(Comparator.comparingDouble(f -> f.cost));
    BottleneckDescent descent = new BottleneckDescent(model, groups, requests, budget);
    for (Found start : byBound.subList(0, Math.min(DESCENT_STARTS, byBound.size()))) {
      BottleneckDescent.Result r = descent.run(start.label, config.evaluations(model.opCount()));
      evaluations[0] += r.evaluations;
      add(pool, model, r.label, start.origin + " + bottleneck descent", requests, budget, evaluations);
    }
    return pool;
  }

  /** The multiplicative-weights rounds: one weighted latency plan (cuts only) each. */
  private void weightedPlans(HeteroCostModel model, int[][] groups, int requests, OpBudget budget,
      Map<String, Found> pool,
      long[] evaluations) {
    int devices = model.deviceCount();
    // The weighted plans only seed the search: one λ and no local search each (the descent refines the best).
    Planner inner = new Planner(
        new PlannerConfig(List.of(1.0), Math.max(3, config.maxCandidates()), config.evaluationWork(),
            false));
    double[] w = new double[devices + 1];
    Arrays.fill(w, 1.0 / (devices + 1));
    double step = STEP;
    for (int round = 0; round < ROUNDS; round++) {
      double[] scale = new double[devices];
      for (int d = 0; d < devices; d++) {
        scale[d] = w[d] + w[devices] / requests;
      }
      Planner.OpPlan p = inner.planOps(weighted(model, scale), groups);
      evaluations[0] += p.evaluations();
      String weights = describe(w, model);
      for (Planner.OpCandidate c : p.candidates()) {
        add(pool, model, c.label(),
            c.origin().startsWith("single") ? c.origin() : "weights " + weights + " " + c.origin(),
            requests, budget, evaluations);
      }
      double[] values = resources(model, p.candidates().get(0).label(), requests);
      double max = Arrays.stream(values).max().orElse(1);
      double sum = 0;
      for (int r = 0; r < w.length; r++) {
        w[r] *= Math.exp(step * (values[r] / max - 1));
        sum += w[r];
      }
      for (int r = 0; r < w.length; r++) {
        w[r] /= sum;
      }
      step *= STEP_DECAY;
    }
  }

  /** A placement found, its descent cost (bound + tie-break), how it was found, and whether ops were evicted to fit it. */
  private static final class Found {
    private final int[] label;
    private final double cost;
    private final String origin;
    private final boolean evicted;

    Found(int[] label, double cost, String origin, boolean evicted) {
      this.label = label;
      this.cost = cost;
      this.origin = origin;
      this.evicted = evicted;
    }
  }

  /**
   * Adds {@code label} to the pool unless it is there; one over a budget first has ops evicted from its
   * over-budget devices ({@link CappedPlanner}'s knapsack rounding), and is left out when that fails.
   */
  private static void add(Map<String, Found> pool, HeteroCostModel model, int[] label, String origin, int requests,
      OpBudget budget, long[] evaluations) {
    int[] fitting = budget == null || budget.holds(label) ? label : CappedPlanner.evict(budget, model, label, label);
    if (budget != null && !budget.holds(fitting)) {
      return;
    }
    String how = fitting == label ? origin : "memory-budget eviction from " + origin;
    pool.computeIfAbsent(Arrays.toString(fitting), k -> {
      evaluations[0]++;
      return new Found(fitting.clone(), cost(model, fitting, requests), how, fitting != label);
    });
  }

  /** The bound on the time per inference, with the latency as a small tie-break. */
  static double cost(HeteroCostModel model, int[] label, int requests) {
    return cost(resources(model, label, requests), requests);
  }

  /** {@link #cost} of a placement's {@link #resources}. */
  static double cost(double[] r, int requests) {
    double bound = 0;
    for (double v : r) {
      bound = Math.max(bound, v);
    }
    return bound + LATENCY_TIE_BREAK * r[r.length - 1] * requests;
  }

  /**
   * Each device's load, then latency / requests, µs: the terms {@link PipelineStages} groups into
   * stages, summed per device without ordering the stages (the bound does not need the order).
   */
  static double[] resources(HeteroCostModel model, int[] label, int requests) {
    CostTerms t = model.terms(label);
    int devices = model.deviceCount();
    double[] out = new double[devices + 1];
    double latency = t.requestMicros();
    for (int i = 0; i < label.length; i++) {
      out[label[i]] += t.opMicros(i);
    }
    for (int d = 0; d < devices; d++) {
      out[d] += t.copyMicros(d) + t.subModels(d) * model.subModelOverhead(d);
      latency += out[d];
    }
    out[devices] = latency / requests;
    return out;
  }

  private static HeteroCostModel weighted(HeteroCostModel model, double[] scale) {
    int devices = model.deviceCount();
    int ops = model.opCount();
    double[] kernel = new double[devices * ops];
    for (int d = 0; d < devices; d++) {
      Arrays.fill(kernel, d * ops, (d + 1) * ops, scale[d]);
    }
    return model.rescaled(kernel, scale.clone(), scale.clone());
  }

  private static String describe(double[] w, HeteroCostModel model) {
    StringBuilder b = new StringBuilder("[");
    for (int d = 0; d < model.deviceCount(); d++) {
      b.append(d == 0 ? "" : " ").append(model.device(d).name()).append(String.format(Locale.ROOT, "=%.2f", w[d]));
    }
    return b.append(String.format(Locale.ROOT, " latency=%.2f]", w[w.length - 1])).toString();
  }

  /**
   * Candidates by simulated time per inference, distinct, best first; the best single device apart.
   * Under caps only those the full memory model accepts (activation peaks and boundaries included).
   */
  private Plan select(PlacementProxy proxy, java.util.Collection<Found> found, long evaluations) {
    List<PlanCandidate> all = new ArrayList<>();
    PlanCandidate bestSingle = null;
    Optional<MemoryCheck> memory = proxy.memory();
    for (Found f : found) {
      Placement placement = proxy.placement(f.label);
      if (memory.isPresent() && !memory.get().fits(placement)) {
        continue;
      }
      HeteroCostModel.Evaluation e = proxy.evaluate(f.label);
      if (!e.ok()) {
        throw new IllegalStateException("throughput planner produced an infeasible placement (" + f.origin + ")");
      }
      PlanCandidate c = new PlanCandidate(placement, e.micros(), e.subModels(), f.origin);
      all.add(c);
      if (f.origin.startsWith("single") && (bestSingle == null || c.proxyMicros() < bestSingle.proxyMicros())) {
        bestSingle = c;
      }
    }
    if (all.isEmpty()) {
      throw memory.map(NoPlacementFitsException::of)
          .orElseGet(() -> new NoPlacementFitsException("no placement on " + proxy.devices() + " can run"));
    }
    all.sort(Comparator.comparingDouble(PlanCandidate::proxyMicros));
    List<PlanCandidate> chosen = new ArrayList<>();
    for (PlanCandidate c : all) {
      boolean distinct = chosen.stream().noneMatch(o -> o.placement().equals(c.placement()));
      if (distinct && chosen.size() < config.maxCandidates()) {
        chosen.add(c);
      }
    }
    return new Plan(chosen, bestSingle, evaluations);
  }
}
