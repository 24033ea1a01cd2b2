package org.hsdag.bench.real;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SpreadTest {
  @Test
  void medianAndRangeOfOddAndEvenCounts() {
    assertEquals(new Spread(2, 1, 9, 3), Spread.of(new double[] {9, 1, 2}));
    assertEquals(2.5, Spread.of(new double[] {4, 1, 2, 3}).median(), 1e-12);
    assertEquals("2.00 [1.00–9.00]", Spread.of(new double[] {9, 1, 2}).format(2));
    assertThrows(IllegalArgumentException.class, () -> Spread.of(new double[0]));
  }
}
