package org.hsdag.tune;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.junit.jupiter.api.Test;
import org.hsdag.search.Candidate;

/** A split placement replaces the fastest single device only when it is clearly faster. */
class WinnerRuleTest {
  private static final Placement P = Placement.allOn(DeviceSet.of("CPU"), 1, "CPU");

  private static Candidate c(double ms, double lo, double hi) {
    return new Candidate("x", false, P, 1, ms, ms, lo, hi, 5, 50, 1, null);
  }

  @Test
  void overlappingIntervalsAreNotClearlyFaster() {
    assertFalse(Tuner.clearlyFaster(c(7.89, 7.80, 7.93), c(7.90, 7.76, 7.96)));
  }

  @Test
  void disjointIntervalsAre() {
    assertTrue(Tuner.clearlyFaster(c(6.0, 5.9, 6.1), c(7.9, 7.8, 8.0)));
    assertFalse(Tuner.clearlyFaster(c(7.9, 7.8, 8.0), c(6.0, 5.9, 6.1)));
  }

  @Test
  void withoutIntervalsTheMeansDecide() {
    assertTrue(Tuner.clearlyFaster(c(6.0, Double.NaN, Double.NaN), c(7.0, Double.NaN, Double.NaN)));
    assertFalse(Tuner.clearlyFaster(c(7.0, Double.NaN, Double.NaN), c(6.0, Double.NaN, Double.NaN)));
  }
}
