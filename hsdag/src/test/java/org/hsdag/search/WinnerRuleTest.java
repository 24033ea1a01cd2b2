package org.hsdag.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.junit.jupiter.api.Test;

/** A split placement replaces the fastest single device only when it is clearly faster. */
class WinnerRuleTest {
  private static final Placement P = Placement.allOn(DeviceSet.of("CPU"), 1, "CPU");

  private static Candidate c(double ms, double lo, double hi) {
    return candidate("x", false, ms, lo, hi);
  }

  private static Candidate candidate(String label, boolean baseline, double ms, double lo, double hi) {
    return new Candidate(label, baseline, P, baseline ? -1 : 1, ms, ms, lo, hi, List.of(ms, ms, ms, ms, ms), 50,
        1,
        Double.isNaN(ms) ? "failed" : null);
  }

  @Test
  void overlappingIntervalsAreNotClearlyFaster() {
    assertFalse(c(7.89, 7.80, 7.93).clearlyFasterThan(c(7.90, 7.76, 7.96)));
  }

  @Test
  void disjointIntervalsAre() {
    assertTrue(c(6.0, 5.9, 6.1).clearlyFasterThan(c(7.9, 7.8, 8.0)));
    assertFalse(c(7.9, 7.8, 8.0).clearlyFasterThan(c(6.0, 5.9, 6.1)));
  }

  @Test
  void withoutIntervalsTheMeansDecide() {
    assertTrue(c(6.0, Double.NaN, Double.NaN).clearlyFasterThan(c(7.0, Double.NaN, Double.NaN)));
    assertFalse(c(7.0, Double.NaN, Double.NaN).clearlyFasterThan(c(6.0, Double.NaN, Double.NaN)));
  }

  @Test
  void theVerdictKeepsTheSingleDeviceUnlessTheSplitIsClearlyFaster() {
    Candidate cpu = candidate("CPU-only", true, 8.0, 7.9, 8.1);
    Candidate gpu = candidate("GPU.1-only", true, 7.0, 6.9, 7.1);
    Candidate close = candidate("step 3", false, 6.95, 6.8, 7.05);
    Candidate clear = candidate("step 9", false, 6.0, 5.9, 6.1);

    Verdict noise = Verdict.of(List.of(cpu, gpu, close));
    assertEquals(Decision.SPLIT_WITHIN_NOISE, noise.decision());
    assertSame(gpu, noise.winner());
    assertTrue(noise.text().contains("within the noise of GPU.1-only"), noise.text());

    Verdict split = Verdict.of(List.of(cpu, gpu, close, clear));
    assertEquals(Decision.SPLIT_WINS, split.decision());
    assertSame(clear, split.winner());

    Verdict single = Verdict.of(List.of(cpu, gpu, candidate("step 1", false, 9.0, 8.9, 9.1)));
    assertEquals(Decision.SINGLE_DEVICE_FASTEST, single.decision());
    assertSame(gpu, single.winner());

    // One round gives no interval: the verdict says the medians alone were compared, never "intervals do not overlap".
    Verdict oneRound = Verdict.of(List.of(candidate("CPU-only", true, 8.0, Double.NaN, Double.NaN),
        candidate("step 9", false, 6.0, Double.NaN, Double.NaN)));
    assertEquals(Decision.SPLIT_WINS, oneRound.decision());
    assertFalse(oneRound.text().contains("intervals do not overlap"), oneRound.text());
    assertTrue(oneRound.text().contains("one round, so no interval"), oneRound.text());
    assertTrue(split.text().contains("clearly faster than GPU.1-only"), split.text());

    Verdict none = Verdict.of(List.of(candidate("CPU-only", true, Double.NaN, Double.NaN, Double.NaN)));
    assertEquals(Decision.NOTHING_RAN, none.decision());
    assertNull(none.winner());
  }

  @Test
  void aNearTieGoesToTheCorrectedCostModelUnlessItIsLessSureThanTheRace() {
    DeviceSet two = DeviceSet.of("CPU", "GPU.1");
    Placement a = Placement.allOn(two, 2, "CPU");
    Placement b = Placement.allOn(two, 2, "GPU.1");
    Placement c = new Placement(two, new int[] {0, 1});
    Candidate leader = new Candidate("step 1", false, a, 1, 10.0, 10.0, 9.9, 10.1, List.of(10.0, 10.0, 10.0), 30, 1,
        null);
    Candidate rival = new Candidate("step 2", false, b, 2, 10.0, 10.02, 9.92, 10.12, List.of(10.0, 10.0, 10.0), 30, 1,
        null);
    Candidate slow = new Candidate("step 3", false, c, 3, 10.0, 10.5, 10.4, 10.6, List.of(10.0, 10.0, 10.0), 30, 1,
        null);
    List<Candidate> all = List.of(leader, rival, slow);
    java.util.function.ToDoubleFunction<Placement> model = p -> p.equals(a) ? 1000 : p.equals(b) ? 980 : 900;

    assertSame(leader, Verdict.of(all).winner(), "by medians alone");
    Verdict sure = Verdict.of(all, new Prediction(model, 0.001));
    assertSame(rival, sure.winner(), "within noise of the leader, and the model ranks it 2 % faster");
    assertTrue(sure.text().contains("within noise of step 1"), sure.text());
    // The race separates leader and rival (0.8 % apart, one standard error of the difference 0.3 %): a
    // model off by 50 % defers to it, although their intervals overlap.
    Candidate separated = new Candidate("step 2", false, b, 2, 10.0, 10.08, 10.03, 10.16, List.of(10.0, 10.0, 10.0),
        30, 1, null);
    Candidate tight = new Candidate("step 1", false, a, 1, 10.0, 10.0, 9.96, 10.05, List.of(10.0, 10.0, 10.0), 30, 1,
        null);
    assertSame(tight, Verdict.of(List.of(tight, separated, slow), new Prediction(model, 0.5)).winner(),
        "a model off by 50 % defers to a race that separates them");
    assertSame(leader, Verdict.of(List.of(leader, slow), new Prediction(model, 0.001)).winner(),
        "clearly slower in the race: the model cannot bring it back");
  }

  /**
   * A case seen in a tune: the race measured the optimum and a placement 1.3 % slower at the same median
   * (2.126 ms; 0.02 % apart, far below the race's resolution) and returned the slower one because the
   * leader's median was lower in the fourth digit and the corrected model's leave-one-out error (3 %)
   * outweighed the model's 1.3 % ranking. A difference the race cannot separate now goes to the model.
   */
  @Test
  void withATieBandEqualMediansGoToThePlacementTheModelRanksFirst() {
    DeviceSet two = DeviceSet.of("CPU", "GPU.1");
    Placement step5 = Placement.allOn(two, 2, "CPU");
    Placement step0 = new Placement(two, new int[] {0, 1});
    Candidate five = new Candidate("step 5", false, step5, 5, 2.13, 2.1258, 2.117, 2.140,
        List.of(2.1258, 2.1258, 2.1258), 50, 3, null);
    Candidate zero = new Candidate("step 0", false, step0, 0, 2.12, 2.1262, 2.117, 2.139,
        List.of(2.1262, 2.1262, 2.1262), 50, 3, null);
    java.util.function.ToDoubleFunction<Placement> model = p -> p.equals(step0) ? 2108 : 2135;

    Verdict v = Verdict.of(List.of(five, zero), new Prediction(model, 0.03), 0.5);
    assertSame(zero, v.winner(), v.text());
    assertSame(five, Verdict.of(List.of(five, zero), new Prediction(model, 0.03), 0).winner(),
        "without a band the lower median counts as evidence");
    assertTrue(v.text().contains("within noise of step 5"), v.text());
    assertSame(five, Verdict.of(List.of(five, zero)).winner(), "by medians alone the lower median still wins");
    assertSame(five, Verdict.of(List.of(zero, five), new Prediction(p -> p.equals(step0) ? 2140 : 2135, 0.03), 0.5)
        .winner(), "the model ranks the leader first: it stays");
  }

  /**
   * The same case, as the final choice makes it by default: two finalists whose race medians are
   * equal to the race's resolution (2.126 ms both, overlapping intervals) and a corrected model that
   * ranks one 1.3 % faster, with a leave-one-out error (3 %) larger than that. The race cannot
   * separate them, so the model's first goes on; a race that does separate them keeps its leader.
   */
  @Test
  void byDefaultMediansTheRaceCannotSeparateGoToTheModelsFirst() {
    DeviceSet two = DeviceSet.of("CPU", "GPU.1");
    Placement step5 = Placement.allOn(two, 2, "CPU");
    Placement step0 = new Placement(two, new int[] {0, 1});
    Candidate five = new Candidate("step 5", false, step5, 5, 2.13, 2.1258, 2.117, 2.140,
        List.of(2.1258, 2.1262, 2.1250, 2.1301, 2.1240), 50, 3, null);
    Candidate zero = new Candidate("step 0", false, step0, 0, 2.12, 2.1262, 2.117, 2.139,
        List.of(2.1262, 2.1255, 2.1270, 2.1190, 2.1302), 50, 3, null);
    java.util.function.ToDoubleFunction<Placement> model = p -> p.equals(step0) ? 2108 : 2135;

    Verdict v = Verdict.of(List.of(five, zero), new Prediction(model, 0.03));
    assertSame(zero, v.winner(), v.text());
    assertEquals(Decision.SPLIT_WINS, v.decision());
    assertTrue(v.text().contains("within noise of step 5's 2.126 ms"), v.text());
    // The same model against a race that puts step 5 0.9 % ahead (about 3 standard errors of the difference).
    Candidate ahead = new Candidate("step 5", false, step5, 5, 2.13, 2.1070, 2.100, 2.118,
        List.of(2.1070, 2.1050, 2.1100, 2.1080, 2.1060), 50, 3, null);
    assertSame(ahead, Verdict.of(List.of(ahead, zero), new Prediction(model, 0.03)).winner(),
        "a difference the race resolves stays the race's");
  }

  @Test
  void aDifferenceWithinTheResolutionCountsAsNone() {
    assertEquals(0, Verdict.beyondResolution(0.002, 0.005), 0);
    assertEquals(0, Verdict.beyondResolution(-0.002, 0.005), 0);
    assertEquals(0.003, Verdict.beyondResolution(0.008, 0.005), 1e-12);
    assertEquals(-0.003, Verdict.beyondResolution(-0.008, 0.005), 1e-12);
  }
}
