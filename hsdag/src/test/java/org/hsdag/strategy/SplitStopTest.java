package org.hsdag.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

  /** CPU, GPU.1, then {@code splits} placements each moving {@code moved} random ops to GPU.1, as the planner's moves. */
  private static Placement[] nearCpuSplits(PlacementProxy truth, OpGraph g, int splits, int moved, long seed) {
    java.util.Random r = new java.util.Random(seed);
    Placement[] out = new Placement[2 + splits];
    out[0] = Placement.allOn(DEVICES, g.nodeCount(), "CPU");
    out[1] = Placement.allOn(DEVICES, g.nodeCount(), "GPU.1");
    for (int s = 0; s < splits; s++) {
      int[] d = new int[truth.model().opCount()];
      for (int k = 0; k < moved; k++) {
        d[r.nextInt(d.length)] = 1;
      }
      out[2 + s] = truth.placement(d);
    }
    return out;
  }

  /** Measures {@code ps} in order with ±{@code noise} multiplicative noise; the count when the stop first holds, or -1. */
  private static int measuredUntilStop(SplitStop stop, PlacementProxy truth, Placement[] ps, double noise, long seed) {
    java.util.Random r = new java.util.Random(seed);
    for (int i = 0; i < ps.length; i++) {
      double factor = 1 + noise * (2 * r.nextDouble() - 1);
      stop.observe(ps[i], factor * truth.latencyMicros(ps[i]) / 1000, noise);
      if (stop.reason() != null) {
        return i + 1;
      }
    }
    return -1;
  }

  @Test
  void noisyMeasurementsWhereNoSplitCanPayStopWithinTenMeasurementsOnEverySeed() {
    OpGraph g = TinyGraphs.randomDag(120, 6, 11);
    // GPU.1 2.2 times slower on every kernel, as CPU2 on a detector: the bound is 0 from the first measurement.
    PlacementProxy truth = gpuKernelsTimes(paper(g), 2.2);
    for (long seed = 1; seed <= 10; seed++) {
      SplitStop stop = new SplitStop(truth);
      int count = measuredUntilStop(stop, truth, nearCpuSplits(truth, g, 14, 3, seed), 0.04, seed);
      assertTrue(count > 0 && count <= 10, "seed " + seed + ": stopped after " + count);
      String reason = stop.reason();
      assertTrue(reason.startsWith("no split can pay: by the cost model corrected on " + count + " measurements ("
          + "its own error ") && reason.contains("split") && reason.contains(
              "measured, each left out; the "
                  + "measurements' noise ±4.0 %)"),
          reason);
    }
  }

  @Test
  void noisyMeasurementsWhereASplitPaysDoNotStop() {
    OpGraph g = TinyGraphs.randomDag(90, 6, 3);
    PlacementProxy truth = gpuFastOnAShare(paper(g), 0.5, 0.01, 1);
    for (long seed = 1; seed <= 5; seed++) {
      SplitStop stop = new SplitStop(truth);
      assertEquals(-1, measuredUntilStop(stop, truth, nearCpuSplits(truth, g, 14, 3, seed), 0.04, seed),
          "seed " + seed + ": " + stop.reason());
    }
  }

  @Test
  void aGainWithinTheMeasurementsNoiseStopsButNotOnceTheNoiseIsSmaller() {
    OpGraph g = TinyGraphs.randomDag(60, 5, 7);
    // GPU.1 twice as fast on a tenth of the ops, a hundred times slower on the rest: a small gain is possible.
    PlacementProxy truth = gpuFastOnAShare(paper(g), 0.1, 0.5, 0.01);
    double gain = SplitBound.of(truth).gainShare();
    assertTrue(gain > 0.005 && gain < 0.2, "bound " + gain);
    Placement[] ps = nearCpuSplits(truth, g, 3, 2, 5);
    SplitStop quiet = new SplitStop(truth);
    SplitStop noisy = new SplitStop(truth);
    for (Placement p : ps) {
      quiet.observe(p, truth.latencyMicros(p) / 1000, gain / 4);
      noisy.observe(p, truth.latencyMicros(p) / 1000, Math.min(0.2, gain * 1.5));
    }
    assertNull(quiet.reason());
    assertNotNull(noisy.reason());
    SplitStop tooNoisy = new SplitStop(truth);
    for (Placement p : ps) {
      tooNoisy.observe(p, truth.latencyMicros(p) / 1000, 0.4);
    }
    assertNull(tooNoisy.reason(), "measurements noisier than 25 % prove nothing");
  }
}
