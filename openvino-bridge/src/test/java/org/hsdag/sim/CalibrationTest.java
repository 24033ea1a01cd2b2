package org.hsdag.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.Samples;
import org.junit.jupiter.api.Test;

/** The shipped {@code paper} profile reproduces the paper's Table 2 single-device latencies within 5%. */
class CalibrationTest {
  /** The three stand-in models, or a skipped test when a sample is absent. */
  private static Map<String, OpGraph> models() {
    for (Calibration.Target t : Calibration.PAPER_TABLE_2) {
      Samples.irSample(t.sample());
    }
    return Calibration.readModels(Samples.irSamples(), Calibration.PAPER_TABLE_2);
  }

  @Test
  void paperProfileMatchesTable2WithinFivePercent() {
    Map<String, OpGraph> graphs = models();
    List<Calibration.Row> rows = Calibration.table(DeviceProfile.load("paper"), graphs, Calibration.PAPER_TABLE_2);
    Calibration.print(rows, "paper", System.out);
    for (Calibration.Row r : rows) {
      assertTrue(Math.abs(r.errorPercent()) < 5.0, r.model() + " on " + r.device() + ": " + r.simulatedMillis()
          + " ms vs paper " + r.paperMillis() + " ms");
    }
  }

  @Test
  void mixedPlacementsBehavePlausibly() {
    Map<String, OpGraph> graphs = models();
    OpGraph g = graphs.get("resnet-50.xml");
    SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());
    int[] topo = g.topologicalOrder();
    double cpu = sim.latencyMillis(g, Placement.allOn(sim.deviceSet(), g.nodeCount(), "CPU"));
    double gpu = sim.latencyMillis(g, Placement.allOn(sim.deviceSet(), g.nodeCount(), "GPU.1"));
    // Alternating every node between CPU and GPU.1 crosses PCIe hundreds of times: far worse than either.
    int[] alternating = new int[g.nodeCount()];
    int cpuIndex = sim.deviceSet().indexOf("CPU");
    int gpuIndex = sim.deviceSet().indexOf("GPU.1");
    for (int r = 0; r < topo.length; r++) {
      alternating[topo[r]] = r % 2 == 0 ? cpuIndex : gpuIndex;
    }
    double zigzag = sim.latencyMillis(g, new Placement(sim.deviceSet(), alternating));
    assertTrue(zigzag > Math.max(cpu, gpu), "zigzag " + zigzag + " vs cpu " + cpu + ", gpu " + gpu);
    // One cut (first half of the kernels on CPU, the rest on GPU.1) lies between the two
    // single-device latencies. Constants are not counted: they follow their consumers anyway.
    SimGraph sg = sim.simGraph(g);
    int kernels = sg.computeNodeCount();
    int[] halves = new int[g.nodeCount()];
    java.util.Arrays.fill(halves, gpuIndex);
    int seen = 0;
    for (int v : topo) {
      if (sg.isCompute(v) && seen++ < kernels / 2) {
        halves[v] = cpuIndex;
      }
    }
    double split = sim.latencyMillis(g, new Placement(sim.deviceSet(), halves));
    assertTrue(split > gpu && split < cpu, "split " + split + " vs cpu " + cpu + ", gpu " + gpu);
    assertEquals(2, sim.evaluate(g, new Placement(sim.deviceSet(), halves)).subModels());
  }
}
