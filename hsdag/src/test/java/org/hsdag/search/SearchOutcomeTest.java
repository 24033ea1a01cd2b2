package org.hsdag.search;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.junit.jupiter.api.Test;

class SearchOutcomeTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  private static Measurement ms(double v) {
    return Measurement.of(new double[] {v, v, v, v, v, v, v, v, v, v}, MeasurementProtocol.PAPER, 1, "fake", "test");
  }

  @Test
  void aPlacementTheMemoryModelRefusedAddsNoPointToTheCurve() {
    Placement a = Placement.allOn(DEVICES, 2, "CPU");
    Placement b = Placement.allOn(DEVICES, 2, "GPU.1");
    List<SearchStep> steps = List.of(
        new SearchStep(0, b, Measurement.failed(MemoryCheck.REJECTED + "out of memory on GPU.1", "fake", "test"),
            false),
        new SearchStep(1, a, ms(5), false),
        new SearchStep(2, a, ms(5), true),
        new SearchStep(3, b, Measurement.failed("compile error", "fake", "test"), false));
    SearchOutcome o = new SearchOutcome(StopReason.BUDGET_SPENT, "", steps, 2, 1, 1, true);
    assertArrayEquals(new double[] {5, 5}, o.bestSoFarPerMeasurement());
  }
}
