package org.hsdag.throughput;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.cost.HeteroCostModelBuilder;
import org.hsdag.cost.HeteroDevice;
import org.junit.jupiter.api.Test;

/** The throughput model on a two-stage chain computed by hand. */
class PipelineThroughputTest {
  /**
   * input -> a -> b -> output. CPU: free link, 100 µs per sub-model; GPU: 10 µs + 0.1 µs/byte per
   * copy (110 µs for the 1000-byte tensors), 200 µs per sub-model; 50 µs per request.
   */
  private static HeteroCostModel chain() {
    HeteroCostModelBuilder b = HeteroCostModel.builder(List.of(new HeteroDevice("CPU", 0, 0, 100),
        new HeteroDevice("GPU", 10, 0.1, 200)), 50);
    int a = b.op(0, new double[] {3000, 9000});
    int c = b.op(1, new double[] {8000, 5000}, a);
    b.tensor(-1, 1000, 0, a);
    b.tensor(a, 1000, 0, c);
    b.tensor(c, 1000, 1);
    return b.build();
  }

  @Test
  void splitChainIsTwoStagesWithTheirCopies() {
    PipelineStages s = PipelineStages.of(chain(), new int[] {0, 1});
    // CPU stage: kernel 3000 + start 100 (its copies cross a free link); GPU stage: 5000 + 200 + copy in 110 + copy out 110.
    assertArrayEquals(new int[] {0, 1}, s.device());
    assertArrayEquals(new double[] {3100, 5420}, s.micros(), 1e-9);
    assertEquals(8570, s.latencyMicros(), 1e-9);
    assertEquals(chain().evaluate(new int[] {0, 1}).micros(), s.latencyMicros(), 1e-9);
  }

  @Test
  void oneRequestInFlightRunsAtItsLatency() {
    PipelineStages s = PipelineStages.of(chain(), new int[] {0, 1});
    assertEquals(8570, PipelineThroughput.simulatedPeriodMicros(s, 1), 1e-6);
    assertEquals(8570, PipelineThroughput.boundMicros(s, 2, 1), 1e-9);
  }

  @Test
  void twoRequestsInFlightAreBoundedByTheSlowestStage() {
    PipelineStages s = PipelineStages.of(chain(), new int[] {0, 1});
    // The GPU stage (5420 µs) is busy back to back; the CPU stage and the request overhead hide behind it.
    assertEquals(5420, PipelineThroughput.simulatedPeriodMicros(s, 2), 1e-6);
    assertEquals(5420, PipelineThroughput.simulatedPeriodMicros(s, 3), 1e-6);
    assertEquals(5420, PipelineThroughput.boundMicros(s, 2, 2), 1e-9);
    assertEquals(1e6 / 5420, PipelineThroughput.perSecond(5420), 1e-9);
  }

  @Test
  void singleDeviceGainsOnlyTheRequestOverhead() {
    // All on the GPU: one stage of 9000 + 5000 + 200 + 110 (input in) + 110 (output out) = 14420 µs; the 50 µs request overhead overlaps it.
    PipelineStages s = PipelineStages.of(chain(), new int[] {1, 1});
    assertArrayEquals(new double[] {14420}, s.micros(), 1e-9);
    assertEquals(14470, PipelineThroughput.simulatedPeriodMicros(s, 1), 1e-6);
    assertEquals(14420, PipelineThroughput.simulatedPeriodMicros(s, 2), 1e-6);
  }

  @Test
  void deviceVisitedTwiceCarriesBothStages() {
    HeteroCostModelBuilder b = HeteroCostModel.builder(List.of(new HeteroDevice("CPU", 0, 0, 0),
        new HeteroDevice("GPU", 0, 0, 0)), 0);
    int x = b.op(0, new double[] {1000, 1000});
    int y = b.op(1, new double[] {1000, 1000}, x);
    int z = b.op(2, new double[] {1000, 1000}, y);
    b.tensor(x, 4, 0, y);
    b.tensor(y, 4, 0, z);
    b.tensor(z, 4, 1);
    PipelineStages s = PipelineStages.of(b.build(), new int[] {0, 1, 0});
    assertArrayEquals(new double[] {2000, 1000}, s.deviceLoads(2), 1e-9);
    // CPU works 2000 µs per inference: no schedule does better than that.
    assertEquals(2000, PipelineThroughput.boundMicros(s, 2, 4), 1e-9);
    assertTrue(PipelineThroughput.simulatedPeriodMicros(s, 4) >= 2000 - 1e-6);
  }

  @Test
  void refusesNoRequests() {
    PipelineStages s = PipelineStages.of(chain(), new int[] {0, 1});
    assertThrows(IllegalArgumentException.class, () -> PipelineThroughput.simulatedPeriodMicros(s, 0));
  }

  @Test
  void objectiveParsesItsTwoNames() {
    assertEquals(Objective.THROUGHPUT, Objective.parse(" Throughput"));
    assertEquals(Objective.LATENCY, Objective.parse("latency"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Objective.parse("speed"));
    assertEquals("--objective 'speed' is not one of latency, throughput", e.getMessage());
  }

  @Test
  void aTestDeviceSharesTheCpusCoresSoASplitAcrossThemDoesNotPipeline() {
    HeteroCostModelBuilder b = HeteroCostModel.builder(List.of(new HeteroDevice("CPU", 0, 0, 100),
        new HeteroDevice("CPU2", 0, 0, 100)), 50);
    int a = b.op(0, new double[] {3000, 9000});
    int c = b.op(1, new double[] {8000, 5000}, a);
    b.tensor(-1, 1000, 0, a);
    b.tensor(a, 1000, 0, c);
    b.tensor(c, 1000, 1);
    PipelineStages s = PipelineStages.of(b.build(), new int[] {0, 1});
    // Both stages queue on the CPU: 3100 + 5100 µs of one server per inference, whatever the requests in flight.
    assertArrayEquals(new int[] {0, 0}, s.device());
    assertEquals(8200, PipelineThroughput.simulatedPeriodMicros(s, 3), 1e-6);
    assertArrayEquals(new int[] {0, 1, 0, 0}, PipelineStages.servers(List.of("CPU", "GPU.0", "CPU2", "CPU_TWIN")));
    assertArrayEquals(new int[] {0, 1}, PipelineStages.servers(List.of("CPU2", "GPU.1")), "no CPU: no sharing");
  }
}
