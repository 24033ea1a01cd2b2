package org.hsdag.plan;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.throughput.PipelineStages;
import org.hsdag.throughput.PipelineThroughput;
import org.junit.jupiter.api.Test;

/**
 * The throughput planner under memory budgets on random cost models (on random graphs with the full memory
 * model: {@link MemoryCapsTest}).
 */
class ThroughputPlannerCapsTest {
  @Test
  void onRandomCostModelsTheResultKeepsEveryBudgetAndIsFoundWheneverOneExists() {
    int models = 12;
    int within = 0;
    for (int seed = 0; seed < models; seed++) {
      HeteroCostModel model = RandomModels.random(9, 2, 300 + seed);
      SplittableRandom rnd = new SplittableRandom(seed);
      long[] bytes = rnd.longs(9, 0, 1000).toArray();
      long total = java.util.Arrays.stream(bytes).sum();
      OpBudget budget = new OpBudget(bytes, new long[] {total * 6 / 10, total * 5 / 10});
      int requests = 3;
      double[] optimum = {Double.POSITIVE_INFINITY};
      RandomModels.forEachLabeling(9, 2, label -> {
        if (budget.holds(label) && model.evaluate(label).ok()) {
          optimum[0] = Math.min(optimum[0], period(model, label, requests));
        }
      });
      int[] planned = new ThroughputPlanner(PlannerConfig.DEFAULT).best(model, new int[0][], requests, budget);
      if (Double.isInfinite(optimum[0])) {
        continue;
      }
      assertNotNull(planned, "seed " + seed + ": a placement within budget exists");
      assertTrue(budget.holds(planned), "seed " + seed);
      double mine = period(model, planned, requests);
      assertTrue(mine >= optimum[0] * (1 - 1e-9));
      within += mine <= optimum[0] * 1.05 ? 1 : 0;
    }
    // A heuristic on a min-max objective under budgets: most models within 5 % of the constrained optimum.
    assertTrue(within > models / 2, within + " of " + models + " within 5 %");
  }

  private static double period(HeteroCostModel model, int[] label, int requests) {
    return PipelineThroughput.simulatedPeriodMicros(PipelineStages.of(model, label), requests);
  }
}
