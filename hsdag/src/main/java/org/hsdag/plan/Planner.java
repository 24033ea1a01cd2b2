package org.hsdag.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.hsdag.cost.HeteroCostModel;

/**
 * The cost-model planner (for a throughput proxy, {@link ThroughputPlanner}): proposes placements with zero measurements by solving the additive
 * {@link CutModel} of a {@link HeteroCostModel} and improving the solutions on the exact model.
 *
 * <ol>
 *   <li>every single device (the baseline every plan must match);
 *   <li>for each sub-model weight λ: for each device pair, the exact minimum cut over the pair;
 *       with three or more devices also α-expansion over all of them from the best single device;
 *   <li>{@link LocalSearch} on the exact model from each distinct cut (within its device pair, or
 *       over all devices for α-expansion) and from the best single device;
 *   <li>a few distinct results: the fastest, then the best of each device pair, of α-expansion and
 *       of each λ, then the next fastest, up to {@link PlannerConfig#maxCandidates}.
 * </ol>
 *
 * Deterministic (no randomness, no clock). Thread-safe: the planner keeps no state between calls.
 */
public final class Planner {
  private final PlannerConfig config;

  public Planner(PlannerConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  public Planner() {
    this(PlannerConfig.DEFAULT);
  }

  public PlannerConfig config() {
    return config;
  }

  /** Plans a graph's placement on the proxy's devices, moving its co-location groups as units too. */
  public Plan plan(PlacementProxy proxy) {
    if (proxy.throughputRequests() > 0) {
      return new ThroughputPlanner(config).plan(proxy);
    }
    OpPlan p = proxy.memory().isPresent() ? new CappedPlanner(this).planOps(proxy)
        : planOps(proxy.model(), proxy.colocationGroups());
    List<PlanCandidate> out = new ArrayList<>();
    for (OpCandidate c : p.candidates()) {
      out.add(toPlacement(proxy, c));
    }
    return new Plan(out, p.bestSingle() == null ? null : toPlacement(proxy, p.bestSingle()), p.evaluations(),
        p.notes());
  }

  private static PlanCandidate toPlacement(PlacementProxy proxy, OpCandidate c) {
    return new PlanCandidate(proxy.placement(c.label()), c.micros(), c.subModels(), c.origin());
  }

  /** A candidate as a device per op of the model. */
  static final class OpCandidate {
    private final int[] label;
    private final double micros;
    private final int subModels;
    private final String origin;
    private final String family;
    private final int order;

    OpCandidate(int[] label, double micros, int subModels, String origin, String family, int order) {
      this.label = label.clone();
      this.micros = micros;
      this.subModels = subModels;
      this.origin = origin;
      this.family = family;
      this.order = order;
    }

    int[] label() {
      return label.clone();
    }

    double micros() {
      return micros;
    }

    int subModels() {
      return subModels;
    }

    String origin() {
      return origin;
    }

    String family() {
      return family;
    }

    int order() {
      return order;
    }
  }

  /** {@link #planOps}'s result. */
  record OpPlan(List<OpCandidate> candidates, OpCandidate bestSingle, long evaluations, List<String> notes) {
    OpPlan(List<OpCandidate> candidates, OpCandidate bestSingle, long evaluations) {
      this(candidates, bestSingle, evaluations, List.of());
    }
  }

  /**
   * Plans on the model's own devices; {@code groups} are op groups (of at least two ops) the local
   * search may move as one.
   *
   * @throws IllegalArgumentException when no combination of devices can run every op
   */
  OpPlan planOps(HeteroCostModel model, int[][] groups) {
    int devices = model.deviceCount();
    int ops = model.opCount();
    requireEveryOpRuns(model);
    HeteroCostModel.Evaluator exact = model.evaluator();
    long[] evaluations = {0};
    List<OpCandidate> pool = new ArrayList<>();
    OpCandidate bestSingle = null;
    for (int d = 0; d < devices; d++) {
      boolean all = true;
      for (int i = 0; i < ops && all; i++) {
        all = model.supported(i, d);
      }
      if (all) {
        int[] label = new int[ops];
        Arrays.fill(label, d);
        OpCandidate c = candidate(exact, label, "single " + model.device(d).name(), "single", pool.size(), evaluations);
        pool.add(c);
        if (bestSingle == null || c.micros() < bestSingle.micros()) {
          bestSingle = c;
        }
      }
    }
    int[] start = bestSingle != null ? bestSingle.label() : fastestSupported(model);

    // Seeds: one cut per λ and device pair, and α-expansion over all devices.
    Map<String, Seed> seeds = new LinkedHashMap<>();
    List<int[]> pairs = new ArrayList<>();
    List<HeteroCostModel> pairModels = new ArrayList<>();
    for (int a = 0; a < devices; a++) {
      for (int b = a + 1; b < devices; b++) {
        pairs.add(new int[] {a, b});
        pairModels.add(model.withDevices(List.of(model.device(a).name(), model.device(b).name())));
      }
    }
    for (double lambda : config.subModelWeights()) {
      String lam = String.format(Locale.ROOT, "λ=%s", lambda);
      for (int k = 0; k < pairs.size(); k++) {
        int[] pairLabel = Expansion.twoDevices(new CutModel(pairModels.get(k), lambda));
        if (pairLabel != null) {
          String family = "cut " + model.device(pairs.get(k)[0]).name() + "+" + model.device(pairs.get(k)[1]).name();
          addSeed(seeds, new Seed(k, pairLabel, family, family + " " + lam));
        }
      }
      if (devices >= 3) {
        int[] label = Expansion.alphaExpansion(new CutModel(model, lambda), start);
        addSeed(seeds, new Seed(-1, label, "α-expansion", "α-expansion " + lam));
      }
    }
    if (bestSingle != null && devices >= 2) {
      addSeed(seeds, new Seed(-1, bestSingle.label(), "single+local", bestSingle.origin()));
    }

    Map<Integer, LocalSearch> searches = new LinkedHashMap<>();
    FeasibleStarts starts = new FeasibleStarts();
    for (Seed s : seeds.values()) {
      HeteroCostModel searchModel = s.pair < 0 ? model : pairModels.get(s.pair);
      String origin = s.origin;
      // A noisy cost model can put a cut on a split HETERO refuses: repair it, or go on without it.
      int[] label = starts.feasible(searchModel, s.label, origin);
      if (label == null) {
        continue;
      }
      origin += label != s.label ? " (repaired)" : "";
      if (config.localSearch()) {
        // Groups are op sets: valid on any device subset of the same ops.
        LocalSearch search = searches.computeIfAbsent(s.pair, k -> new LocalSearch(new CutModel(searchModel, 1.0),
            groups, config.evaluations(ops)));
        LocalSearch.Result r = search.run(label);
        evaluations[0] += r.evaluations();
        label = r.label();
        origin += " + local search";
      }
      int[] full = s.pair < 0 ? label : toFull(label, pairs.get(s.pair));
      addUnlessRefused(pool, candidate(exact, full, origin, s.family, pool.size(), evaluations));
    }
    return new OpPlan(select(starts.nonEmpty(pool)), bestSingle, evaluations[0], starts.notes());
  }

  private static void requireEveryOpRuns(HeteroCostModel model) {
    for (int i = 0; i < model.opCount(); i++) {
      boolean any = false;
      for (int d = 0; d < model.deviceCount() && !any; d++) {
        any = model.supported(i, d);
      }
      if (!any) {
        throw new IllegalArgumentException("op at node " + model.node(i) + " runs on none of " + model.deviceNames());
      }
    }
  }

  /** Adds a candidate unless it is null (a split HETERO refuses). */
  static void addUnlessRefused(List<OpCandidate> pool, OpCandidate c) {
    if (c != null) {
      pool.add(c);
    }
  }

  private static void addSeed(Map<String, Seed> seeds, Seed s) {
    String key = s.pair + ":" + Arrays.toString(s.label);
    seeds.merge(key, s,
        (old, dup) -> new Seed(old.pair, old.label, old.family, old.origin + ", " + dup.origin));
  }

  private static final class Seed {
    private final int pair;
    private final int[] label;
    private final String family;
    private final String origin;

    Seed(int pair, int[] label, String family, String origin) {
      this.pair = pair;
      this.label = label;
      this.family = family;
      this.origin = origin;
    }
  }

  private static int[] toFull(int[] pairLabel, int[] pair) {
    int[] full = new int[pairLabel.length];
    for (int i = 0; i < full.length; i++) {
      full[i] = pair[pairLabel[i]];
    }
    return full;
  }

  static OpCandidate candidate(HeteroCostModel.Evaluator exact, int[] label, String origin, String family,
      int order, long[] evaluations) {
    HeteroCostModel.Evaluation e = exact.evaluate(label);
    evaluations[0]++;
    if (e.isRefused()) {
      // A split HETERO refuses (docs/hetero-rules.md) is never proposed.
      return null;
    }
    if (!e.ok()) {
      throw new IllegalStateException("planner produced an infeasible placement (" + origin + ")");
    }
    return new OpCandidate(label, e.micros(), e.subModels(), origin, family, order);
  }

  /** Each op on the device where it runs fastest alone (when no single device runs every op). */
  private static int[] fastestSupported(HeteroCostModel model) {
    int[] label = new int[model.opCount()];
    for (int i = 0; i < label.length; i++) {
      int best = -1;
      for (int d = 0; d < model.deviceCount(); d++) {
        if (model.supported(i, d) && (best < 0 || model.micros(i, d) < model.micros(i, best))) {
          best = d;
        }
      }
      label[i] = best;
    }
    return label;
  }

  /** The fastest, then the best of each family, then the rest by speed; distinct on the proxy; best first. */
  List<OpCandidate> select(List<OpCandidate> pool) {
    List<OpCandidate> sorted = new ArrayList<>(pool);
    sorted.sort(Comparator.comparingDouble(OpCandidate::micros).thenComparingInt(OpCandidate::order));
    List<OpCandidate> chosen = new ArrayList<>();
    List<String> families = new ArrayList<>();
    for (OpCandidate c : sorted) {
      if (!families.contains(c.family())) {
        families.add(c.family());
      }
    }
    pick(chosen, sorted.get(0));
    for (String family : families) {
      for (OpCandidate c : sorted) {
        if (c.family().equals(family) && !family.equals("single")) {
          pick(chosen, c);
          break;
        }
      }
    }
    for (OpCandidate c : sorted) {
      pick(chosen, c);
    }
    chosen.sort(Comparator.comparingDouble(OpCandidate::micros).thenComparingInt(OpCandidate::order));
    return chosen;
  }

  private void pick(List<OpCandidate> chosen, OpCandidate c) {
    if (chosen.size() >= config.maxCandidates()) {
      return;
    }
    for (OpCandidate o : chosen) {
      // Placements the proxy cannot tell apart (e.g. differing only in free view ops) count once.
      if (Arrays.equals(o.label(), c.label())
          || (o.subModels() == c.subModels() && Math.abs(o.micros() - c.micros()) <= 1e-9 * o.micros())) {
        return;
      }
    }
    chosen.add(c);
  }
}
