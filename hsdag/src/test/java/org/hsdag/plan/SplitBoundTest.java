package org.hsdag.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

/** The bound on what a split can gain over the fastest single device, and its explanation. */
class SplitBoundTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  private static PlacementProxy proxy(OpGraph g) {
    return PlacementProxy.ofSim(new SimBackend(DeviceProfile.load("paper"), SimOptions.exact()), g, DEVICES);
  }

  @Test
  void noRandomSplitBeatsTheBound() {
    for (int seed = 1; seed <= 4; seed++) {
      OpGraph g = TinyGraphs.randomDag(90, 6, seed);
      PlacementProxy p = proxy(g);
      SplitBound b = SplitBound.of(p);
      assertTrue(b.gainMicros() >= 0);
      SplittableRandom rnd = new SplittableRandom(seed);
      for (int k = 0; k < 200; k++) {
        int[] d = new int[p.model().opCount()];
        for (int i = 0; i < d.length; i++) {
          int want = rnd.nextInt(2);
          d[i] = p.model().supported(i, want) ? want : 1 - want;
        }
        double split = p.latencyMicros(p.placement(d));
        assertTrue(split >= b.singleMicros() - b.gainMicros() - 1e-6,
            "seed " + seed + ": a split at " + split + " beats the bound " + (b.singleMicros() - b.gainMicros()));
      }
    }
  }

  @Test
  void aDeviceFasterOnEveryOpLeavesNoSplitThatCanPay() {
    OpGraph g = TinyGraphs.randomDag(60, 5, 7);
    PlacementProxy p = proxy(g);
    int ops = p.model().opCount();
    // GPU.1's kernels a hundred times slower than the paper's, links and starts as they are.
    double[] kernel = new double[2 * ops];
    Arrays.fill(kernel, 0, ops, 1.0);
    Arrays.fill(kernel, ops, 2 * ops, 100.0);
    PlacementProxy slowGpu = p.withModel(p.model().rescaled(kernel, new double[] {1, 1}, new double[] {1, 1}));
    SplitBound b = SplitBound.of(slowGpu);
    assertEquals("CPU", b.device());
    assertEquals(0, b.fasterOps());
    String why = b.explain();
    assertTrue(why.startsWith("CPU is faster than GPU.1 on every op class"), why);
    if (b.noSplitCanPay()) {
      assertTrue(why.endsWith("no split can beat CPU alone"), why);
    } else {
      assertTrue(why.contains("a split could gain at most"), why);
    }
  }

  @Test
  void whenSomeOpsAreFasterElsewhereTheBoundSaysByHowMuch() {
    OpGraph g = TinyGraphs.randomDag(90, 6, 3);
    SplitBound b = SplitBound.of(proxy(g));
    assertTrue(b.fasterOps() > 0, "the paper's GPU and CPU each win some ops");
    assertFalse(b.noSplitCanPay());
    assertTrue(b.explain().contains("ops are faster elsewhere, so a split could gain at most"), b.explain());
  }

  /** Op classes that cost nothing on a device (fused away) or cannot run there never print as NaN or 0x ratios. */
  @Test
  void ratiosThatAreNotPositiveNumbersAreLeftOut() {
    java.util.Map<String, double[]> classes = new java.util.LinkedHashMap<>();
    classes.put("Convolution", new double[] {100, 286});
    classes.put("SoftMax", new double[] {0, 0});
    classes.put("ReLU", new double[] {5, 0});
    classes.put("TopK", new double[] {3, Double.POSITIVE_INFINITY});
    SplitBound b = new SplitBound("CPU", 200, "CPU", 200, 5, 1, classes, java.util.List.of("CPU", "CPU2"));
    String why = b.explain();
    assertTrue(why.contains("Convolution 2.86x"), why);
    assertFalse(why.contains("NaN") || why.contains("0.00x") || why.contains("Infinity"), why);
  }

  /** A class far faster on the other device (a Gather the test device runs in a fraction) keeps its digits. */
  @Test
  void aTinyRatioPrintsItsSignificantDigitsNotZero() {
    java.util.Map<String, double[]> classes = new java.util.LinkedHashMap<>();
    classes.put("MatMul", new double[] {100, 77});
    classes.put("Gather", new double[] {50, 0.06});
    SplitBound b = new SplitBound("CPU", 200, "CPU", 200, 5, 1, classes, java.util.List.of("CPU", "CPU2"));
    String why = b.explain();
    assertTrue(why.contains("MatMul 0.77x") && why.contains("Gather 0.0012x"), why);
    assertFalse(why.contains("0.00x"), why);
  }

  /** A bound that only input/output copies make positive does not say "0 ops are faster elsewhere" beside a gain. */
  @Test
  void aGainWithoutAFasterOpSaysWhereItComesFrom() {
    java.util.Map<String, double[]> classes = java.util.Map.of("Convolution", new double[] {100, 120});
    SplitBound b = new SplitBound("CPU2", 100, "CPU2", 100, 80, 0, classes, java.util.List.of("CPU2", "CPU"));
    String why = b.explain();
    assertFalse(why.contains("0 ops are faster"), why);
    assertTrue(why.contains("no op is faster elsewhere"), why);
  }

  /** Twin devices start sub-models alike: a split starts two, so sub-model starts never bound a gain. */
  @Test
  void aSplitNeverSavesASubModelStart() {
    // CPU's sub-model start a thousand times the paper's: one start of it still costs less than any split's two.
    SplitBound b = SplitBound.over(slowGpu(1000), "CPU");
    assertEquals(0, b.fasterOps());
    assertTrue(b.gainMicros() <= SplitBound.over(slowGpu(1), "CPU").gainMicros() + 1e-9, b.explain());
  }

  /** Asked over a device the model does not rank first, the bound says which it ranks first instead of calling it fastest. */
  @Test
  void overTheMeasuredWinnerTheModelsOwnRankingIsNamed() {
    SplitBound b = SplitBound.over(slowGpu(1), "GPU.1");
    assertEquals("CPU", b.fastest());
    assertTrue(b.explain().startsWith("the cost model ranks CPU alone"), b.explain());
    assertFalse(b.explain().contains("GPU.1 alone is the fastest"), b.explain());
  }

  /** GPU.1's kernels a hundred times the paper's on a random graph; CPU's sub-model start {@code cpuStart} times. */
  private static PlacementProxy slowGpu(double cpuStart) {
    PlacementProxy p = proxy(TinyGraphs.randomDag(60, 5, 7));
    int ops = p.model().opCount();
    double[] kernel = new double[2 * ops];
    Arrays.fill(kernel, 0, ops, 1.0);
    Arrays.fill(kernel, ops, 2 * ops, 100.0);
    return p.withModel(p.model().rescaled(kernel, new double[] {1, 1}, new double[] {cpuStart, 1}));
  }
}
