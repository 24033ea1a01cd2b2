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
 * exact when the cost model is the target's own (the simulator), an estimate otherwise.
 */
public final class BestKnown {
  /** Exact evaluations per annealing start of bench's and the experiments' best-known search. */
  public static final int EVALUATIONS = 20_000;
  /** The best-known search's own seed, apart from the runs' seeds, so every seed set is compared to the same reference. */
  public static final long SEED = 29;

  private BestKnown() {}

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

  /** Searches {@code proxy} with {@code evaluations} exact evaluations per annealing start. */
  public static Result search(PlacementProxy proxy, int evaluations, long seed) {
    Plan plan = new Planner().plan(proxy);
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
    AnnealingSearch.Result refined = new AnnealingSearch(evaluations, seed).run(model, groups, planStarts);
    AnnealingSearch.Result independent = new AnnealingSearch(evaluations, seed + 1)
        .run(model, groups, independentStarts(model, new SplittableRandom(seed + 2)));
    double plannerMs = plan.best().proxyMillis();
    Result best = new Result(plan.best().placement(), plannerMs, plannerMs, "planner");
    if (refined.micros() / 1000.0 < best.proxyMillis()) {
      best = new Result(proxy.placement(refined.opDevices()), refined.micros() / 1000.0, plannerMs,
          "annealing from the planner");
    }
    if (independent.micros() / 1000.0 < best.proxyMillis()) {
      best = new Result(proxy.placement(independent.opDevices()), independent.micros() / 1000.0, plannerMs,
          "independent annealing");
    }
    return best;
  }

  /** Every feasible single device, and two placements of random blocks of 20 ops. */
  public static List<int[]> independentStarts(HeteroCostModel model, SplittableRandom rnd) {
    List<int[]> starts = new ArrayList<>();
    for (int d = 0; d < model.deviceCount(); d++) {
      int[] all = new int[model.opCount()];
      Arrays.fill(all, d);
      if (model.evaluate(all).ok()) {
        starts.add(all);
      }
    }
    for (int k = 0; k < 2; k++) {
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
