package org.hsdag.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Every reported statistic lies inside its own interval, and the intervals cover what they claim. */
class ConfidenceIntervalTest {
  /** Latency-like samples: a floor plus a long right tail, the shape that split median and mean. */
  private static double[] skewed(SplittableRandom rnd, int n) {
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = 25.0 + Math.exp(rnd.nextGaussian() * 1.2 - 1.5);
    }
    return x;
  }

  @Test
  void theProtocolsStatisticLiesInsideItsInterval() {
    SplittableRandom rnd = new SplittableRandom(11);
    MeasurementProtocol[] protocols = {
        MeasurementProtocol.PAPER,
        new MeasurementProtocol(2, 20, Statistic.MEDIAN, 1, 0.0),
        new MeasurementProtocol(2, 7, Statistic.MEDIAN, 1, 0.0),
        new MeasurementProtocol(0, 20, Statistic.TRIMMED_MEAN, 1, 0.2),
    };
    for (MeasurementProtocol p : protocols) {
      for (int trial = 0; trial < 500; trial++) {
        double[] x = skewed(rnd, p.runs());
        double point = p.reduce(x);
        double[] ci = p.interval(x);
        assertTrue(ci[0] <= point && point <= ci[1],
            p.describe() + ": " + point + " outside [" + ci[0] + ", " + ci[1] + "]");
      }
    }
  }

  @Test
  void medianIntervalUsesTheBinomialOrderStatistics() {
    double[] ten = {10, 1, 9, 2, 8, 3, 7, 4, 6, 5};
    // n = 10: P(B <= 1) = 11/1024 <= 0.025 < P(B <= 2) = 56/1024, so [x(2), x(9)].
    assertArrayEquals(new double[] {2, 9}, ConfidenceInterval.ofMedian(ten, 0.95));
    // Below six samples no pair reaches 95%: the range.
    assertArrayEquals(new double[] {1, 5}, ConfidenceInterval.ofMedian(new double[] {3, 5, 1, 4, 2}, 0.95));
  }

  @Test
  void medianIntervalCoversTheTrueMedianAtLeastAsOftenAsClaimed() {
    SplittableRandom rnd = new SplittableRandom(3);
    double trueMedian = 25.0 + Math.exp(-1.5);
    int covered = 0;
    int trials = 4000;
    for (int t = 0; t < trials; t++) {
      double[] ci = ConfidenceInterval.ofMedian(skewed(rnd, 20), 0.95);
      covered += ci[0] <= trueMedian && trueMedian <= ci[1] ? 1 : 0;
    }
    // n = 20 guarantees 1 - 2 P(B <= 5) = 0.9586; allow sampling error of the 4000 trials.
    assertTrue(covered >= 0.95 * trials, covered + " of " + trials);
  }
}
