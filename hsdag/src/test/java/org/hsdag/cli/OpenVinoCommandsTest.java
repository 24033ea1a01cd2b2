package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.openvino.CalibrationRecords;
import org.hsdag.openvino.OpenVinoBackend;
import org.hsdag.openvino.SelfTestModel;
import org.hsdag.placement.Placement;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.throughput.ThroughputMeasuring;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hsdag calibrate} and {@code hsdag check-runtime} on a machine without OpenVINO. */
class OpenVinoCommandsTest {
  private static void assumeNoOpenVino() {
    assumeFalse(OpenVinoBackend.availability().available(),
        "skipped: OpenVINO is available here (native tests cover it)");
  }

  private static Path fixture() throws Exception {
    URL u = OpenVinoCommandsTest.class.getResource("/org/hsdag/openvino/calibration-selftest-synthetic.json");
    return Path.of(u.toURI());
  }

  @Test
  void checkRuntimeFailsCleanlyWithTheAvailabilityReason() {
    assumeNoOpenVino();
    CliRun r = CliRun.of("check-runtime");
    assertEquals(ExitCodes.FAILURE, r.exitCode());
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertTrue(r.err().startsWith("hsdag: openvino backend unavailable: "), r.err());
    assertTrue(r.err().contains("Fix: "), r.err());
    assertEquals("", r.out());
  }

  @Test
  void calibrateOnHardwareFailsCleanlyWithTheAvailabilityReason(@TempDir Path dir) throws Exception {
    assumeNoOpenVino();
    Path xml = SelfTestModel.write(dir);
    Path profile = dir.resolve("my-machine.json");
    CliRun r = CliRun.of("calibrate", xml.toString(), "--devices", "CPU,GPU.1", "-o", profile.toString());
    assertEquals(ExitCodes.FAILURE, r.exitCode());
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertTrue(r.err().startsWith("hsdag: openvino backend unavailable: "), r.err());
    assertTrue(Files.notExists(profile), "nothing written");
  }

  @Test
  void calibrateFromSavedRecordsWritesAProfileTheSimulatorLoads(@TempDir Path dir) throws Exception {
    Path xml = SelfTestModel.write(dir);
    Path profile = dir.resolve("my-machine.json");
    CliRun r = CliRun.of("calibrate", xml.toString(), "--devices", "CPU,GPU.1", "-o", profile.toString(),
        "--from-records", fixture().toString());
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.out().contains("synthetic:"), "says where the numbers came from: " + r.out());

    DeviceProfile loaded = DeviceProfile.load(profile.toString());
    assertEquals("my-machine", loaded.name());
    assertEquals(2, loaded.devices().size());
    SimBackend sim = new SimBackend(loaded, SimOptions.exact());
    OpGraph g = new IrReader().read(xml);
    double cpu = sim.latencyMillis(g, Placement.allOn(sim.deviceSet(), g.nodeCount(), "CPU"));
    assertEquals(0.118, cpu, 0.01 * 0.118, "the fixture's CPU wall latency");
  }

  @Test
  void calibrateRejectsADeviceTheRecordsDoNotHave(@TempDir Path dir) throws Exception {
    Path xml = SelfTestModel.write(dir);
    CliRun r = CliRun.of("calibrate", xml.toString(), "--devices", "CPU,NPU", "-o", dir.resolve("p.json").toString(),
        "--from-records", fixture().toString());
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode());
    assertTrue(r.err().contains("no run on NPU"), r.err());
  }

  @Test
  void calibrateFitsEachDevicesGainFromRequestsInFlightAndTheSimulatorPredictsWithIt(@TempDir Path dir)
      throws Exception {
    Path xml = SelfTestModel.write(dir);
    CalibrationRecords fixture = CalibrationRecords.read(fixture());
    List<CalibrationRecords.DeviceRun> runs = new ArrayList<>();
    for (CalibrationRecords.DeviceRun d : fixture.devices()) {
      List<Double> periods = d.device().equals("CPU") ? List.of(0.2, 0.125, 0.1) : List.of();
      runs.add(new CalibrationRecords.DeviceRun(d.device(), d.fullName(), d.latencyMillis(), d.records(), periods));
    }
    Path records = dir.resolve("with-throughput.json");
    new CalibrationRecords(fixture.model(), fixture.source(), runs, fixture.splits(), fixture.designed())
        .write(records);
    Path profile = dir.resolve("gain.json");
    CliRun r = CliRun.of("calibrate", xml.toString(), "--devices", "CPU,GPU.1", "-o", profile.toString(),
        "--from-records", records.toString());
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(
        r.out().contains("  CPU alone, throughput hint, 1..3 requests in flight: inferences/s x1.00 x1.60 x2.00"),
        r.out());
    DeviceProfile loaded = DeviceProfile.load(profile.toString());
    assertEquals(List.of(1.0, 1.6, 2.0), loaded.device("CPU").throughputGain());
    assertEquals(List.of(), loaded.device("GPU.1").throughputGain());
    assertTrue(loaded.sources().stream().anyMatch(s -> s.startsWith("CPU alone, throughput hint")), "the profile says");
    SimBackend sim = new SimBackend(loaded, SimOptions.exact());
    OpGraph g = new IrReader().read(xml);
    Placement cpu = Placement.allOn(sim.deviceSet(), g.nodeCount(), "CPU");
    var three = ThroughputMeasuring.figuresOf(sim, 3).orElseThrow().figures(g, cpu);
    assertEquals(three.latencyMillis() / 2.0, three.periodMillis(), 1e-9, "the CPU alone gains x2 with 3 in flight");
  }
}
