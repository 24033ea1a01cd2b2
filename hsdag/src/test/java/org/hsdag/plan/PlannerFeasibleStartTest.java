package org.hsdag.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.junit.jupiter.api.Test;

/**
 * A noisy cost model (a profiled one on a loaded machine) can make a device pair's minimum cut fall on a
 * split HETERO refuses: the planner repairs or skips that start, never fails, and never proposes the split.
 */
class PlannerFeasibleStartTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  /** The detector's cost model with every kernel time scaled by a seeded factor in [1/spread, spread]. */
  static HeteroCostModel noisy(HeteroCostModel m, long seed, double spread) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int n = m.opCount() * m.deviceCount();
    double[] k = new double[n];
    for (int i = 0; i < n; i++) {
      k[i] = Math.exp((2 * rnd.nextDouble() - 1) * Math.log(spread));
    }
    double[] ones = new double[m.deviceCount()];
    java.util.Arrays.fill(ones, 1.0);
    double[] sub = ones.clone();
    for (int d = 0; d < sub.length; d++) {
      sub[d] = 0.05 + rnd.nextDouble();
    }
    return m.rescaled(k, ones, sub);
  }

  @Test
  void noStartOnANoisyDetectorModelFailsThePlanner() {
    OpGraph g = HeteroRefusalsTest.detector(24);
    SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());
    PlacementProxy base = PlacementProxy.ofSim(sim, g, DEVICES);
    List<String> failures = new ArrayList<>();
    int refusedCuts = 0;
    for (long seed = 1; seed <= 200; seed++) {
      PlacementProxy proxy = base.withModel(noisy(base.model(), seed, 8));
      try {
        Plan plan = new Planner().plan(proxy);
        for (PlanCandidate c : plan.candidates()) {
          assertNull(proxy.model().refusedBoundary(proxy.opDevices(c.placement())), "seed " + seed);
        }
      } catch (RuntimeException e) {
        failures.add(seed + ": " + e.getMessage());
      }
      int[] cut = Expansion.twoDevices(new CutModel(proxy.model(), 1.0));
      if (cut != null && proxy.model().refusedBoundary(cut) != null) {
        refusedCuts++;
      }
    }
    assertTrue(refusedCuts > 0, "the noise never put a cut on a refused split: the test tests nothing");
    assertEquals(List.of(), failures);
  }
}
