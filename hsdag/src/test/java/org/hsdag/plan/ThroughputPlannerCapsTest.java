package org.hsdag.plan;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryLimits;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.testkit.TinyGraphs;
import org.hsdag.throughput.PipelineStages;
import org.hsdag.throughput.PipelineThroughput;
import org.junit.jupiter.api.Test;

/** The throughput planner under memory capacities: no candidate over a cap, on random graphs and random cost models. */
class ThroughputPlannerCapsTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  @Test
  void everyCandidateFitsAndBeatsTheSingleDeviceThatFitsOnRandomGraphs() {
    for (long seed = 1; seed <= 8; seed++) {
      OpGraph g = TinyGraphs.randomDag(80, 256, seed);
      SimBackend paper = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());
      long need = paper.memoryCheck(g, DEVICES).use(Placement.allOn(DEVICES, g.nodeCount(), "GPU.1")).get(1)
          .totalBytes();
      long overhead = paper.memoryCheck(g, DEVICES).overhead(1);
      SimBackend sim = paper.withMemoryLimits(new MemoryLimits(Map.of("GPU.1", overhead + (need - overhead) / 2)));
      MemoryCheck check = sim.memoryCheck(g, DEVICES);
      assertFalse(check.fits(Placement.allOn(DEVICES, g.nodeCount(), "GPU.1")), "the cap must bind, seed " + seed);
      PlacementProxy proxy = PlacementProxy.ofSim(sim, g, DEVICES).withMemory(check).forThroughput(3);
      Plan plan = new Planner().plan(proxy);
      for (PlanCandidate c : plan.candidates()) {
        assertTrue(check.fits(c.placement()),
            "seed " + seed + ": " + c.origin() + " " + check.violation(c.placement()));
      }
      double cpu = proxy.latencyMicros(Placement.allOn(DEVICES, g.nodeCount(), "CPU"));
      assertTrue(plan.best().proxyMicros() <= cpu * (1 + 1e-9), "seed " + seed);
    }
  }

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
