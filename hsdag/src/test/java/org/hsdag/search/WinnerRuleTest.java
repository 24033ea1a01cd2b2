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
    return new Candidate(label, baseline, P, baseline ? -1 : 1, ms, ms, lo, hi, new double[] {ms, ms, ms, ms, ms}, 50, 1,
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

    Verdict none = Verdict.of(List.of(candidate("CPU-only", true, Double.NaN, Double.NaN, Double.NaN)));
    assertEquals(Decision.NOTHING_RAN, none.decision());
    assertNull(none.winner());
  }
}
