package org.hsdag.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hsdag.cost.DeviceModel;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.SimGraph;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.Samples;
import org.junit.jupiter.api.Test;

/**
 * The calibration machinery on the stand-in samples: the fit reproduces targets that a known
 * profile produced, without leaving physical bounds. (The shipped {@code paper} profile itself is
 * checked against Table 2 on the generated models by the models module's PaperCalibrationTest.)
 */
class CalibrationTest {
  /** The three stand-in models, or a skipped test when a sample is absent. */
  private static Map<String, OpGraph> models() {
    for (Calibration.Target t : Calibration.PAPER_TABLE_2) {
      Samples.irSample(t.sample());
    }
    return Calibration.readModels(Samples.irSamples(), Calibration.PAPER_TABLE_2);
  }

  @Test
  void fitReproducesTargetsOfAKnownProfileWithinBounds() {
    Map<String, OpGraph> graphs = models();
    DeviceProfile paper = DeviceProfile.load("paper");
    DeviceModel cpu = paper.device("CPU");
    Map<String, Double> eff = new java.util.HashMap<>(cpu.efficiency());
    eff.put("CONVOLUTION", 0.45);
    eff.put("POINTWISE_CONVOLUTION", 0.35);
    DeviceProfile truth = paper.withDevice(new DeviceModel(cpu.name(), cpu.fullName(), cpu.kind(), cpu.peakGflops(),
        60.0, 7.0, cpu.subModelOverheadUs(), cpu.linkLatencyUs(), cpu.linkBandwidthGBs(), eff, cpu.unsupportedOps(),
        cpu.dynamicShapes(), cpu.fusion(), cpu.fullOccupancyOutputs()));
    List<Calibration.Target> cpuTargets = new java.util.ArrayList<>();
    List<Calibration.Target> onCpu = Calibration.PAPER_TABLE_2.stream().filter(t -> t.device().equals("CPU")).toList();
    List<Calibration.Row> truthRows = Calibration.table(truth, graphs, onCpu);
    for (int i = 0; i < onCpu.size(); i++) {
      Calibration.Target t = onCpu.get(i);
      cpuTargets.add(new Calibration.Target(t.model(), t.sample(), t.device(), truthRows.get(i).simulatedMillis()));
    }
    DeviceProfile fitted = Calibration.fit(paper, graphs, cpuTargets);
    List<Calibration.Row> rows = Calibration.table(fitted, graphs, cpuTargets);
    Calibration.print(rows, "paper (fitted to a known CPU)", System.out);
    assertTrue(Calibration.maxErrorPercent(rows) < 2.0, "max error " + Calibration.maxErrorPercent(rows));
    DeviceModel f = fitted.device("CPU");
    for (double e : f.efficiency().values()) {
      assertTrue(e > 0 && e <= Calibration.MAX_EFFICIENCY, "efficiency " + e);
    }
    assertTrue(f.memoryBandwidthGBs() <= cpu.memoryBandwidthGBs(), "bandwidth above the start profile's spec");
    assertEquals(paper.device("GPU.1"), fitted.device("GPU.1"), "devices without targets are untouched");
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
    // One cut, the high-resolution first half of the kernels on GPU.1 and the small late layers on
    // the CPU, beats the CPU and may beat the GPU a little (a big GPU is at its best on large
    // feature maps), but no split is dramatically faster than the best single device.
    // Constants are not counted: they follow their consumers anyway.
    SimGraph sg = sim.simGraph(g);
    int kernels = sg.computeNodeCount();
    int[] halves = new int[g.nodeCount()];
    java.util.Arrays.fill(halves, cpuIndex);
    int seen = 0;
    for (int v : topo) {
      if (sg.isCompute(v) && seen++ < kernels / 2) {
        halves[v] = gpuIndex;
      }
    }
    double split = sim.latencyMillis(g, new Placement(sim.deviceSet(), halves));
    assertTrue(split < cpu && split > 0.75 * Math.min(cpu, gpu), "split " + split + " vs cpu " + cpu + ", gpu " + gpu);
    assertTrue(split < zigzag, "one cut costs less than hundreds");
    assertEquals(2, sim.evaluate(g, new Placement(sim.deviceSet(), halves)).subModels());
  }
}
