package org.hsdag.strategy;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.Planner;
import org.hsdag.plan.SplitBound;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

/** The early stop when the corrected cost model shows that no split can pay more than its own error. */
class SplitStopTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  private static PlacementProxy paper(OpGraph g) {
    return PlacementProxy.ofSim(new SimBackend(DeviceProfile.load("paper"), SimOptions.exact()), g, DEVICES);
  }

  /** {@code p} with GPU.1's kernels {@code factor} times the paper's. */
  private static PlacementProxy gpuKernelsTimes(PlacementProxy p, double factor) {
    int ops = p.model().opCount();
    double[] kernel = new double[2 * ops];
    Arrays.fill(kernel, 0, ops, 1.0);
    Arrays.fill(kernel, ops, 2 * ops, factor);
    return p.withModel(p.model().rescaled(kernel, new double[] {1, 1}, new double[] {1, 1}));
  }

  /**
   * {@code p} with GPU.1's kernels {@code fast} times the paper's on the first {@code share} of the ops and a hundred
   * times on the rest, and boundary copies and sub-model starts {@code boundary} times the paper's.
   */
  private static PlacementProxy gpuFastOnAShare(PlacementProxy p, double share, double fast, double boundary) {
    int ops = p.model().opCount();
    int fastOps = (int) (share * ops);
    double[] kernel = new double[2 * ops];
    Arrays.fill(kernel, 0, ops, 1.0);
    Arrays.fill(kernel, ops, ops + fastOps, fast);
    Arrays.fill(kernel, ops + fastOps, 2 * ops, 100);
    double[] b = {boundary, boundary};
    return p.withModel(p.model().rescaled(kernel, b, b));
  }

  private static void measureOn(SplitStop stop, PlacementProxy truth, Placement... ps) {
    for (Placement p : ps) {
      stop.observe(p, truth.latencyMicros(p) / 1000);
    }
  }

  @Test
  void aMachineWhereOneDeviceWinsEveryOpStopsAfterThreeMeasurements() {
    OpGraph g = TinyGraphs.randomDag(60, 5, 7);
    PlacementProxy truth = gpuKernelsTimes(paper(g), 100);
    SplitStop stop = new SplitStop(truth);
    Placement cpu = Placement.allOn(DEVICES, g.nodeCount(), "CPU");
    Placement gpu = Placement.allOn(DEVICES, g.nodeCount(), "GPU.1");
    measureOn(stop, truth, cpu, gpu);
    assertNull(stop.reason(), "the model's own error is unknown before 3 measurements");
    int[] half = new int[truth.model().opCount()];
    Arrays.fill(half, 0, half.length / 2, 1);
    measureOn(stop, truth, truth.placement(half));
    SplitBound bound = SplitBound.of(truth);
    String reason = stop.reason();
    assertNotNull(reason, "bound " + bound.gainShare());
    assertTrue(reason.startsWith("no split can pay: by the cost model corrected on 3 measurements"), reason);
    assertTrue(reason.contains("CPU is faster than GPU.1 on every op class"), reason);
  }

  @Test
  void whereSplitsCanPayMoreThanTheModelsErrorTheSearchGoesOn() {
    OpGraph g = TinyGraphs.randomDag(90, 6, 3);
    // GPU.1 a hundred times faster on the first half of the ops, a hundred times slower on the rest.
    PlacementProxy truth = gpuFastOnAShare(paper(g), 0.5, 0.01, 1);
    SplitStop stop = new SplitStop(truth);
    measureOn(stop, truth, Placement.allOn(DEVICES, g.nodeCount(), "CPU"),
        Placement.allOn(DEVICES, g.nodeCount(), "GPU.1"));
    int[] half = new int[truth.model().opCount()];
    Arrays.fill(half, 0, half.length / 2, 1);
    measureOn(stop, truth, truth.placement(half));
    assertTrue(SplitBound.of(truth).gainShare() > 0.01);
    assertNull(stop.reason());
  }

  @Test
  void oneSplitMeasuredThatTookMostOfTheBoundStopsTheSearchAndSaysSo() {
    OpGraph g = TinyGraphs.randomDag(60, 5, 7);
    // GPU.1 five times as fast on the first two fifths of the ops, a hundred times slower on the rest; boundaries
    // nearly free, so the split takes most of what the bound allows.
    PlacementProxy truth = gpuFastOnAShare(paper(g), 0.4, 0.2, 0.01);
    Placement optimum = new Planner().plan(truth).best().placement();
    SplitStop stop = new SplitStop(truth);
    // Measurements off the model by a few per cent either way, as on a real machine.
    double[] noise = {1.06, 0.95, 1.04, 0.96, 1.05};
    Placement[] measured = {Placement.allOn(DEVICES, g.nodeCount(), "CPU"),
        Placement.allOn(DEVICES, g.nodeCount(), "GPU.1"), optimum, optimum, optimum};
    for (int i = 0; i < measured.length; i++) {
      stop.observe(measured[i], noise[i] * truth.latencyMicros(measured[i]) / 1000);
    }
    SplitBound bound = SplitBound.of(truth);
    String reason = stop.reason();
    assertNotNull(reason, "bound " + bound.gainShare() + ", optimum " + truth.latencyMicros(optimum) + " of "
        + bound.singleMicros());
    assertTrue(reason.startsWith("no other split can pay"), reason);
  }
}
