package org.hsdag.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RankCorrelationTest {
  @Test
  void anyIncreasingRelationIsOneAndDecreasingMinusOne() {
    double[] x = {1, 2, 3, 4, 5};
    assertEquals(1.0, RankCorrelation.spearman(x, new double[] {1, 4, 9, 16, 1000}), 1e-12);
    assertEquals(-1.0, RankCorrelation.spearman(x, new double[] {5, 3, 2, 1, 0}), 1e-12);
  }

  @Test
  void matchesTheTextbookFormulaWithoutTies() {
    // rho = 1 - 6 sum d^2 / (n (n^2 - 1)); ranks of y: 2,1,4,3,5 -> sum d^2 = 4 -> 1 - 24/120 = 0.8
    assertEquals(0.8, RankCorrelation.spearman(new double[] {10, 20, 30, 40, 50}, new double[] {2, 1, 4, 3, 5}), 1e-12);
  }

  @Test
  void tiesShareTheirAverageRank() {
    assertArrayEquals(new double[] {1, 2.5, 2.5, 4}, RankCorrelation.ranks(new double[] {1, 7, 7, 9}), 1e-12);
    double rho = RankCorrelation.spearman(new double[] {1, 2, 3, 4}, new double[] {1, 7, 7, 9});
    assertTrue(rho > 0.9 && rho < 1, "ties lower it below 1: " + rho);
  }

  @Test
  void constantInputHasNoRankingAndMismatchedLengthsAreRefused() {
    assertTrue(Double.isNaN(RankCorrelation.spearman(new double[] {1, 2, 3}, new double[] {5, 5, 5})));
    assertThrows(IllegalArgumentException.class,
        () -> RankCorrelation.spearman(new double[] {1, 2}, new double[] {1, 2, 3}));
  }
}
