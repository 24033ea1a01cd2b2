package org.hsdag.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.hsdag.openvino.OpenVinoBackend;
import org.hsdag.openvino.OpenVinoOptions;
import org.hsdag.sim.SimOptions;
import org.junit.jupiter.api.Test;

class BackendsTest {
  @Test
  void simOpensTheNamedProfile() {
    LatencyBackend b = Backends.open("sim", "laptop-core-ultra");
    assertEquals("sim", b.name());
    assertEquals("laptop-core-ultra", b.profile());
    assertTrue(b.simulated());
    assertEquals(List.of("CPU", "GPU.0", "NPU"), b.devices().stream().map(DeviceInfo::name).toList());
  }

  @Test
  void autoUsesTheSimulatorWhenARequestedDeviceIsMissingAndSaysSo() {
    List<String> notices = new ArrayList<>();
    LatencyBackend b = Backends.open("auto", null, SimOptions.DEFAULT, OpenVinoOptions.DEFAULT, List.of("CPU", "GPU.1"),
        2, notices::add);
    assertEquals("sim", b.name());
    assertEquals("paper", b.profile());
    assertEquals(1, notices.size());
    assertTrue(notices.get(0).contains("simulat"), notices.get(0));
  }

  @Test
  void autoUsesOpenVinoWhenItLoadsAndHasEveryRequestedDevice() {
    boolean available = OpenVinoBackend.availability().available();
    List<String> notices = new ArrayList<>();
    try (LatencyBackend b = Backends.open("auto", null, SimOptions.DEFAULT, OpenVinoOptions.DEFAULT, List.of("CPU"), 1,
        notices::add)) {
      assertEquals(available ? "openvino" : "sim", b.name(), notices.toString());
      assertEquals(1, notices.size());
    }
    notices.clear();
    // Nothing requested, but a split needs two devices: one CPU is not enough.
    try (LatencyBackend b = Backends.open("auto", null, SimOptions.DEFAULT, OpenVinoOptions.DEFAULT, List.of(), 64,
        notices::add)) {
      assertEquals("sim", b.name(), notices.toString());
    }
  }

  @Test
  void openvinoThatCannotRunIsAClearErrorAndUnknownNamesAreRefused() {
    if (!OpenVinoBackend.availability().available()) {
      BackendUnavailableException e = assertThrows(BackendUnavailableException.class, () -> Backends.open("openvino", null));
      assertTrue(e.getMessage().contains("native"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> Backends.open("cuda", null));
  }
}
