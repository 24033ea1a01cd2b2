package org.hsdag.throughput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

/** The simulator measuring throughput: its samples are the time per inference, and only the simulator does it. */
class ThroughputBackendTest {
  private final OpGraph graph = TinyGraphs.randomDag(60, 256, 3);
  private final DeviceSet devices = DeviceSet.of("CPU", "GPU.1");

  private Placement alternating() {
    int[] d = new int[graph.nodeCount()];
    for (int v = 0; v < d.length; v++) {
      d[v] = (v / 10) % 2;
    }
    return new Placement(devices, d);
  }

  @Test
  void noiseFreeSamplesAreTheTimePerInferenceAndTheLatencyIsTheSimulators() {
    SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());
    ThroughputBackend tb = ThroughputBackend.wrap(sim, 0);
    Placement p = alternating();
    ObjectiveFigures f = tb.figures(graph, p);
    assertEquals(3, f.requests(), "default: the devices + 1");
    assertEquals(sim.latencyMillis(graph, p), f.latencyMillis(), 1e-12);
    assertTrue(f.periodMillis() <= f.latencyMillis() + 1e-12);
    Measurement m = tb.measure(graph, p, MeasurementProtocol.PAPER, 7L);
    assertTrue(m.ok());
    assertEquals(f.periodMillis(), m.latencyMillis(), 1e-12);
    assertEquals("sim", m.backend());
    assertEquals("paper", m.profile());
    assertEquals(5, ThroughputBackend.wrap(sim, 5).figures(graph, p).requests());
  }

  @Test
  void keyedNoiseRepeatsForAKey() {
    ThroughputBackend tb = ThroughputBackend.wrap(new SimBackend(DeviceProfile.load("paper"), SimOptions.DEFAULT), 0);
    Measurement a = tb.measure(graph, alternating(), MeasurementProtocol.PAPER, 11L);
    Measurement b = tb.measure(graph, alternating(), MeasurementProtocol.PAPER, 11L);
    assertEquals(a.latencyMillis(), b.latencyMillis());
  }

  @Test
  void aPlacementOnAnUnknownDeviceFailsAsTheSimulatorSays() {
    SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact());
    DeviceSet withNpu = DeviceSet.of("CPU", "NPU");
    Placement p = Placement.allOn(withNpu, graph.nodeCount(), "NPU");
    Measurement m = ThroughputBackend.wrap(sim, 0).measure(graph, p, MeasurementProtocol.PAPER, 1L);
    assertFalse(m.ok());
    assertEquals(sim.measure(graph, p, MeasurementProtocol.PAPER, 1L).reason(), m.reason());
  }

  @Test
  void anyOtherBackendIsRefusedInOneSentence() {
    LatencyBackend real = new LatencyBackend() {
      @Override
      public String name() {
        return "openvino";
      }

      @Override
      public String profile() {
        return "this machine";
      }

      @Override
      public boolean simulated() {
        return false;
      }

      @Override
      public List<DeviceInfo> devices() {
        return List.of();
      }

      @Override
      public SupportMatrix supports(OpGraph g, DeviceSet d) {
        throw new UnsupportedOperationException();
      }

      @Override
      public Measurement measure(OpGraph g, Placement p, MeasurementProtocol protocol) {
        throw new UnsupportedOperationException();
      }
    };
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
        () -> ThroughputBackend.wrap(real, 0));
    assertTrue(e.getMessage().contains("cannot measure throughput"), e.getMessage());
  }
}
