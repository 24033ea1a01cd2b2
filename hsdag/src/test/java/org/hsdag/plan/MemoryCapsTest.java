package org.hsdag.plan;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Map;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryLimits;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.search.SearchEngine;
import org.hsdag.search.SearchLimits;
import org.hsdag.search.SearchListener;
import org.hsdag.search.SearchOutcome;
import org.hsdag.search.SearchStep;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.strategy.Strategies;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

/** Property over random models and seeds: no strategy measures, and the planner never proposes, a placement over a cap. */
class MemoryCapsTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  /** The simulator with GPU.1 capped at its runtime overhead plus half of what the rest of the graph needs there. */
  private static SimBackend halfCapSim(OpGraph g) {
    SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());
    MemoryCheck profile = sim.memoryCheck(g, DEVICES);
    long need = profile.use(Placement.allOn(DEVICES, g.nodeCount(), "GPU.1")).get(1).totalBytes();
    long overhead = profile.overhead(1);
    return sim.withMemoryLimits(new MemoryLimits(Map.of("GPU.1", overhead + (need - overhead) / 2)));
  }

  @Test
  void everyPlannerCandidateFitsAndBeatsTheSingleDeviceThatFits() {
    for (long seed = 1; seed <= 8; seed++) {
      OpGraph g = TinyGraphs.randomDag(80, 256, seed);
      SimBackend sim = halfCapSim(g);
      MemoryCheck check = sim.memoryCheck(g, DEVICES);
      assertFalse(check.fits(Placement.allOn(DEVICES, g.nodeCount(), "GPU.1")), "the cap must bind, seed " + seed);
      PlacementProxy proxy = PlacementProxy.ofSim(sim, g, DEVICES).withMemory(check);
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
  void noStrategySpendsAMeasurementOnAPlacementOverACap() throws IOException {
    for (long seed = 1; seed <= 3; seed++) {
      OpGraph g = TinyGraphs.randomDag(40, 256, seed);
      SimBackend sim = halfCapSim(g);
      MemoryCheck check = sim.memoryCheck(g, DEVICES);
      PlacementProxy proxy = PlacementProxy.ofSim(sim, g, DEVICES).withMemory(check);
      for (Strategies.Entry e : Strategies.all()) {
        if (e.family() == Strategies.Family.ABLATION
            || (e.requiredDevice() != null && !DEVICES.contains(e.requiredDevice()))) {
          continue;
        }
        SearchEngine engine = SearchEngine.builder(sim, g, DEVICES).seed(seed).proxy(proxy).build();
        SearchOutcome o = engine.run(e.create(), SearchLimits.of(6), seed, SearchListener.NONE);
        for (SearchStep s : o.steps()) {
          if (s.measurement().ok()) {
            assertTrue(check.fits(s.placement()), e.name() + " measured an over-cap placement, seed " + seed);
          } else if (MemoryCheck.isOutOfMemory(s.measurement().reason())) {
            assertTrue(s.measurement().reason().startsWith(MemoryCheck.REJECTED),
                e.name() + " spent a run on an over-cap placement: " + s.measurement().reason());
          }
        }
      }
    }
  }
}
