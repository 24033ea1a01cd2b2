package org.hsdag.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class DeviceKindTest {
  @Test
  void profileLabelsAndOpenVinoNamesGiveKinds() {
    assertEquals(DeviceKind.DISCRETE_GPU, DeviceKind.parse("dGPU"));
    assertEquals(DeviceKind.INTEGRATED_GPU, DeviceKind.parse("igpu"));
    assertEquals(DeviceKind.OTHER, DeviceKind.parse(""));
    assertEquals(DeviceKind.CPU, DeviceKind.ofName("CPU"));
    assertEquals(DeviceKind.CPU, DeviceKind.ofName("CPU2"), "a test device is the CPU plugin again");
    assertEquals(DeviceKind.INTEGRATED_GPU, DeviceKind.ofName("GPU.0"));
    assertEquals(DeviceKind.INTEGRATED_GPU, DeviceKind.ofName("GPU"));
    assertEquals(DeviceKind.DISCRETE_GPU, DeviceKind.ofName("GPU.1"));
    assertEquals(DeviceKind.NPU, DeviceKind.ofName("NPU"));
  }

  @Test
  void theReferenceIsTheFirstCpuElseTheFirstDevice() {
    assertEquals("CPU", DeviceKind.reference(DeviceSet.of("GPU.1", "CPU")));
    assertEquals("GPU.1", DeviceKind.reference(DeviceSet.of("GPU.1", "NPU")));
    // Kinds stated by a profile win over names: here the first device is the CPU.
    assertEquals("HOST",
        DeviceKind.reference(DeviceSet.of("GPU.1", "HOST"), List.of(DeviceKind.DISCRETE_GPU, DeviceKind.CPU)));
  }
}
