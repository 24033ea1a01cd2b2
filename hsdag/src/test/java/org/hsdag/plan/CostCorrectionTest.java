package org.hsdag.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.HeteroDevice;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

class CostCorrectionTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  private static PlacementProxy proxy(OpGraph g) {
    return PlacementProxy.ofSim(new SimBackend(DeviceProfile.load("paper"), SimOptions.exact()), g, DEVICES);
  }

  private static Placement random(PlacementProxy p, SplittableRandom rnd) {
    int[] d = new int[p.model().opCount()];
    int block = 0;
    for (int i = 0; i < d.length; i++) {
      if (i % 8 == 0) {
        block = rnd.nextInt(2);
      }
      d[i] = p.model().supported(i, block) ? block : 1 - block;
    }
    return p.placement(d);
  }

  @Test
  void withoutMeasurementsTheCorrectionIsTheIdentity() {
    OpGraph g = TinyGraphs.randomDag(80, 6, 3);
    PlacementProxy p = proxy(g);
    PlacementProxy c = new CostCorrection(p).corrected();
    Placement x = random(p, new SplittableRandom(1));
    assertEquals(p.latencyMicros(x), c.latencyMicros(x), 1e-6);
  }

  @Test
  void measurementsOfAScaledMachinePullTheModelOntoIt() {
    OpGraph g = TinyGraphs.randomDag(120, 8, 5);
    PlacementProxy p = proxy(g);
    // The "real" machine: GPU.1 kernels 40 % slower, copies twice as expensive.
    int ops = p.model().opCount();
    double[] kernel = new double[2 * ops];
    java.util.Arrays.fill(kernel, 0, ops, 1.0);
    java.util.Arrays.fill(kernel, ops, 2 * ops, 1.4);
    PlacementProxy truth = PlacementProxy.of(g, p.model().rescaled(kernel, new double[] {2, 2}, new double[] {1, 1}),
        DEVICES);
    CostCorrection correction = new CostCorrection(p);
    SplittableRandom rnd = new SplittableRandom(9);
    for (int k = 0; k < 40; k++) {
      Placement x = random(p, rnd);
      correction.observe(x, truth.latencyMicros(x) / 1000.0);
    }
    PlacementProxy corrected = correction.corrected();
    double before = 0;
    double after = 0;
    for (int k = 0; k < 20; k++) {
      Placement x = random(p, rnd);
      double t = truth.latencyMicros(x);
      before += Math.abs(p.latencyMicros(x) / t - 1);
      after += Math.abs(corrected.latencyMicros(x) / t - 1);
    }
    assertTrue(after < before / 5, "mean relative error before " + before / 20 + ", after " + after / 20);
    assertTrue(after / 20 < 0.02, "after " + after / 20);
  }

  @Test
  void startAndCopyCostsAModelLeftAtZeroAreLearnedFromMeasurements() {
    OpGraph g = TinyGraphs.randomDag(120, 8, 5);
    PlacementProxy sim = proxy(g);
    List<HeteroDevice> free = List.of(new HeteroDevice("CPU", 0, 0, 0), new HeteroDevice("GPU.1", 0, 0, 0));
    // The planner's model says splitting is free; the machine pays 400 us per sub-model and 30 us per copy.
    PlacementProxy p = sim.withModel(sim.model().withDeviceCosts(free, sim.model().requestOverhead()));
    List<HeteroDevice> real = List.of(new HeteroDevice("CPU", 30, 0, 400), new HeteroDevice("GPU.1", 30, 0, 400));
    PlacementProxy truth = sim.withModel(sim.model().withDeviceCosts(real, sim.model().requestOverhead()));
    CostCorrection correction = new CostCorrection(p);
    Placement probe = random(p, new SplittableRandom(3));
    assertEquals(p.latencyMicros(probe), correction.corrected().latencyMicros(probe), 1e-6,
        "no measurement: the zero costs stay zero");
    SplittableRandom rnd = new SplittableRandom(9);
    for (int k = 0; k < 40; k++) {
      Placement x = random(p, rnd);
      correction.observe(x, truth.latencyMicros(x) / 1000.0);
    }
    PlacementProxy corrected = correction.corrected();
    double before = 0;
    double after = 0;
    for (int k = 0; k < 20; k++) {
      Placement x = random(p, rnd);
      double t = truth.latencyMicros(x);
      before += Math.abs(p.latencyMicros(x) / t - 1);
      after += Math.abs(corrected.latencyMicros(x) / t - 1);
    }
    assertTrue(after < before / 5, "mean relative error before " + before / 20 + ", after " + after / 20);
    HeteroCostModel m = corrected.model();
    assertTrue(m.subModelOverhead(0) > 100 && m.subModelOverhead(1) > 100,
        "starts learned: " + m.subModelOverhead(0) + ", " + m.subModelOverhead(1));
  }

  @Test
  void correctionsOfOneProxySharingItsMemoFitAsCorrectionsOfFreshProxiesDo() {
    OpGraph g = TinyGraphs.randomDag(120, 8, 5);
    PlacementProxy p = proxy(g);
    SplittableRandom rnd = new SplittableRandom(4);
    List<Placement> placements = new ArrayList<>();
    for (int k = 0; k < 12; k++) {
      placements.add(random(p, rnd));
    }
    // Leave-one-out as SplitStop judges a run: many corrections of the same proxy on the same placements.
    for (int left = 0; left < placements.size(); left++) {
      CostCorrection shared = new CostCorrection(p);
      // A proxy of the same model but its own memo: what each correction computed alone before.
      CostCorrection alone = new CostCorrection(p.withModel(p.model()));
      for (int k = 0; k < placements.size(); k++) {
        if (k != left) {
          double ms = 0.5 + 0.1 * k;
          shared.observe(placements.get(k), ms);
          alone.observe(placements.get(k), ms);
        }
      }
      Placement x = placements.get(left);
      assertEquals(alone.corrected().latencyMicros(x), shared.corrected().latencyMicros(x), 0.0);
      assertArrayEquals(alone.fit(), shared.fit(), 0.0);
    }
  }
}
