package org.hsdag.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hsdag.cost.CostTerms;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.throughput.PipelineStages;
import org.hsdag.throughput.PipelineThroughput;

/**
 * The planner under the throughput objective: minimises the time per inference with N requests in
 * flight, whose bound is the busiest device's load per inference or the latency over N.
 *
 * <p>A Lagrangian relaxation of that bound: min over placements of max over resources (each
 * device's load, latency / N) equals min over placements of max over weights w on the resources of
 * Σ w_r · value_r, and for fixed weights that sum is the additive cost model with each device's
 * kernels, copies and sub-model starts scaled by w_d + w_latency / N, which the latency planner
 * ({@link Planner}: min-cut, α-expansion, local search) solves. The weights are searched by
 * multiplicative updates towards the resources that bound the placement found; every placement
 * found on the way is a candidate. Then a descent on the bound itself (single-op and co-location
 * group moves), and the candidates ranked by the simulated time per inference. Deterministic.
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

  /** The plan of a throughput proxy ({@link PlacementProxy#throughputRequests} > 0). */
  Plan plan(PlacementProxy proxy) {
    long[] evaluations = {0};
    Map<String, Found> pool = search(proxy.model(), proxy.colocationGroups(), proxy.throughputRequests(), evaluations);
    return select(proxy, pool.values(), evaluations[0]);
  }

  /** The best placement found on {@code model} by the simulated time per inference (device per op). */
  int[] best(HeteroCostModel model, int[][] groups, int requests) {
    int[] best = null;
    double bestPeriod = Double.POSITIVE_INFINITY;
    for (Found f : search(model, groups, requests, new long[1]).values()) {
      double period = PipelineThroughput.simulatedPeriodMicros(PipelineStages.of(model, f.label), requests);
      if (period < bestPeriod) {
        best = f.label;
        bestPeriod = period;
      }
    }
    return best;
  }

  /** Every distinct placement the weighted plans and the descents found, by label. */
  private Map<String, Found> search(HeteroCostModel model, int[][] groups, int requests, long[] evaluations) {
    int devices = model.deviceCount();
    Map<String, Found> pool = new LinkedHashMap<>();
    for (int d = 0; d < devices; d++) {
      int[] single = new int[model.opCount()];
      Arrays.fill(single, d);
      if (supportsAll(model, d)) {
        add(pool, model, single, "single " + model.device(d).name(), requests, evaluations);
      }
    }
    // The weighted plans only seed the search: one λ and no local search each (the descent below refines the best).
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
            requests, evaluations);
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
    List<Found> byBound = new ArrayList<>(pool.values());
    byBound.sort(Comparator.comparingDouble(f -> f.cost));
    for (Found start : byBound.subList(0, Math.min(DESCENT_STARTS, byBound.size()))) {
      int[] label = descend(model, groups, start.label, requests, config.evaluations(model.opCount()), evaluations);
      add(pool, model, label, start.origin + " + bottleneck descent", requests, evaluations);
    }
    return pool;
  }

  /** A placement found, its descent cost (bound + tie-break) and how it was found. */
  private static final class Found {
    private final int[] label;
    private final double cost;
    private final String origin;

    Found(int[] label, double cost, String origin) {
      this.label = label;
      this.cost = cost;
      this.origin = origin;
    }
  }

  private static void add(Map<String, Found> pool, HeteroCostModel model, int[] label, String origin, int requests,
      long[] evaluations) {
    pool.computeIfAbsent(Arrays.toString(label), k -> {
      evaluations[0]++;
      return new Found(label.clone(), cost(model, label, requests), origin);
    });
  }

  /** The bound on the time per inference, with the latency as a small tie-break. */
  private static double cost(HeteroCostModel model, int[] label, int requests) {
    double[] r = resources(model, label, requests);
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
  private static double[] resources(HeteroCostModel model, int[] label, int requests) {
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
   * First-improvement descent on {@link #cost}: moves single ops and co-location groups to another
   * device that runs all of them, ops of the busiest device first, until no move improves or the
   * evaluations run out.
   */
  private static int[] descend(HeteroCostModel model, int[][] groups, int[] start, int requests, int budget,
      long[] evaluations) {
    int[] label = start.clone();
    double best = cost(model, label, requests);
    List<int[]> moves = new ArrayList<>(Arrays.asList(groups));
    for (int i = 0; i < model.opCount(); i++) {
      moves.add(new int[] {i});
    }
    int spent = 0;
    boolean improved = true;
    while (improved && spent < budget) {
      improved = false;
      int busiest = busiest(model, label);
      List<int[]> ordered = new ArrayList<>(moves);
      ordered.sort(Comparator.comparingInt(g -> label[g[0]] == busiest ? 0 : 1));
      for (int[] g : ordered) {
        for (int d = 0; d < model.deviceCount() && spent < budget; d++) {
          if (!movable(model, label, g, d)) {
            continue;
          }
          int[] next = label.clone();
          for (int op : g) {
            next[op] = d;
          }
          spent++;
          double c = cost(model, next, requests);
          if (c < best * (1 - 1e-9)) {
            System.arraycopy(next, 0, label, 0, label.length);
            best = c;
            improved = true;
          }
        }
      }
    }
    evaluations[0] += spent;
    return label;
  }

  private static boolean movable(HeteroCostModel model, int[] label, int[] group, int device) {
    boolean changes = false;
    for (int op : group) {
      if (!model.supported(op, device)) {
        return false;
      }
      changes |= label[op] != device;
    }
    return changes;
  }

  private static boolean supportsAll(HeteroCostModel model, int device) {
    for (int i = 0; i < model.opCount(); i++) {
      if (!model.supported(i, device)) {
        return false;
      }
    }
    return true;
  }

  private static int busiest(HeteroCostModel model, int[] label) {
    double[] loads = resources(model, label, 1);
    int b = 0;
    for (int d = 1; d < model.deviceCount(); d++) {
      if (loads[d] > loads[b]) {
        b = d;
      }
    }
    return b;
  }

  /** Candidates by simulated time per inference, distinct, best first; the best single device apart. */
  private Plan select(PlacementProxy proxy, java.util.Collection<Found> found, long evaluations) {
    List<PlanCandidate> all = new ArrayList<>();
    PlanCandidate bestSingle = null;
    for (Found f : found) {
      HeteroCostModel.Evaluation e = proxy.evaluate(f.label);
      if (!e.ok()) {
        throw new IllegalStateException("throughput planner produced an infeasible placement (" + f.origin + ")");
      }
      PlanCandidate c = new PlanCandidate(proxy.placement(f.label), e.micros(), e.subModels(), f.origin);
      all.add(c);
      if (f.origin.startsWith("single") && (bestSingle == null || c.proxyMicros() < bestSingle.proxyMicros())) {
        bestSingle = c;
      }
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
