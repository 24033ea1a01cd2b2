package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.OptionalLong;
import org.hsdag.ir.OpGraph;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.memory.MemoryLimits;
import org.hsdag.placement.DeviceSet;
import org.junit.jupiter.api.Test;

/** Which capacity the openvino backend checks placements against: reported, given by the user, or none. */
class DeviceMemoryReportTest {
  private static final long GIB = 1L << 30;
  private final OpGraph graph = SelfTestModel.graph();
  private final DeviceSet devices = DeviceSet.of("CPU", "GPU.0", "GPU.1");

  private ScriptedRuntime runtime() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "GPU.0", "GPU.1");
    rt.properties.put("GPU.0 " + DeviceMemoryReport.GPU_TOTAL, 32 * GIB);
    rt.properties.put("GPU.0 " + DeviceMemoryReport.AVAILABLE, 12 * GIB);
    rt.properties.put("GPU.1 " + DeviceMemoryReport.GPU_TOTAL, 16 * GIB);
    return rt;
  }

  @Test
  void theAvailableMemoryWinsOverTheTotalAndADeviceReportingNothingIsNotLimited() {
    try (OpenVinoBackend b = new OpenVinoBackend(runtime(), OpenVinoOptions.DEFAULT)) {
      MemoryCheck check = b.memoryCheck(graph, devices, MemoryLimits.NONE);
      assertEquals(Long.MAX_VALUE, check.capacity(0), "CPU reports no memory");
      assertEquals(12 * GIB, check.capacity(1), "GPU.0: available");
      assertEquals(16 * GIB, check.capacity(2), "GPU.1: total");
      assertEquals("GPU.1 16.00 GiB (GPU_DEVICE_TOTAL_MEM_SIZE)", b.memoryReports().get(2).describe());
      assertEquals("CPU not reported", b.memoryReports().get(0).describe());
      assertTrue(b.capacitySource().startsWith("reported by OpenVINO: CPU not reported, GPU.0 12.00 GiB"),
          b.capacitySource());
    }
  }

  @Test
  void theUsersMemoryReplacesWhatADeviceReportsAndLimitsADeviceThatReportsNothing() {
    try (OpenVinoBackend b = new OpenVinoBackend(runtime(), OpenVinoOptions.DEFAULT)) {
      MemoryCheck check = b.memoryCheck(graph, devices, MemoryLimits.parse("GPU.1=8GiB,CPU=4GiB"));
      assertEquals(4 * GIB, check.capacity(0));
      assertEquals(12 * GIB, check.capacity(1), "GPU.0 keeps what it reported");
      assertEquals(8 * GIB, check.capacity(2));
    }
  }

  @Test
  void withNothingReportedAndNothingGivenNoDeviceIsLimited() {
    try (OpenVinoBackend b = new OpenVinoBackend(new ScriptedRuntime(graph, "CPU", "GPU.1"), OpenVinoOptions.DEFAULT)) {
      assertTrue(b.capacities().isEmpty());
      assertFalse(b.memoryCheck(graph, DeviceSet.of("CPU", "GPU.1"), MemoryLimits.NONE).limitsAny());
    }
  }

  @Test
  void anNpuTotalCountsAndZeroOrNegativeAnswersAreNotReports() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "NPU");
    rt.properties.put("NPU " + DeviceMemoryReport.NPU_TOTAL, 4 * GIB);
    rt.properties.put("CPU " + DeviceMemoryReport.GPU_TOTAL, 0L);
    assertEquals(OptionalLong.of(4 * GIB), DeviceMemoryReport.read(rt, "NPU").capacityBytes());
    assertEquals(DeviceMemoryReport.none("CPU"), DeviceMemoryReport.read(rt, "CPU"));
    assertEquals(new MemoryLimits(Map.of("NPU", 4 * GIB)),
        DeviceMemoryReport
            .limits(java.util.List.of(DeviceMemoryReport.read(rt, "CPU"), DeviceMemoryReport.read(rt, "NPU"))));
  }
}
