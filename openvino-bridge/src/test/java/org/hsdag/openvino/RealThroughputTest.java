package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.hsdag.backend.KeyedMeasurement;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.LoadPolicy;
import org.hsdag.backend.LoadWatchingBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.Statistic;
import org.hsdag.backend.TestDevice;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.RealOpenVino;
import org.hsdag.throughput.ThroughputBackend;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Throughput measured on the real runtime: two asynchronous infer requests in flight on a small
 * model, on one device and on a CPU/CPU2 split, through the same decorators a real tune uses.
 * Asserts what was measured, never how fast.
 */
@Tag("openvino")
class RealThroughputTest {
  /** One warm-up round and 4 timed rounds of 2 completions each: a few ms on the self-test model. */
  private static final MeasurementProtocol ROUNDS = new MeasurementProtocol(1, 4, Statistic.MEDIAN, 1, 0);

  @TempDir
  Path dir;
  private OpGraph graph;
  private Path xml;

  @BeforeEach
  void model() throws Exception {
    RealOpenVino.require();
    xml = SelfTestModel.write(dir);
    graph = new IrReader().read(xml);
  }

  @Test
  void twoRequestsInFlightOnOneDeviceGiveOneTimePerInferencePerRound() {
    try (OpenVinoBackend b = OpenVinoBackend.open(OpenVinoOptions.DEFAULT).bind(graph, xml)) {
      LatencyBackend watched = LoadWatchingBackend.wrap(b, LoadPolicy.DEFAULT);
      ThroughputBackend throughput = ThroughputBackend.wrap(watched, 2);
      assertTrue(throughput.measuredOnRuntime());
      assertFalse(throughput.simulated(), "a runtime's throughput is real");
      assertTrue(throughput.capability(KeyedMeasurement.class).isEmpty(), "no keyed noise on a runtime");
      Measurement m = throughput.measure(graph, Placement.allOn(DeviceSet.of("CPU"), graph.nodeCount(), "CPU"), ROUNDS);
      assertTrue(m.ok(), m.reason());
      assertEquals("openvino", m.backend());
      assertEquals(4, m.samplesMillis().length, "one sample per round of 2 completions");
      for (double s : m.samplesMillis()) {
        assertTrue(s > 0 && Double.isFinite(s), "a time per inference: " + s);
      }
      assertTrue(m.load() != null, "watched for load like a latency measurement");
      assertEquals(1, m.subModels());
    }
  }

  @Test
  void aSplitAcrossCpuAndItsTwinRunsWithTwoRequestsInFlight() {
    OpenVinoOptions options = new OpenVinoOptions(null, null, 0L, java.util.Map.of(),
        List.of(new TestDevice("CPU2", 1, "f32")));
    try (OpenVinoBackend b = OpenVinoBackend.open(options).bind(graph, xml)) {
      Placement split = SelfTestModel.mixedPlacement(graph, "CPU", "CPU2");
      Measurement m = b.measureThroughput(graph, split, ROUNDS, 2);
      assertTrue(m.ok(), m.reason());
      assertEquals(2, m.subModels(), "one HETERO sub-model per device");
      assertEquals(4, m.samplesMillis().length);
      Measurement missing = b.measureThroughput(graph, SelfTestModel.mixedPlacement(graph, "CPU", "CPU9"), ROUNDS, 2);
      assertFalse(missing.ok());
      assertTrue(missing.reason().contains("CPU9 is not available"), missing.reason());
    }
  }

  @Test
  void aThroughputMeasurementPastItsDeadlineFailsNamingTheStageItReached() {
    // 1 ms: the model's compile alone takes longer, so the limit is always passed, in one of the stages.
    try (OpenVinoBackend b = OpenVinoBackend.open(OpenVinoOptions.DEFAULT.withTimeout(java.time.Duration.ofMillis(1)))
        .bind(graph, xml)) {
      Measurement m = b.measureThroughput(graph, Placement.allOn(DeviceSet.of("CPU"), graph.nodeCount(), "CPU"),
          ROUNDS, 2);
      assertFalse(m.ok());
      // The runtime child was ended at the deadline, in whichever stage the measurement had reached.
      assertTrue(m.reason().matches("no answer in 1 ms \\(the runtime was ended\\) while (reading the model|compiling"
          + "|inferring)"), m.reason());
    }
  }
}
