package org.hsdag.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.hsdag.openvino.OpenVinoBackend;
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
    LatencyBackend b = Backends.open(BackendRequest.of("auto", null).requiring(List.of("CPU", "GPU.1"), 2),
        notices::add);
    assertEquals("sim", b.name());
    assertEquals("paper", b.profile());
    assertEquals(1, notices.size());
    assertTrue(notices.get(0).contains("simulat"), notices.get(0));
  }

  @Test
  void autoUsesOpenVinoWhenItLoadsAndHasEveryRequestedDevice() {
    boolean available = OpenVinoBackend.availability().available();
    List<String> notices = new ArrayList<>();
    try (LatencyBackend b = Backends.open(BackendRequest.of("auto", null).requiring(List.of("CPU"), 1), notices::add)) {
      assertEquals(available ? "openvino" : "sim", b.name(), notices.toString());
      assertEquals(1, notices.size());
    }
    notices.clear();
    // Nothing requested, but a split needs two devices: one CPU is not enough.
    try (LatencyBackend b = Backends.open(BackendRequest.of("auto", null).requiring(List.of(), 64), notices::add)) {
      assertEquals("sim", b.name(), notices.toString());
    }
  }

  @Test
  void openvinoThatCannotRunIsAClearErrorAndUnknownNamesAreRefused() {
    if (!OpenVinoBackend.availability().available()) {
      BackendUnavailableException e = assertThrows(BackendUnavailableException.class,
          () -> Backends.open("openvino", null));
      assertTrue(e.getMessage().contains("native"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> Backends.open("cuda", null));
  }

  @Test
  void providersAreFoundThroughTheServiceLoaderAndAutoTriesTheRealOneFirst() {
    List<String> names = Backends.names();
    assertEquals("auto", names.get(0));
    assertTrue(names.indexOf("openvino") > 0 && names.indexOf("openvino") < names.indexOf("sim"), names.toString());
    assertTrue(Backends.provider("sim").orElseThrow().simulated());
    assertTrue(Backends.provider("openvino").orElseThrow().features().contains(BackendProvider.Feature.TEST_DEVICES));
  }

  @Test
  void aRequestFieldTheBackendCannotHonourIsRefusedWithTheBackendThatCan() {
    BackendRequest perturbed = BackendRequest.of("openvino", null).withMismatch(new BackendRequest.Mismatch(0.3, 1));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Backends.open(perturbed, n -> {}));
    assertTrue(e.getMessage().contains("--backend sim"), e.getMessage());
    BackendRequest withTestDevice = BackendRequest.of("sim", null).withTestDevices(List.of("CPU2"));
    e = assertThrows(IllegalArgumentException.class, () -> Backends.open(withTestDevice, n -> {}));
    assertTrue(e.getMessage().contains("--backend openvino"), e.getMessage());
  }

  @Test
  void autoWithAMismatchTakesTheSimulatorOnThePerturbedMachine() {
    List<String> notices = new ArrayList<>();
    BackendRequest request = BackendRequest.of("auto", "paper").withMismatch(new BackendRequest.Mismatch(0.3, 1));
    try (LatencyBackend b = Backends.open(request, notices::add)) {
      assertEquals("sim", b.name());
      assertEquals("paper+mismatch(a=0.3,seed=1)", b.profile());
    }
    assertTrue(notices.stream().anyMatch(n -> n.contains("perturbed")), notices.toString());
  }
}
