package org.hsdag.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.DeviceMemorySource;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryLimits;
import org.hsdag.openvino.SelfTestModel;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.FakeBackend;
import org.junit.jupiter.api.Test;

/** The user's capacities on a backend that knows none of its own (the openvino backend on a CPU). */
class MemoryCappedBackendTest {
  private final OpGraph graph = SelfTestModel.graph();
  private final DeviceSet devices = DeviceSet.of("CPU", "GPU.1");

  @Test
  void aPlacementOverTheUsersCapacityIsRefusedWithoutRunningAndOneWithinRuns() {
    FakeBackend fake = FakeBackend.cpuGpu();
    MemoryCappedBackend capped = new MemoryCappedBackend(fake, MemoryLimits.parse("GPU.1=1KiB"));
    Placement onGpu = Placement.allOn(devices, graph.nodeCount(), "GPU.1");
    Measurement refused = capped.measure(graph, onGpu, MeasurementProtocol.PAPER);
    assertFalse(refused.ok());
    assertTrue(refused.reason().startsWith(MemoryCheck.REJECTED + MemoryCheck.OUT_OF_MEMORY + "GPU.1"),
        refused.reason());
    assertTrue(refused.reason().contains("over (capacities: --memory {GPU.1=1.00 KiB})"), refused.reason());
    assertEquals(0, fake.calls(), "nothing ran");
    assertTrue(
        capped.measure(graph, Placement.allOn(devices, graph.nodeCount(), "CPU"), MeasurementProtocol.PAPER).ok());
    assertEquals(1, fake.calls());
  }

  @Test
  void itIsTheMemoryCapabilityAndForwardsTheRest() {
    MemoryCappedBackend capped = new MemoryCappedBackend(FakeBackend.cpuGpu(), MemoryLimits.parse("GPU.1=2GiB"));
    DeviceMemorySource source = capped.capability(DeviceMemorySource.class).orElseThrow();
    assertEquals(new MemoryLimits(Map.of("GPU.1", 2L << 30)), source.capacities());
    assertEquals(Long.MAX_VALUE, source.memoryCheck(graph, devices, MemoryLimits.NONE).capacity(0));
    assertEquals(1L << 30, source.memoryCheck(graph, devices, MemoryLimits.parse("GPU.1=1GiB")).capacity(1));
    assertEquals(FakeBackend.cpuGpu().capability(DeviceTimeBreakdown.class).isPresent(),
        capped.capability(DeviceTimeBreakdown.class).isPresent());
  }

  @Test
  void aDeviceTheBackendDoesNotHaveIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new MemoryCappedBackend(FakeBackend.cpuGpu(), MemoryLimits.parse("NPU=1GiB")));
    assertTrue(e.getMessage().contains("--memory names NPU"), e.getMessage());
  }
}
