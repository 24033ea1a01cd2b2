package org.hsdag.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * What sets the level of a fitted model's split predictions (docs/hetero-rules.md §7): the designed splits, not the
 * alone runs, and a slowed designed split only within its noise; a design measured as a whole in a slower machine
 * state moves every prediction alike, which no fit of those measurements can tell from a slower device.
 */
class HeteroFitLevelTest {
  /** {@link HeteroFitTest}'s: GPU.1 is like a 1-thread twin, its kernels 2.5x as long alone as inside a split. */
  private static final List<HeteroDevice> TRUE_COSTS = HeteroFitTest.TRUE_COSTS;

  private static final double[] TRUE_SCALE = HeteroFitTest.TRUE_SCALE;

  private static HeteroCostModel base() {
    return HeteroCostModel.forProfile(HeteroFitTest.shrinking(), DeviceProfile.load("paper"),
        new CostModel(ShapeAssumption.DEFAULT)).withDevices(List.of("CPU", "GPU.1"));
  }

  /** The model the measurements come from: {@link HeteroFitTest}'s scales and costs, 50 us per request. */
  private static HeteroCostModel truth(HeteroCostModel base) {
    return HeteroFit.apply(base, TRUE_SCALE, TRUE_COSTS, 50);
  }

  /** Random contiguous placements with 1 to 4 device changes, as {@code bench fidelity} draws them. */
  private static List<int[]> contiguousSplits(int opCount, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<int[]> out = new ArrayList<>();
    for (int k = 0; k < 30; k++) {
      int changes = 1 + rnd.nextInt(4);
      int[] cuts = rnd.ints(changes, 1, opCount).sorted().toArray();
      int[] dc = new int[opCount];
      int side = rnd.nextInt(2);
      for (int i = 0, c = 0; i < opCount; i++) {
        while (c < cuts.length && i >= cuts[c]) {
          side = 1 - side;
          c++;
        }
        dc[i] = side;
      }
      out.add(dc);
    }
    return out;
  }

  /** The median over {@code splits} of {@code a}'s prediction / {@code b}'s - 1. */
  private static double medianShift(HeteroCostModel a, HeteroCostModel b, List<int[]> splits) {
    double[] r = splits.stream().mapToDouble(dc -> a.evaluate(dc).micros() / b.evaluate(dc).micros() - 1).sorted()
        .toArray();
    return r[r.length / 2];
  }

  private static List<HeteroFit.Observation> scaled(List<HeteroFit.Observation> obs, String label, double factor) {
    List<HeteroFit.Observation> out = new ArrayList<>();
    for (HeteroFit.Observation o : obs) {
      boolean hit = label == null || o.label().equals(label);
      out.add(new HeteroFit.Observation(o.label(), o.deviceOfOp(), hit ? o.micros() * factor : o.micros()));
    }
    return out;
  }

  /** Every random contiguous split (drawn from {@code seed}) predicted by {@code a} at {@code factor} x {@code b}'s. */
  private static void assertEverySplitScaled(double factor, HeteroFit.Result a, HeteroFit.Result b, long seed,
      String why) {
    for (int[] dc : contiguousSplits(b.model().opCount(), seed)) {
      assertEquals(factor, a.model().evaluate(dc).micros() / b.model().evaluate(dc).micros(), 1e-6, why);
    }
  }

  @Test
  void aGenuineAloneFactorIsFoundAndAnAloneRunNeverMovesTheSplits() {
    HeteroCostModel base = base();
    HeteroCostModel truth = truth(base);
    List<HeteroFit.Observation> obs = HeteroFitTest.measured(truth, 0.01, 2);
    HeteroFit.Result fit = HeteroFit.fit(base, obs);
    // The factor is relative to the twin's fitted split scale, which its few split kernels leave within the noise.
    double twin = fit.costs().get(1).aloneScale();
    assertTrue(twin > 2 && twin < 3, "the twin's alone factor is found: " + twin);
    assertTrue(fit.notes().stream().anyMatch(n -> n.startsWith("GPU.1: alone it runs its kernels")), fit.notes()
        .toString());
    assertEquals(1.0, fit.costs().get(0).aloneScale(), 0.05, "a device without one keeps about 1");
    int[] twinAlone = new int[base.opCount()];
    Arrays.fill(twinAlone, 1);
    double real = truth.evaluate(twinAlone).micros();
    assertEquals(real, fit.model().evaluate(twinAlone).micros(), 0.02 * real, "the twin alone is predicted");
    // The twin's alone run taken in a burst, 30 % slow: only its alone prediction follows.
    HeteroFit.Result noisy = HeteroFit.fit(base, scaled(obs, "GPU.1 alone", 1.3));
    assertEverySplitScaled(1.0, noisy, fit, 4, "a split's prediction does not depend on the alone runs");
    assertEquals(1.3, noisy.model().evaluate(twinAlone).micros() / fit.model().evaluate(twinAlone).micros(), 0.02);
  }

  @Test
  void oneSlowDesignedSplitMovesTheLevelOfTheOthersWithinTheNoise() {
    HeteroCostModel base = base();
    HeteroCostModel truth = truth(base);
    List<HeteroFit.Observation> obs = HeteroFitTest.measured(truth, 0.01, 3);
    List<int[]> splits = contiguousSplits(base.opCount(), 5);
    HeteroFit.Result clean = HeteroFit.fit(base, obs);
    for (HeteroFit.Observation o : obs) {
      if (o.label().endsWith(" alone")) {
        continue;
      }
      HeteroFit.Result hit = HeteroFit.fit(base, scaled(obs, o.label(), 1.3));
      double shift = medianShift(hit.model(), clean.model(), splits);
      assertTrue(Math.abs(shift) < 0.02, o.label() + " 30 % slow moves the splits' level by " + shift);
    }
  }

  @Test
  void aDesignMeasuredWhollyInASlowerStateMovesEverySplitAlike() {
    HeteroCostModel base = base();
    HeteroCostModel truth = truth(base);
    List<HeteroFit.Observation> obs = HeteroFitTest.measured(truth, 0.01, 6);
    HeteroFit.Result clean = HeteroFit.fit(base, obs);
    HeteroFit.Result slow = HeteroFit.fit(base, scaled(obs, null, 1.2));
    assertEverySplitScaled(1.2, slow, clean, 7, "the fit is scale-equivariant: the design's level is the model's");
    assertEquals(clean.medianAbsError(), slow.medianAbsError(), 1e-9, "and its own error cannot show it");
  }
}
