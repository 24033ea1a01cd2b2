package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hsdag.openvino.OpenVinoBackend;
import org.hsdag.testkit.RealOpenVino;
import org.junit.jupiter.api.Test;

class DevicesCommandTest {
  /** A backend that states no device kinds (as OpenVINO's test device CPU2) still fills KIND, from the name. */
  @Test
  void theKindColumnIsNeverEmpty() {
    CliRun r = CliRun.of("devices", "--backend", "fake");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    java.util.List<String> rows = r.out().lines().filter(l -> l.startsWith("CPU ") || l.startsWith("GPU.1 ")).toList();
    assertEquals(2, rows.size(), r.out());
    for (String row : rows) {
      String kind = row.substring(8, 14).strip();
      assertTrue(kind.equals(row.startsWith("CPU") ? "CPU" : "dGPU"), "KIND of " + row + " in\n" + r.out());
    }
  }

  @Test
  void simPaperListsDevicesWithFullNamesAndSaysBackendAndProfile() {
    CliRun r = CliRun.of("devices", "--backend", "sim", "--profile", "paper");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.out().contains("backend  sim (simulated"), r.out());
    assertTrue(r.out().contains("profile  paper"), r.out());
    assertTrue(r.out().contains("CPU") && r.out().contains("12th Gen Intel(R) Core(TM) i9-12900K"), r.out());
    assertTrue(r.out().contains("GPU.0") && r.out().contains("Intel(R) UHD Graphics 770 (iGPU)"), r.out());
    assertTrue(r.out().contains("GPU.1") && r.out().contains("Intel(R) Data Center GPU Flex 170 (dGPU)"), r.out());
    assertTrue(r.out().lines().anyMatch(l -> l.startsWith("GPU.1") && l.contains(" 16.00 GiB ")), r.out());
    assertTrue(r.out().contains("memory capacities: sim profile paper"), r.out());
  }

  @Test
  void autoWithADeviceNoBackendHasSaysSoInOneLine() {
    CliRun r = CliRun.of("plan", "tiny_chain", "--devices", "CPU,CPU2");
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertEquals(1, r.err().lines().count(), "one line, not a choice followed by its refusal: " + r.err());
    assertTrue(r.err().contains("no backend here has CPU2"), r.err());
    if (OpenVinoBackend.availability().available()) {
      assertTrue(r.err().contains("--test-device CPU2:precision=f32"), r.err());
    }
  }

  @Test
  void autoSaysWhichBackendAnswered() {
    CliRun r = CliRun.of("devices", "--json");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    if (OpenVinoBackend.availability().available()) {
      assertTrue(r.err().contains("backend auto: using openvino (OpenVINO "), r.err());
      assertTrue(r.out().contains("\"backend\" : \"openvino\"") && r.out().contains("\"runtime\" : \""), r.out());
    } else {
      assertTrue(r.err().contains("the simulator answers (sim/paper"), r.err());
      assertTrue(r.out().contains("\"backend\" : \"sim\"") && r.out().contains("\"profile\" : \"paper\""), r.out());
    }
  }

  @Test
  void aTestDeviceIsListedAsSuchWithWhereOpenVinoCameFrom() {
    RealOpenVino.require();
    CliRun r = CliRun.of("devices", "--backend", "openvino", "--test-device", "cpu2:threads=1");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.out().contains("CPU2") && r.out().contains("(test device: the CPU plugin registered again, 1 thread)"),
        r.out());
    assertTrue(r.out().contains("runtime  "), r.out());
    // The CPU plugin reports no device memory, nor does its twin.
    assertTrue(r.out().lines().anyMatch(l -> l.startsWith("CPU2 ") && l.contains(" -  ")), r.out());
    assertTrue(r.out().contains("memory capacities: reported by OpenVINO: CPU not reported, CPU2 not reported"),
        r.out());
    CliRun bad = CliRun.of("devices", "--backend", "openvino", "--test-device", "GPU2");
    assertEquals(ExitCodes.BAD_INPUT, bad.exitCode(), bad.err());
    assertTrue(bad.err().contains("--test-device") && bad.err().contains("must contain CPU"), bad.err());
    CliRun onSim = CliRun.of("devices", "--backend", "sim", "--test-device", "CPU2");
    assertEquals(ExitCodes.BAD_INPUT, onSim.exitCode(), onSim.err());
  }

  @Test
  void otherProfilesAndBadInput() {
    CliRun laptop = CliRun.of("devices", "--backend", "sim", "--profile", "laptop-core-ultra");
    assertEquals(ExitCodes.OK, laptop.exitCode(), laptop.err());
    assertTrue(laptop.out().contains("NPU") && laptop.out().contains("Intel(R) AI Boost"), laptop.out());
    CliRun unknown = CliRun.of("devices", "--backend", "sim", "--profile", "mars");
    assertEquals(ExitCodes.BAD_INPUT, unknown.exitCode());
    assertTrue(unknown.err().contains("unknown profile 'mars'"), unknown.err());
    if (!OpenVinoBackend.availability().available()) {
      CliRun openvino = CliRun.of("devices", "--backend", "openvino");
      // Unavailable here: a failure of the environment (exit 1), explained in one line.
      assertEquals(ExitCodes.FAILURE, openvino.exitCode());
      assertTrue(openvino.err().contains("native"), openvino.err());
      assertEquals(1, openvino.err().strip().lines().count(), openvino.err());
    }
    CliRun list = CliRun.of("devices", "--list-profiles");
    assertTrue(list.out().contains("paper") && list.out().contains("laptop-core-ultra"), list.out());
  }
}
