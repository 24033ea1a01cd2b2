package org.hsdag.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.BestKnown;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.Planner;
import org.hsdag.search.SearchConfigException;
import org.hsdag.search.SearchEngine;
import org.hsdag.search.SearchLimits;
import org.hsdag.search.SearchListener;
import org.hsdag.search.SearchOutcome;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.sim.ProfileMismatch;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.testkit.Samples;
import org.hsdag.tune.TuneConfig;
import org.junit.jupiter.api.Test;

class PlannerStrategyTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");
  private static final OpGraph RESNET = ModelCatalog.get("resnet50").build().graph();

  private static SearchOutcome search(SimBackend target, PlacementProxy proxy, String strategy, int budget)
      throws Exception {
    return SearchEngine.builder(target, RESNET, DEVICES).seed(3).proxy(proxy).build()
        .run(Strategies.create(strategy), SearchLimits.of(budget), 3, SearchListener.NONE);
  }

  @Test
  void itMeasuresThePlannersCandidatesFirst() throws Exception {
    SimBackend exact = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());
    PlacementProxy proxy = PlacementProxy.ofSim(exact, RESNET, DEVICES);
    List<Placement> planned = new Planner().plan(proxy).candidates().stream().map(c -> c.placement()).distinct()
        .toList();
    SearchOutcome out = search(exact, proxy, "planner", 40);
    for (int k = 0; k < planned.size(); k++) {
      assertTrue(planned.contains(out.steps().get(k).placement()), "step " + k + " is a planner candidate");
    }
    // An exact cost model: the first measurement is already the best known, to the microsecond.
    double known = BestKnown.search(proxy, 5_000, 29).proxyMillis();
    assertEquals(known, out.best().latencyMillis(), known * 1e-3);
  }

  @Test
  void onAMismatchedMachineTheMeasuredPhaseBeatsThePlannerAlone() throws Exception {
    DeviceProfile paper = DeviceProfile.load("paper");
    SimBackend target = new SimBackend(ProfileMismatch.named(0.3, 1).apply(paper), SimOptions.exact());
    PlacementProxy believed = PlacementProxy.ofSim(new SimBackend(paper, SimOptions.exact()), RESNET, DEVICES);
    int candidates = new Planner().plan(believed).candidates().size();
    double plannerOnly = search(target, believed, "planner", candidates).best().latencyMillis();
    SearchOutcome corrected = search(target, believed, "planner", 60);
    double known = BestKnown.search(PlacementProxy.ofSim(target, RESNET, DEVICES), 5_000, 29).proxyMillis();
    assertTrue(corrected.best().latencyMillis() < plannerOnly, corrected.best().latencyMillis() + " vs " + plannerOnly);
    assertTrue(corrected.best().latencyMillis() <= known * 1.02,
        corrected.best().latencyMillis() + " vs best known " + known);
  }

  /**
   * On alexnet with three devices and a mismatched machine the best placement moves one convolution
   * (and the ops after it) to the CPU; no co-location group holds that convolution alone, so the
   * measured phase must also move single ops to reach it within the default patience.
   */
  @Test
  void aMoveMayCarryOneOpWhereNoGroupReaches() throws Exception {
    OpGraph alexnet = new IrReader().read(Samples.irSample("alexnet.xml"));
    DeviceSet three = DeviceSet.of("CPU", "GPU.0", "GPU.1");
    DeviceProfile paper = DeviceProfile.load("paper");
    SimBackend target = new SimBackend(ProfileMismatch.named(0.3, 1).apply(paper), SimOptions.exact());
    PlacementProxy believed = PlacementProxy.ofSim(new SimBackend(paper, SimOptions.exact()), alexnet, three);
    SearchOutcome out = SearchEngine.builder(target, alexnet, three).seed(3).proxy(believed).build()
        .run(Strategies.create("planner"), SearchLimits.of(40).withPatience(TuneConfig.DEFAULT_PATIENCE), 3,
            SearchListener.NONE);
    double known = BestKnown.search(PlacementProxy.ofSim(target, alexnet, three), 5_000, 29).proxyMillis();
    assertTrue(out.best().latencyMillis() <= known * 1.01, out.best().latencyMillis() + " ms vs best known " + known);
  }

  @Test
  void withoutACostModelItSaysWhy() {
    SimBackend exact = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());
    SearchConfigException e = assertThrows(SearchConfigException.class, () -> search(exact, null, "planner", 5));
    assertTrue(e.getMessage().contains("--proxy none"), e.getMessage());
  }
}
