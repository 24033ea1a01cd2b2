package org.hsdag.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class PaperNumbersTest {
  @Test
  void methodsMapToThePapersRowsAndOurExtraBaselinesToNone() {
    assertEquals("GPU-only", PaperNumbers.row("gpu1"));
    assertEquals("w/o node ID", PaperNumbers.row("hsdag-no-id"));
    assertNull(PaperNumbers.row("brkga"));
    assertEquals(7.81, PaperNumbers.latencyMillis(PaperNumbers.row("gpu1"), "resnet50"), 1e-9);
    assertNull(PaperNumbers.latencyMillis(PaperNumbers.row("greedy"), "resnet50"));
  }
}
