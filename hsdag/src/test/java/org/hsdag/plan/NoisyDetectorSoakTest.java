package org.hsdag.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.search.SearchEngine;
import org.hsdag.search.SearchLimits;
import org.hsdag.search.SearchListener;
import org.hsdag.search.SearchOutcome;
import org.hsdag.search.SearchStep;
import org.hsdag.sim.ProfileMismatch;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.strategy.Strategies;
import org.junit.jupiter.api.Test;

/**
 * Many short tunes of a detector-style graph (shape chains HETERO refuses to cut) on a noisy simulator,
 * planned on a perturbed and noisy cost model as a profile taken on a loaded machine is: none ends in an
 * internal error, and none spends a measurement on a split HETERO refuses.
 */
class NoisyDetectorSoakTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  @Test
  void thirtyNoisyPlannerTunesEndWithoutAnInternalError() throws IOException {
    OpGraph g = HeteroRefusalsTest.detector(24);
    DeviceProfile paper = DeviceProfile.load("paper");
    List<String> errors = new ArrayList<>();
    int measured = 0;
    for (long seed = 1; seed <= 30; seed++) {
      SimBackend target = new SimBackend(paper, SimOptions.DEFAULT.withSeed(seed));
      SimBackend proxySim = new SimBackend(ProfileMismatch.named(0.5, seed).apply(paper), SimOptions.exact());
      PlacementProxy base = PlacementProxy.ofSim(proxySim, g, DEVICES);
      PlacementProxy proxy = base.withModel(PlannerFeasibleStartTest.noisy(base.model(), seed, 8));
      String strategy = seed % 10 == 0 ? "hsdag" : "planner";
      try {
        SearchEngine engine = SearchEngine.builder(target, g, DEVICES).seed(seed).proxy(proxy).build();
        SearchOutcome o = engine.run(Strategies.create(strategy), SearchLimits.of(12), 1, SearchListener.NONE);
        for (SearchStep s : o.steps()) {
          if (s.spentMeasurement()) {
            measured++;
            assertEquals(null, proxy.model().refusedBoundary(proxy.opDevices(s.placement())),
                strategy + " seed " + seed + " measured a refused split");
          }
        }
      } catch (RuntimeException e) {
        errors.add(strategy + " seed " + seed + ": " + e);
      }
    }
    assertEquals(List.of(), errors);
    assertTrue(measured >= 30, "the tunes measured almost nothing: " + measured);
  }
}
