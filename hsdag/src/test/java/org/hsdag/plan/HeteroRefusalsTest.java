package org.hsdag.plan;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Map;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.HeteroRefusal;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.search.SearchEngine;
import org.hsdag.search.SearchLimits;
import org.hsdag.search.SearchListener;
import org.hsdag.search.SearchOutcome;
import org.hsdag.search.SearchStep;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.strategy.Strategies;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

/**
 * Splits HETERO refuses (docs/hetero-rules.md) on a detector-like graph: the simulator fails them
 * with the reason, the planner never proposes one, and no strategy spends a measurement on one.
 */
class HeteroRefusalsTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  /** A chain of ops; after every other one a ShapeOf → StridedSlice → PriorBoxClustered → Unsqueeze branch; all concatenated. */
  static OpGraph detector(int layers) {
    return detector(layers, false);
  }

  /** {@link #detector(int)}, its chain made of MatMuls that carry 64 KiB of weights each when {@code weighted}. */
  static OpGraph detector(int layers, boolean weighted) {
    TinyGraphs.Builder b = TinyGraphs.builder(weighted ? "weighted-detector" : "detector");
    long[] dims = {1, 8, 16, 16};
    int x = b.parameter("x", dims);
    int img = b.parameter("img", 1, 3, 64, 64);
    int si = b.op("si", "ShapeOf", Map.of(), ElementType.I64, new long[] {4}, img);
    int ssi = b.op("ssi", "StridedSlice", Map.of(), ElementType.I64, new long[] {2}, si,
        b.constant("bi", ElementType.I64, 1), b.constant("ei", ElementType.I64, 1),
        b.constant("sti", ElementType.I64, 1));
    int h = x;
    int[] priors = new int[layers / 2];
    for (int i = 0; i < layers; i++) {
      h = weighted ? b.op("h" + i, "MatMul", dims, h, b.constant("w" + i, ElementType.F32, 128, 128))
          : b.op("h" + i, i % 2 == 0 ? "ReLU" : "Sigmoid", dims, h);
      if (i % 2 == 1) {
        int s = b.op("s" + i, "ShapeOf", Map.of(), ElementType.I64, new long[] {4}, h);
        int ss = b.op("ss" + i, "StridedSlice", Map.of(), ElementType.I64, new long[] {2}, s,
            b.constant("b" + i, ElementType.I64, 1), b.constant("e" + i, ElementType.I64, 1),
            b.constant("st" + i, ElementType.I64, 1));
        int pb = b.op("pb" + i, "PriorBoxClustered", new long[] {2, 2048}, ss, ssi);
        priors[i / 2] = b.op("u" + i, "Unsqueeze", new long[] {1, 2, 2048}, pb,
            b.constant("ax" + i, ElementType.I64, 1));
      }
    }
    int all = b.op("priors", "Concat", Map.of("axis", "2"), ElementType.F32, new long[] {1, 2, 2048L * priors.length},
        priors);
    int flat = b.op("flat", "Reshape", new long[] {1, 1, 2048}, h, b.constant("shape", ElementType.I64, 3));
    b.result("out", b.op("out", "Add", new long[] {1, 2, 2048L * priors.length}, all, flat));
    return b.build();
  }

  @Test
  void theSimulatorFailsARefusedSplitWithTheReason() {
    OpGraph g = detector(6);
    SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());
    int[] d = new int[g.nodeCount()];
    d[g.indexOf("pb1")] = 1;
    Measurement m = sim.measure(g, new Placement(DEVICES, d), MeasurementProtocol.PAPER);
    assertFalse(m.ok());
    assertTrue(m.reason().startsWith(HeteroRefusal.PREFIX), m.reason());
    assertTrue(m.reason().contains("'pb1'"), m.reason());
  }

  @Test
  void thePlannerAndNoStrategyEverSpendAMeasurementOnARefusedSplit() throws IOException {
    OpGraph g = detector(12);
    SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());
    PlacementProxy proxy = PlacementProxy.ofSim(sim, g, DEVICES);
    Plan plan = new Planner().plan(proxy);
    assertNull(proxy.model().refusedBoundary(proxy.opDevices(plan.best().placement())));
    for (Strategies.Entry e : Strategies.all()) {
      if (e.family() == Strategies.Family.ABLATION
          || (e.requiredDevice() != null && !DEVICES.contains(e.requiredDevice()))) {
        continue;
      }
      SearchEngine engine = SearchEngine.builder(sim, g, DEVICES).seed(1).proxy(proxy).build();
      SearchOutcome o = engine.run(e.create(), SearchLimits.of(8), 1, SearchListener.NONE);
      for (SearchStep s : o.steps()) {
        if (s.spentMeasurement()) {
          assertNull(proxy.model().refusedBoundary(proxy.opDevices(s.placement())),
              e.name() + " spent a measurement on a refused split");
        }
      }
    }
  }
}
