package org.hsdag.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.policy.HsdagConfig;
import org.hsdag.search.SearchStrategy;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.search.SearchConfigException;
import org.hsdag.search.SearchContext;
import org.hsdag.search.SearchEngine;
import org.hsdag.search.SearchLimits;
import org.hsdag.search.SearchListener;
import org.hsdag.search.SearchOutcome;
import org.hsdag.search.SearchStep;
import org.hsdag.search.StopReason;
import org.hsdag.sim.ProfileMismatch;
import org.hsdag.tune.TuneConfig;
import org.hsdag.cost.DeviceModel;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.junit.jupiter.api.Test;

class WarmStartStrategyTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");
  private static final OpGraph RESNET = ModelCatalog.get("resnet50").build().graph();

  private static double meanProxyMillis(HsdagStrategy h, PlacementProxy proxy, int samples) {
    double sum = 0;
    for (Placement p : h.ask(samples)) {
      sum += proxy.latencyMicros(p) / 1000.0;
    }
    return sum / samples;
  }

  @Test
  void preTrainingOnTheCostModelMovesThePolicyTowardWhatTheModelRanksWell() {
    SimBackend exact = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());
    PlacementProxy proxy = PlacementProxy.ofSim(exact, RESNET, DEVICES);
    SearchContext context = SearchContext.builder(RESNET, DEVICES, exact.supports(RESNET, DEVICES)).budget(100).seed(5)
        .proxy(proxy).build();
    try (HsdagStrategy cold = new HsdagStrategy(); HsdagStrategy trained = new HsdagStrategy()) {
      // As WarmStartStrategy starts it with a cost model: the policy's samples only, no segment moves.
      cold.init(context, false);
      trained.init(context, false);
      trained.pretrainOnProxy(proxy, 40);
      assertEquals(200, trained.trainer().proposals(), "40 episodes of 5 steps");
      assertEquals(0, cold.trainer().proposals());
      double before = meanProxyMillis(cold, proxy, 5);
      double after = meanProxyMillis(trained, proxy, 5);
      assertTrue(after < before,
          "cost-model latency of the samples: cold " + before + " ms, pre-trained " + after + " ms");
    }
  }

  @Test
  void preTrainingIsAnOptionOfTheWarmStartedStrategiesOnly() {
    assertEquals(StrategyConfig.Hsdag.DEFAULT_PRETRAIN_EPISODES,
        ((StrategyConfig.Hsdag) Strategies.configure("hsdag", Map.of()))
            .pretrainEpisodes());
    assertEquals(50,
        ((StrategyConfig.Hsdag) Strategies.configure("hsdag", Map.of("pretrain", "50"))).pretrainEpisodes());
    assertEquals(0, ((StrategyConfig.Hsdag) Strategies.configure("hsdag-paper", Map.of())).pretrainEpisodes(),
        "cold as published");
    SearchConfigException e = assertThrows(SearchConfigException.class,
        () -> Strategies.configure("hsdag", Map.of("pretrain", "-1")));
    assertTrue(e.getMessage().contains("pretrain"), e.getMessage());
    SearchConfigException cold = assertThrows(SearchConfigException.class,
        () -> Strategies.configure("hsdag-paper", Map.of("pretrain", "50")));
    assertTrue(cold.getMessage().contains("starts cold"), cold.getMessage());
  }

  /** The default tune search (strategy, budget, patience) on resnet50 with the simulator's noise on, planning with {@code proxy}. */
  private static SearchOutcome defaultSearch(DeviceProfile target, PlacementProxy proxy, long seed) throws IOException {
    SimBackend noisy = new SimBackend(target, SimOptions.DEFAULT.withSeed(seed));
    SearchEngine engine = SearchEngine.builder(noisy, RESNET, DEVICES).seed(seed).proxy(proxy).build();
    try (WarmStartStrategy s = (WarmStartStrategy) Strategies.create("hsdag")) {
      return engine.run(s, SearchLimits.of(TuneConfig.DEFAULT_BUDGET).withPatience(TuneConfig.DEFAULT_PATIENCE), seed,
          SearchListener.NONE);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void theDefaultSearchStopsEarlyWhenThePlannersPlacementIsOptimal() throws IOException {
    DeviceProfile paper = DeviceProfile.load("paper");
    PlacementProxy exact = PlacementProxy.ofSim(new SimBackend(paper, SimOptions.exact()), RESNET, DEVICES);
    SearchOutcome o = defaultSearch(paper, exact, 1007);

    assertTrue(o.stop() == StopReason.CONVERGED || o.stop() == StopReason.STRATEGY_FINISHED, o.stopText());
    assertTrue(o.measurements() <= 40,
        o.measurements() + " measurements of " + TuneConfig.DEFAULT_BUDGET + ": " + o.stopText());
    double optimum = exact.latencyMicros(o.steps().get(0).placement());
    int plannersOwn = new org.hsdag.plan.Planner().plan(exact).candidates().size();
    for (SearchStep s : o.steps().subList(plannersOwn, o.steps().size())) {
      // After the planner's own candidates, the corrections and the veto keep what is measured near the best.
      assertTrue(exact.latencyMicros(s.placement()) <= 1.10 * optimum,
          "step " + s.index() + " measured a hopeless placement");
    }
  }

  @Test
  void aMachineWhereNoSplitCanPayStopsDuringThePlannersOwnMeasurements() throws IOException {
    // GPU.1 a twin of the CPU at half its speed, as the real CPU2 test device: CPU alone is the answer.
    DeviceProfile paper = DeviceProfile.load("paper");
    DeviceModel cpu = paper.device("CPU");
    DeviceModel twin = new DeviceModel("GPU.1", cpu.fullName(), cpu.kind(), cpu.peakGflops() / 2,
        cpu.memoryBandwidthGBs() / 2, cpu.launchOverheadUs(), cpu.subModelOverheadUs(), cpu.linkLatencyUs(),
        cpu.linkBandwidthGBs(), cpu.efficiency(), cpu.unsupportedOps(), cpu.dynamicShapes(), cpu.fusion(),
        cpu.fullOccupancyOutputs(), cpu.memory());
    DeviceProfile twins = paper.withDevice(twin);
    PlacementProxy exact = PlacementProxy.ofSim(new SimBackend(twins, SimOptions.exact()), RESNET, DEVICES);
    SearchOutcome o = defaultSearch(twins, exact, 1007);

    assertEquals(StopReason.STRATEGY_FINISHED, o.stop(), o.stopText());
    assertTrue(o.stopText().contains("no split can pay"), o.stopText());
    // The planner alone would go on measuring moves around CPU alone until its patience ran out.
    assertTrue(o.measurements() <= 10, o.measurements() + " measurements: " + o.stopText());
    assertTrue(o.ranked().get(0).placement().equals(Placement.allOn(DEVICES, RESNET.nodeCount(), "CPU")),
        "returned " + o.ranked().get(0).placement());
  }

  /**
   * The learned strategy starts when the planner's phase is over: a run that ends in it never
   * builds the policy (no libtorch, no coarsening: most of hsdag's own time in a real tune), and
   * one that goes on starts it then, from the state it would have had if started at once.
   */
  @Test
  void thePolicyIsBuiltOnlyWhenThePlannersPhaseIsOver() throws Exception {
    DeviceProfile paper = DeviceProfile.load("paper");
    DeviceModel cpu = paper.device("CPU");
    DeviceModel twin = new DeviceModel("GPU.1", cpu.fullName(), cpu.kind(), cpu.peakGflops() / 2,
        cpu.memoryBandwidthGBs() / 2, cpu.launchOverheadUs(), cpu.subModelOverheadUs(), cpu.linkLatencyUs(),
        cpu.linkBandwidthGBs(), cpu.efficiency(), cpu.unsupportedOps(), cpu.dynamicShapes(), cpu.fusion(),
        cpu.fullOccupancyOutputs(), cpu.memory());
    DeviceProfile twins = paper.withDevice(twin);
    PlacementProxy exact = PlacementProxy.ofSim(new SimBackend(twins, SimOptions.exact()), RESNET, DEVICES);
    SearchEngine engine = SearchEngine.builder(new SimBackend(twins, SimOptions.DEFAULT.withSeed(3)), RESNET, DEVICES)
        .seed(3).proxy(exact).build();
    try (WarmStartStrategy s = (WarmStartStrategy) Strategies.create("hsdag")) {
      SearchOutcome o = engine.run(s,
          SearchLimits.of(TuneConfig.DEFAULT_BUDGET).withPatience(TuneConfig.DEFAULT_PATIENCE), 3,
          SearchListener.NONE);
      assertTrue(o.stopText().contains("no split can pay"), o.stopText());
      assertFalse(s.learnedStarted(), "the run ended in the planner's phase: no policy was built");
      assertEquals(List.of(), s.favourites(3));
    }

    // Paper profile, exact: the planner's phase ends and the policy proposes; its first batch is what
    // a policy started before the planner's phase proposes first (nothing told it anything meanwhile).
    PlacementProxy paperModel = PlacementProxy.ofSim(new SimBackend(paper, SimOptions.exact()), RESNET, DEVICES);
    SimBackend measuring = new SimBackend(paper, SimOptions.exact());
    SearchContext context = SearchContext.builder(RESNET, DEVICES, measuring.supports(RESNET, DEVICES)).budget(200)
        .seed(3).proxy(paperModel).build();
    PlannerStrategy planner = new PlannerStrategy("planner");
    HsdagConfig config = HsdagConfig.builder().build();
    try (HsdagStrategy lazy = new HsdagStrategy(config);
        HsdagStrategy eager = new HsdagStrategy(config);
        WarmStartStrategy s = new WarmStartStrategy(planner, new FirstBatch(lazy), 0)) {
      eager.init(context);
      List<Placement> eagerFirst = eager.ask(4);
      s.init(context);
      assertFalse(s.learnedStarted());
      assertNull(lazy.trainer(), "not built at init");
      for (int round = 0; !s.learnedStarted(); round++) {
        assertTrue(round < 100, "the planner's phase ends");
        List<Placement> batch = s.ask(4);
        assertEquals(s.learnedStarted(), planner.finished(), "the policy starts when the planner has finished");
        s.tell(batch, measureAll(measuring, batch));
      }
      assertEquals(eagerFirst, ((FirstBatch) s.learned()).first, "the same first proposals as a policy built at once");
    }
  }

  private static List<Measurement> measureAll(SimBackend backend, List<Placement> batch) {
    List<Measurement> out = new ArrayList<>();
    for (Placement p : batch) {
      out.add(backend.measure(RESNET, p, MeasurementProtocol.PAPER));
    }
    return out;
  }

  /** A learned strategy that keeps the first batch it proposes. */
  private static final class FirstBatch implements SearchStrategy {
    private final HsdagStrategy inner;
    private List<Placement> first;

    FirstBatch(HsdagStrategy inner) {
      this.inner = inner;
    }

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public void init(SearchContext context) {
      inner.init(context);
    }

    @Override
    public List<Placement> ask(int limit) {
      List<Placement> batch = inner.ask(limit);
      if (first == null) {
        first = batch;
      }
      return batch;
    }

    @Override
    public void tell(List<Placement> batch, List<Measurement> results) {
      inner.tell(batch, results);
    }
  }

  @Test
  void aSearchWithRoomToImproveKeepsGoing() throws IOException {
    // The target is the profile perturbed by 30 %: the planner's first placement on the unperturbed one is not the best.
    DeviceProfile paper = DeviceProfile.load("paper");
    DeviceProfile target = ProfileMismatch.named(0.3, 1).apply(paper);
    PlacementProxy wrong = PlacementProxy.ofSim(new SimBackend(paper, SimOptions.exact()), RESNET, DEVICES);
    SearchOutcome o = defaultSearch(target, wrong, 1007);

    double first = o.steps().get(0).latencyMillis();
    double best = o.ranked().get(0).latencyMillis();
    assertTrue(best < 0.99 * first, "improved on the planner's first placement: " + first + " -> " + best + " ms");
    assertTrue(o.measurements() > TuneConfig.DEFAULT_PATIENCE, o.measurements() + " measurements: " + o.stopText());
  }
}
