package org.hsdag.throughput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.HeteroCostModelBuilder;
import org.hsdag.cost.HeteroDevice;
import org.hsdag.cost.ThroughputGain;
import org.junit.jupiter.api.Test;

/** A device's measured gain from requests in flight: its fit, and its use for unsplit placements only. */
class StreamsGainTest {
  /** CPU with streams (x1.8 at 2, x2 from 3 on), CPU2 a twin without (x1, x1); a -> c on both, 50 µs per request. */
  private static HeteroCostModel twins() {
    HeteroCostModelBuilder b = HeteroCostModel.builder(
        List.of(new HeteroDevice("CPU", 0, 0, 100, 1.0, List.of(1.0, 1.8, 2.0)),
            new HeteroDevice("CPU2", 0, 0, 100, 1.0, List.of(1.0, 1.0))),
        50);
    int a = b.op(0, new double[] {3000, 9000});
    int c = b.op(1, new double[] {8000, 5000}, a);
    b.tensor(-1, 1000, 0, a);
    b.tensor(a, 1000, 0, c);
    b.tensor(c, 1000, 1);
    return b.build();
  }

  @Test
  void theGainIsTheFirstPeriodOverEachAndHoldsBeyondTheCurve() {
    List<Double> g = ThroughputGain.fit(List.of(100.0, 55.0, 40.0, 40.0));
    assertEquals(List.of(1.0, 1.818, 2.5, 2.5), g);
    assertEquals(1.0, ThroughputGain.at(g, 1));
    assertEquals(2.5, ThroughputGain.at(g, 3));
    assertEquals(2.5, ThroughputGain.at(g, 9), "no more gain than measured");
    assertEquals(1.0, ThroughputGain.at(List.of(), 4), "no curve: one request at a time");
    assertThrows(IllegalArgumentException.class, () -> ThroughputGain.fit(List.of(10.0, 0.0)));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ThroughputGain.checked("CPU", List.of(1.2, 2.0)));
    assertTrue(e.getMessage().startsWith("device CPU: throughputGain starts with 1"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ThroughputGain.checked("CPU", List.of(1.0, -2.0)));
  }

  @Test
  void anUnsplitPlacementRunsAtItsLatencyOverItsDevicesGain() {
    HeteroCostModel m = twins();
    PipelineStages cpu = PipelineStages.of(m, new int[] {0, 0});
    // One sub-model: kernels 11000 + start 100, plus 50 per request = 11150 µs of latency.
    assertEquals(List.of(1.0, 1.8, 2.0), cpu.gain());
    assertEquals(11150, PipelineThroughput.simulatedPeriodMicros(cpu, 1), 1e-9);
    assertEquals(11150 / 1.8, PipelineThroughput.simulatedPeriodMicros(cpu, 2), 1e-9);
    assertEquals(11150 / 2.0, PipelineThroughput.simulatedPeriodMicros(cpu, 3), 1e-9);
    assertEquals(11150 / 2.0, PipelineThroughput.boundMicros(cpu, 2, 5), 1e-9);
    // CPU2 alone queues on the CPU's server but compiles alone with its own (flat) curve.
    PipelineStages cpu2 = PipelineStages.of(m, new int[] {1, 1});
    assertEquals(List.of(1.0, 1.0), cpu2.gain());
    assertEquals(cpu2.latencyMicros(), PipelineThroughput.simulatedPeriodMicros(cpu2, 3), 1e-9);
    assertEquals(ObjectiveFigures.of(m, new int[] {0, 0}, 2).periodMillis(), 11.150 / 1.8, 1e-9);
  }

  @Test
  void aSplitHasNoStreamsWhateverItsDevicesGain() {
    PipelineStages split = PipelineStages.of(twins(), new int[] {0, 1});
    assertEquals(List.of(), split.gain(), "HETERO's sub-models share one exclusive queue");
    // Both stages on the CPU's one server: 3100 + 5100 µs per inference, as without any curve.
    assertEquals(8200, PipelineThroughput.simulatedPeriodMicros(split, 3), 1e-6);
  }

  @Test
  void aGainNeverBeatsTheRequestsInFlightAndNeedsOneStage() {
    PipelineStages s = new PipelineStages(new int[] {0}, new double[] {1000}, 0, List.of(1.0, 3.0));
    assertEquals(500, PipelineThroughput.simulatedPeriodMicros(s, 2), 1e-9, "at most N times one request");
    assertThrows(IllegalArgumentException.class,
        () -> new PipelineStages(new int[] {0, 1}, new double[] {1, 1}, 0, List.of(1.0, 2.0)));
  }

  @Test
  void latencyCostsKeepTheGainAFitDoesNotMeasure() {
    HeteroCostModel m = twins();
    HeteroCostModel refit = m.withDeviceCosts(List.of(new HeteroDevice("CPU", 1, 0, 90),
        new HeteroDevice("CPU2", 1, 0, 90)), 40);
    assertEquals(List.of(1.0, 1.8, 2.0), refit.device(0).throughputGain());
    assertEquals(List.of(1.0, 1.8, 2.0), m.rescaled(new double[] {1, 1, 1, 1}, new double[] {2, 2},
        new double[] {1, 1}).device(0).throughputGain());
  }
}
