package org.hsdag.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.hsdag.placement.Placement;
import org.hsdag.cost.HeteroCostModel;

/**
 * The best placement known on a cost model: the planner, then a long {@link AnnealingSearch} from
 * the planner's candidates, and one independent of the planner (from every single device and two
 * random block placements). What bench and the experiments measure "gap to best known" against:
 * exact when the cost model is the target's own (the simulator), an estimate otherwise. Under the
 * proxy's memory capacities, {@link CappedReference}: every placement it returns fits.
 *
 * <p>An exact evaluation costs about the square of the op count (the HETERO split's cycle check:
 * 0.4 ms for ssd-inception-v2's 336 ops, 3.9 ms for decoder_9b's 967), so above {@link #FULL_OPS}
 * ops each start gets proportionally fewer evaluations ({@link #evaluationsPerStart}): decoder_9b's
 * reference then costs what a 450-op model's does, about a fifth of its full search.
 * Starts the cost model rejects are
 * skipped, and said so in the source. {@link BestKnownCache} remembers results in a folder.
 */
public final class BestKnown {
  /** Exact evaluations per annealing start of bench's and the experiments' best-known search. */
  public static final int EVALUATIONS = 20_000;
  /** The best-known search's own seed, apart from the runs' seeds, so every seed set is compared to the same reference. */
  public static final long SEED = 29;
  /** Random block placements among {@link #independentStarts}. */
  static final int RANDOM_STARTS = 2;
  /** Draws of random feasible starts of the capped search ({@link CappedReference}). */
  static final int CAPPED_RANDOM_ROUNDS = 3;

  /** Up to this many ops every annealing start gets all its evaluations (every bundled model and shared sample: 435 at most). */
  public static final int FULL_OPS = 450;
  /** The fewest evaluations per start, however large the model. */
  public static final int MIN_EVALUATIONS = 1_000;

  private BestKnown() {}

  /**
   * {@code evaluations} for a model of {@code ops} ops: all of them up to {@link #FULL_OPS}, above
   * that scaled by {@code (FULL_OPS / ops)²} (at least {@link #MIN_EVALUATIONS}, never more than given).
   */
  public static int evaluationsPerStart(int evaluations, int ops) {
    if (ops <= FULL_OPS) {
      return evaluations;
    }
    double scale = (double) FULL_OPS / ops;
    return (int) Math.min(evaluations, Math.max(MIN_EVALUATIONS, Math.round(evaluations * scale * scale)));
  }

  /**
   * The result.
   *
   * @param placement the best placement found
   * @param proxyMillis its latency on the cost model (noise-free)
   * @param plannerMillis the planner's own best on the cost model
   * @param source which search found it ({@code planner}, {@code annealing from the planner} or
   *     {@code independent annealing})
   */
  public record Result(Placement placement, double proxyMillis, double plannerMillis, String source) {}

  /**
   * Searches {@code proxy} with {@code evaluationsGiven} exact evaluations per annealing start ({@link
   * #evaluationsPerStart} on large models).
   */
  public static Result search(PlacementProxy proxy, int evaluationsGiven, long seed) {
    return search(proxy, new Planner().plan(proxy), evaluationsGiven, seed);
  }

  /** {@link #search(PlacementProxy, int, long)} from {@code plan}, the planner's plan of {@code proxy}. */
  static Result search(PlacementProxy proxy, Plan plan, int evaluationsGiven, long seed) {
    int evaluations = evaluationsPerStart(evaluationsGiven, proxy.model().opCount());
    if (proxy.memory().isPresent() && proxy.throughputRequests() == 0) {
      // Under caps every start and every move stays within them (the planner's candidates all fit).
      List<Placement> starts = plan.candidates().stream().map(PlanCandidate::placement).toList();
      CappedReference.Result capped = CappedReference.search(proxy, starts, evaluations, CAPPED_RANDOM_ROUNDS, seed);
      String source = capped.source().equals("start") ? "planner" : capped.source();
      return new Result(capped.placement(), capped.proxyMillis(), plan.best().proxyMillis(), source);
    }
    if (proxy.throughputRequests() > 0) {
      // The annealing minimises latency; under the throughput objective the planner's best is the reference.
      return new Result(plan.best().placement(), plan.best().proxyMillis(), plan.best().proxyMillis(),
          "throughput planner");
    }
    HeteroCostModel model = proxy.model();
    int[][] groups = proxy.colocationGroups();
    List<int[]> planStarts = new ArrayList<>();
    for (PlanCandidate c : plan.candidates()) {
      planStarts.add(proxy.opDevices(c.placement()));
    }
    double plannerMs = plan.best().proxyMillis();
    Result best = new Result(plan.best().placement(), plannerMs, plannerMs, "planner");
    List<String> notes = new ArrayList<>();
    best = better(proxy, best, anneal(model, groups, planStarts, evaluations, seed), "annealing from the planner",
        notes);
    best = better(proxy, best,
        anneal(model, groups, independentStarts(model, new SplittableRandom(seed + 2)), evaluations, seed + 1),
        "independent annealing", notes);
    return notes.isEmpty() ? best
        : new Result(best.placement(), best.proxyMillis(), plannerMs,
            best.source() + " (" + String.join("; ", notes) + ")");
  }

  /** The annealing from {@code starts}, or null when the cost model rejects every one of them. */
  private static AnnealingSearch.Result anneal(HeteroCostModel model, int[][] groups, List<int[]> starts,
      int evaluations, long seed) {
    try {
      return new AnnealingSearch(evaluations, seed).run(model, groups, starts);
    } catch (IllegalArgumentException e) {
      return null; // no feasible start: that search is skipped, the others stand
    }
  }

  /** {@code best}, or the annealing result {@code r} when faster; notes the starts {@code r} had to skip. */
  private static Result better(PlacementProxy proxy, Result best, AnnealingSearch.Result r, String source,
      List<String> notes) {
    if (r == null) {
      notes.add(source + " skipped: no feasible start");
      return best;
    }
    if (r.skippedStarts() > 0) {
      notes.add(source + ": " + r.skippedStarts() + " infeasible start" + (r.skippedStarts() == 1 ? "" : "s")
          + " skipped");
    }
    return r.micros() / 1000.0 < best.proxyMillis()
        ? new Result(proxy.placement(r.opDevices()), r.micros() / 1000.0, best.plannerMillis(), source)
        : best;
  }

  /** Every feasible single device, and {@link #RANDOM_STARTS} placements of random blocks of 20 ops. */
  public static List<int[]> independentStarts(HeteroCostModel model, SplittableRandom rnd) {
    List<int[]> starts = new ArrayList<>();
    for (int d = 0; d < model.deviceCount(); d++) {
      int[] all = new int[model.opCount()];
      Arrays.fill(all, d);
      if (model.evaluate(all).ok()) {
        starts.add(all);
      }
    }
    for (int k = 0; k < RANDOM_STARTS; k++) {
      int[] label = new int[model.opCount()];
      int current = 0;
      for (int i = 0; i < label.length; i++) {
        if (i % 20 == 0) {
          current = rnd.nextInt(model.deviceCount());
        }
        int d = current;
        while (!model.supported(i, d)) {
          d = (d + 1) % model.deviceCount();
        }
        label[i] = d;
      }
      starts.add(label);
    }
    return starts;
  }
}
