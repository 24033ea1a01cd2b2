package org.hsdag.plan;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hsdag.models.ModelCatalog;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.MemoryLimits;
import org.hsdag.memory.MemoryUse;
import org.hsdag.sim.SimOptions;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.sim.SimBackend;
import org.junit.jupiter.api.Test;

/** Under memory capacities the best known placement fits them and lies between the lower bound and the planner. */
class BestKnownCapsTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  @Test
  void theBestKnownUnderCapsFitsAndLiesBetweenTheBoundAndThePlanner() {
    int binding = 0;
    for (String model : List.of("tiny_decoder", "resnet50", "inception_v3")) {
      OpGraph g = ModelCatalog.get(model).build().graph();
      SimBackend profile = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());
      PlacementProxy uncapped = PlacementProxy.ofSim(profile, g, DEVICES);
      BestKnown.Result free = BestKnown.search(uncapped, 2_000, BestKnown.SEED);
      // GPU.1 capped at its runtime overhead plus half the weights the uncapped best known puts there.
      MemoryUse gpu = profile.memoryCheck(g, DEVICES).use(free.placement()).get(1);
      if (gpu.weightBytes() == 0) {
        continue; // the best placement holds no weights on GPU.1: no cap there can bind
      }
      binding++;
      SimBackend sim = profile.withMemoryLimits(new MemoryLimits(Map.of("GPU.1",
          gpu.overheadBytes() + gpu.activationPeakBytes() + gpu.weightBytes() / 2)));
      MemoryCheck check = sim.memoryCheck(g, DEVICES);
      PlacementProxy proxy = PlacementProxy.ofSim(sim, g, DEVICES).withMemory(check);
      assertFalse(check.fits(free.placement()), "model " + model + ": the cap must bind on the uncapped best known");
      BestKnown.Result known = BestKnown.search(proxy, 2_000, BestKnown.SEED);
      assertTrue(check.fits(known.placement()), "model " + model + ": " + check.violation(known.placement()));
      assertTrue(known.proxyMillis() <= known.plannerMillis() * (1 + 1e-9), "model " + model);
      double bound = CapBound.of(proxy).micros() / 1000.0;
      assertTrue(bound <= known.proxyMillis() * (1 + 1e-9),
          "model " + model + ": bound " + bound + " > " + known.proxyMillis());
      assertTrue(free.proxyMillis() <= known.proxyMillis() * (1 + 1e-9), "model " + model + ": capped beats uncapped");
      Placement p = known.placement();
      assertTrue(Math.abs(proxy.latencyMicros(p) / 1000.0 - known.proxyMillis()) < 1e-9, "model " + model);
    }
    assertTrue(binding >= 2, "a cap binds on only " + binding + " of 3 models");
  }
}
