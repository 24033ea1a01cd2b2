package org.hsdag.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryLimits;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

/**
 * Every device capped below the model, together above it: the planner finds a split that fits both
 * caps (pricing only the over-budget device pushed its excess onto the other capped one, and nothing
 * was found).
 */
class BothCappedTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  @Test
  void aSplitFitsWhenNoDeviceHoldsTheModelAlone() {
    for (long seed = 1; seed <= 4; seed++) {
      OpGraph g = TinyGraphs.randomDag(80, 256, seed);
      SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());
      SimBackend capped = sim.withMemoryLimits(new MemoryLimits(caps(sim, g)));
      MemoryCheck check = capped.memoryCheck(g, DEVICES);
      assertFalse(check.fits(Placement.allOn(DEVICES, g.nodeCount(), "CPU")), "seed " + seed);
      assertFalse(check.fits(Placement.allOn(DEVICES, g.nodeCount(), "GPU.1")), "seed " + seed);
      Plan plan = new Planner().plan(PlacementProxy.ofSim(capped, g, DEVICES).withMemory(check));
      for (PlanCandidate c : plan.candidates()) {
        assertTrue(check.fits(c.placement()),
            "seed " + seed + ": " + c.origin() + " " + check.violation(c.placement()));
      }
    }
  }

  /**
   * A model with shape chains under noisy cost models: when every priced cut falls on a split HETERO refuses and
   * no repair holds the budgets, a contiguous stage still fits (it was "no placement fits" on a T5 encoder).
   */
  @Test
  void aModelWithShapeChainsGetsASplitThatFitsWhenThePricedCutsAreRefused() {
    OpGraph g = HeteroRefusalsTest.detector(16, true);
    SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());
    SimBackend capped = sim.withMemoryLimits(new MemoryLimits(caps(sim, g)));
    MemoryCheck check = capped.memoryCheck(g, DEVICES);
    PlacementProxy base = PlacementProxy.ofSim(capped, g, DEVICES).withMemory(check);
    java.util.List<String> failures = new java.util.ArrayList<>();
    for (long seed = 1; seed <= 60; seed++) {
      PlacementProxy proxy = base.withModel(PlannerFeasibleStartTest.noisy(base.model(), seed, 8));
      try {
        for (PlanCandidate c : new Planner().plan(proxy).candidates()) {
          assertTrue(check.fits(c.placement()), "seed " + seed + ": " + c.origin());
          assertNull(proxy.model().refusedBoundary(proxy.opDevices(c.placement())), "seed " + seed);
        }
      } catch (RuntimeException e) {
        failures.add(seed + ": " + e.getMessage());
      }
    }
    assertEquals(java.util.List.of(), failures);
  }

  /** Per device, seven tenths of what the model needs there beyond the runtime: neither alone, both together. */
  private static Map<String, Long> caps(SimBackend sim, OpGraph g) {
    MemoryCheck profile = sim.memoryCheck(g, DEVICES);
    Map<String, Long> caps = new java.util.HashMap<>();
    for (int d = 0; d < DEVICES.size(); d++) {
      String name = DEVICES.name(d);
      long need = profile.use(Placement.allOn(DEVICES, g.nodeCount(), name)).get(d).totalBytes();
      long overhead = profile.overhead(d);
      caps.put(name, overhead + (need - overhead) * 7 / 10);
    }
    return caps;
  }
}
