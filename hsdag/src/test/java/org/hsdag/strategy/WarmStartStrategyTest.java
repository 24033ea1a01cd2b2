package org.hsdag.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.search.SearchConfigException;
import org.hsdag.search.SearchContext;
import org.hsdag.sim.DeviceProfile;
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
      assertTrue(after < before, "cost-model latency of the samples: cold " + before + " ms, pre-trained " + after + " ms");
    }
  }

  @Test
  void preTrainingIsAnOptionOfTheWarmStartedStrategiesOnly() {
    assertEquals(StrategyConfig.Hsdag.DEFAULT_PRETRAIN_EPISODES, ((StrategyConfig.Hsdag) Strategies.configure("hsdag", Map.of()))
        .pretrainEpisodes());
    assertEquals(50, ((StrategyConfig.Hsdag) Strategies.configure("hsdag", Map.of("pretrain", "50"))).pretrainEpisodes());
    assertEquals(0, ((StrategyConfig.Hsdag) Strategies.configure("hsdag-paper", Map.of())).pretrainEpisodes(), "cold as published");
    SearchConfigException e = assertThrows(SearchConfigException.class, () -> Strategies.configure("hsdag", Map.of("pretrain", "-1")));
    assertTrue(e.getMessage().contains("pretrain"), e.getMessage());
    SearchConfigException cold = assertThrows(SearchConfigException.class,
        () -> Strategies.configure("hsdag-paper", Map.of("pretrain", "50")));
    assertTrue(cold.getMessage().contains("starts cold"), cold.getMessage());
  }
}
