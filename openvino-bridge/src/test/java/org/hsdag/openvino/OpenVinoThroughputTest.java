package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.MemoryCappedBackend;
import org.hsdag.backend.ThroughputMeasurement;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.MemoryLimits;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.throughput.ThroughputBackend;
import org.junit.jupiter.api.Test;

/** The openvino backend's throughput path over {@link ScriptedRuntime} (no OpenVINO involved). */
class OpenVinoThroughputTest {
  private final OpGraph graph = SelfTestModel.graph();
  private final Path xml = Path.of("selftest.xml");

  @Test
  void throughputCompilesWithTheHintAndKeepsTheRequestsInFlight() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "GPU.1");
    try (OpenVinoBackend b = new OpenVinoBackend(rt, OpenVinoOptions.DEFAULT.withSeed(7)).bind(graph, xml)) {
      ThroughputBackend t = ThroughputBackend.wrap(b, 0);
      assertTrue(t.measuredOnRuntime());
      assertFalse(t.simulated());
      Measurement m = t.measure(graph, SelfTestModel.mixedPlacement(graph, "CPU", "GPU.1"), MeasurementProtocol.PAPER);
      assertTrue(m.ok(), m.reason());
      assertEquals(10, m.samplesMillis().length);
      // Requests asked for 0: the devices + 1.
      assertTrue(rt.calls.contains("compile throughput HETERO:CPU,GPU.1 3"), rt.calls.toString());
      assertTrue(rt.calls.contains("fill 7"), rt.calls.toString());
      assertTrue(rt.calls.contains("infer 3 in flight 0+10"), rt.calls.toString());
      assertTrue(rt.calls.contains("close compiled"), "compiled models are released");
      assertTrue(t.figures(graph, Placement.allOn(DeviceSet.of("CPU"), graph.nodeCount(), "CPU")) == null,
          "no noise-free figures on a runtime");
    }
  }

  @Test
  void aFailedCompileIsAFailedMeasurement() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "GPU.1");
    rt.compileError = "refused";
    try (OpenVinoBackend b = new OpenVinoBackend(rt, OpenVinoOptions.DEFAULT).bind(graph, xml)) {
      Measurement m = b.measureThroughput(graph, Placement.allOn(DeviceSet.of("CPU"), graph.nodeCount(), "CPU"),
          MeasurementProtocol.PAPER, 2);
      assertFalse(m.ok());
      assertTrue(m.reason().contains("refused"), m.reason());
    }
  }

  @Test
  void theUsersMemoryCapRefusesAThroughputMeasurementWithoutRunningIt() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "GPU.1");
    try (OpenVinoBackend b = new OpenVinoBackend(rt, OpenVinoOptions.DEFAULT).bind(graph, xml)) {
      LatencyBackend capped = new MemoryCappedBackend(b, MemoryLimits.parse("GPU.1=1KiB"));
      assertTrue(capped.capability(ThroughputMeasurement.class).isPresent());
      Measurement m = ThroughputBackend.wrap(capped, 2)
          .measure(graph, Placement.allOn(DeviceSet.of("CPU", "GPU.1"), graph.nodeCount(), "GPU.1"),
              MeasurementProtocol.PAPER);
      assertFalse(m.ok());
      assertFalse(rt.calls.stream().anyMatch(c -> c.startsWith("compile throughput")), rt.calls.toString());
    }
  }
}
