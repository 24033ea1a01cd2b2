package org.hsdag.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.hsdag.cost.CostTerms;
import org.hsdag.ir.OpGraph;
import org.hsdag.models.ModelCatalog;
import org.hsdag.placement.DeviceSet;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.HeteroCostModelBuilder;
import org.hsdag.cost.HeteroDevice;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.throughput.ObjectiveFigures;
import org.hsdag.throughput.PipelineStages;
import org.hsdag.throughput.PipelineThroughput;
import org.junit.jupiter.api.Test;

/** The planner under the throughput objective, and the stages it reasons on, on real and random models. */
class ThroughputPlannerTest {
  private final SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());

  @Test
  void stagesAddUpToTheLatencyOfTheEvaluatorOnResNet50() {
    OpGraph g = ModelCatalog.get("resnet50").build().graph();
    PlacementProxy proxy = PlacementProxy.ofSim(sim, g, DeviceSet.of("CPU", "GPU.0", "GPU.1"));
    Plan latencyPlan = new Planner().plan(proxy);
    for (PlanCandidate c : latencyPlan.candidates()) {
      int[] dc = proxy.opDevices(c.placement());
      PipelineStages s = PipelineStages.of(proxy.model(), dc);
      assertEquals(c.proxyMicros(), s.latencyMicros(), 1e-6 * c.proxyMicros(), c.origin());
      CostTerms t = proxy.model().terms(dc);
      double[] loads = s.deviceLoads(3);
      for (int d = 0; d < 3; d++) {
        double expected = t.copyMicros(d) + t.subModels(d) * proxy.model().subModelOverhead(d);
        for (int i = 0; i < dc.length; i++) {
          expected += dc[i] == d ? t.opMicros(i) : 0;
        }
        assertEquals(expected, loads[d], 1e-6 * c.proxyMicros(), c.origin() + " device " + d);
      }
      // The simulated pipeline never beats the bound, and never does worse than one request at a time.
      double period = PipelineThroughput.simulatedPeriodMicros(s, 4);
      assertTrue(period >= PipelineThroughput.boundMicros(s, 3, 4) * (1 - 1e-9), c.origin());
      assertTrue(period <= s.latencyMicros() * (1 + 1e-9), c.origin());
    }
  }

  @Test
  void throughputPlanOfResNet50BeatsTheLatencyPlanAndEverySingleDeviceInThroughput() {
    OpGraph g = ModelCatalog.get("resnet50").build().graph();
    PlacementProxy latency = PlacementProxy.ofSim(sim, g, DeviceSet.of("CPU", "GPU.1"));
    PlacementProxy throughput = latency.forThroughput(3);
    Plan plan = new Planner().plan(throughput);
    double planned = plan.best().proxyMicros();
    ObjectiveFigures ofLatencyPlan = ObjectiveFigures.of(latency.model(),
        latency.opDevices(new Planner().plan(latency).best().placement()), 3);
    assertTrue(planned < ofLatencyPlan.periodMillis() * 1000, planned + " vs " + ofLatencyPlan);
    assertTrue(planned <= plan.bestSingleDevice().proxyMicros());
    assertFalse(plan.best().placement().isSingleDevice());
    // The plan's figure is the proxy's: the simulated time per inference with 3 requests in flight.
    assertEquals(planned, throughput.evaluate(plan.best().placement()).micros(), 1e-9);
  }

  @Test
  void onSmallRandomModelsItIsNeverWorseThanTheSingleDevicesAndNearTheExhaustiveOptimum() {
    int within = 0;
    int models = 12;
    for (int seed = 0; seed < models; seed++) {
      HeteroCostModel model = RandomModels.random(9, 2, 100 + seed);
      int requests = 3;
      int[] planned = new ThroughputPlanner(PlannerConfig.DEFAULT).best(model, new int[0][], requests);
      double mine = period(model, planned, requests);
      double[] optimum = {Double.POSITIVE_INFINITY};
      RandomModels.forEachLabeling(9, 2, label -> {
        if (model.evaluate(label).ok()) {
          optimum[0] = Math.min(optimum[0], period(model, label, requests));
        }
      });
      for (int d = 0; d < 2; d++) {
        int[] single = new int[9];
        Arrays.fill(single, d);
        if (model.evaluate(single).ok()) {
          assertTrue(mine <= period(model, single, requests) * (1 + 1e-9), "seed " + seed);
        }
      }
      assertTrue(mine >= optimum[0] * (1 - 1e-9));
      assertTrue(mine <= optimum[0] * 1.2, "seed " + seed + ": " + mine + " vs the optimum " + optimum[0]);
      within += mine <= optimum[0] * 1.05 ? 1 : 0;
    }
    // A heuristic on a min-max objective: most models within 5 % of the optimum, none beyond 20 %.
    assertTrue(within > models / 2, within + " of " + models + " within 5 %");
  }

  /**
   * input -> a -> b -> c -> d -> output, 1000-byte tensors. CPU: 3000 µs per op, free link, 100 µs
   * per sub-model; GPU: 1500 µs per op, 10 µs + 0.1 µs/byte per copy (110 µs), 200 µs per
   * sub-model; 50 µs per request, 3 requests in flight. By hand: all on the GPU is one stage of
   * 6000 + 200 + 110 (input in) + 110 (output out) = 6420 µs; a on the CPU (3100 µs with its start)
   * and b..d on the GPU (4500 + 200 + 110 in + 110 out = 4920 µs) bound the period at 4920 µs, as do
   * a..c on the GPU (4500 + 200 + 110 + 110) and d on the CPU (3100); any other split loads one
   * device more (two ops on the CPU: 6100 µs; the GPU visited twice: 5340 µs), and the latency over
   * the requests (8070 / 3) stays below.
   */
  @Test
  void onAFourOpChainItFindsTheHandComputedOptimum() {
    HeteroCostModelBuilder b = HeteroCostModel.builder(List.of(new HeteroDevice("CPU", 0, 0, 100),
        new HeteroDevice("GPU", 10, 0.1, 200)), 50);
    int a = b.op(0, new double[] {3000, 1500});
    int bb = b.op(1, new double[] {3000, 1500}, a);
    int c = b.op(2, new double[] {3000, 1500}, bb);
    int d = b.op(3, new double[] {3000, 1500}, c);
    b.tensor(-1, 1000, 0, a);
    b.tensor(a, 1000, 0, bb);
    b.tensor(bb, 1000, 0, c);
    b.tensor(c, 1000, 0, d);
    b.tensor(d, 1000, 1);
    HeteroCostModel model = b.build();
    int[] planned = new ThroughputPlanner(PlannerConfig.DEFAULT).best(model, new int[0][], 3);
    assertEquals(4920, period(model, planned, 3), 1e-6);
    assertTrue(Arrays.equals(planned, new int[] {0, 1, 1, 1}) || Arrays.equals(planned, new int[] {1, 1, 1, 0}),
        Arrays.toString(planned));
    assertEquals(6420, period(model, new int[] {1, 1, 1, 1}, 3), 1e-6);
    assertEquals(6100, period(model, new int[] {0, 0, 1, 1}, 3), 1e-6);
  }

  @Test
  void isDeterministic() {
    HeteroCostModel model = RandomModels.random(20, 3, 9);
    ThroughputPlanner p = new ThroughputPlanner(PlannerConfig.DEFAULT);
    assertArrayEquals(p.best(model, new int[0][], 4), p.best(model, new int[0][], 4));
  }

  private static double period(HeteroCostModel model, int[] label, int requests) {
    return PipelineThroughput.simulatedPeriodMicros(PipelineStages.of(model, label), requests);
  }
}
