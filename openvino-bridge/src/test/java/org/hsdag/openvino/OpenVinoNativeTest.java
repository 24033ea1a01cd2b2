package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.TestDevice;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.HeteroAffinity;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.RealOpenVino;
import org.junit.jupiter.api.BeforeEach;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.LoadPolicy;
import org.hsdag.backend.LoadWatch;
import org.hsdag.backend.LoadWatchingBackend;
import org.hsdag.backend.MeasurementLoad;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native backend on real OpenVINO. Runs only where native/provision.sh built the JNI
 * library and OpenVINO loads; elsewhere every test is skipped with the availability reason.
 */
@Tag("openvino")
class OpenVinoNativeTest {
  private OpenVinoAvailability availability;

  @BeforeEach
  void requireOpenVino() {
    availability = RealOpenVino.require();
  }

  @Test
  void listsCpuWithAFullName() {
    try (OpenVinoRuntime rt = availability.openRuntime()) {
      List<DeviceInfo> devices = rt.devices();
      assertTrue(devices.stream().anyMatch(d -> d.name().equals("CPU")), devices.toString());
      assertFalse(rt.version().isEmpty());
    }
  }

  @Test
  void theCpuAndItsTestTwinReportNoDeviceMemoryAndTheCallDoesNotFail() {
    try (OpenVinoRuntime rt = availability.openRuntime()) {
      rt.registerTestDevice(TestDevice.parse("CPU2"));
      for (String device : List.of("CPU", "CPU2")) {
        for (String key : List.of(DeviceMemoryReport.GPU_TOTAL, DeviceMemoryReport.NPU_TOTAL,
            DeviceMemoryReport.AVAILABLE)) {
          assertTrue(rt.unsignedProperty(device, key).isEmpty(), device + " " + key);
        }
        assertEquals(DeviceMemoryReport.none(device), DeviceMemoryReport.read(rt, device));
      }
    }
  }

  @Test
  void aPropertyTheDeviceListsIsReadThroughTheSameCall() {
    // The CPU plugin lists INFERENCE_NUM_THREADS among SUPPORTED_PROPERTIES (the pinned wheel, run); the twin sets it to 3.
    try (OpenVinoRuntime rt = availability.openRuntime()) {
      rt.registerTestDevice(TestDevice.parse("CPU2:threads=3"));
      assertEquals(java.util.OptionalLong.of(3), rt.unsignedProperty("CPU2", "INFERENCE_NUM_THREADS"));
    }
  }

  @Test
  void runtimeCheckPassesOnEveryDevice(@TempDir Path dir) throws Exception {
    try (OpenVinoRuntime rt = availability.openRuntime()) {
      RuntimeCheck.Report report = RuntimeCheck.run(rt, dir, 5, 1e-2, 1);
      assertTrue(report.passed(), report.toString());
    }
  }

  @Test
  void opNamesOfTheModelMatchTheGraphsFriendlyNames(@TempDir Path dir) throws Exception {
    Path xml = SelfTestModel.write(dir);
    OpGraph g = new IrReader().read(xml);
    try (OpenVinoRuntime rt = availability.openRuntime(); OpenVinoRuntime.Model m = rt.readModel(xml)) {
      assertTrue(HeteroAffinity.checkAgainstModel(
          new HeteroAffinity(g).nameMap(Placement.allOn(DeviceSet.of("CPU"), g.nodeCount(), "CPU")), m.opNames())
          .isEmpty());
      boolean[] cpu = m.query("CPU");
      assertEquals(m.opNames().size(), cpu.length);
    }
  }

  @Test
  void heteroProfilingRecordsCarryTheirSubgraph(@TempDir Path dir) throws Exception {
    Path xml = SelfTestModel.write(dir);
    OpGraph g = new IrReader().read(xml);
    try (OpenVinoRuntime rt = availability.openRuntime(); OpenVinoRuntime.Model m = rt.readModel(xml)) {
      m.setAffinities(new HeteroAffinity(g).nameMap(Placement.allOn(DeviceSet.of("CPU"), g.nodeCount(), "CPU")));
      try (OpenVinoRuntime.Compiled c = m.compile("HETERO:CPU", null, true)) {
        c.fillInputs(3);
        c.inferTimed(1, 1);
        List<ProfilingRecord> records = c.profile();
        assertFalse(records.isEmpty());
        assertTrue(records.stream().allMatch(r -> r.subgraph() >= 0), "HETERO prefixes every record");
      }
    }
  }

  @Test
  void backendMeasuresTheSelfTestModelOnCpu(@TempDir Path dir) throws Exception {
    Path xml = SelfTestModel.write(dir);
    OpGraph g = new IrReader().read(xml);
    try (OpenVinoBackend b = OpenVinoBackend.open(OpenVinoOptions.DEFAULT).bind(g, xml)) {
      Measurement m = b.measure(g, Placement.allOn(DeviceSet.of("CPU"), g.nodeCount(), "CPU"),
          MeasurementProtocol.PAPER);
      assertTrue(m.ok(), m.reason());
      assertEquals(10, m.samplesMillis().length);
      assertEquals("openvino", m.backend());
    }
  }

  @Test
  void aWatchedMeasurementCarriesTheForeignLoadDuringIt(@TempDir Path dir) throws Exception {
    Path xml = SelfTestModel.write(dir);
    OpGraph g = new IrReader().read(xml);
    try (OpenVinoBackend b = OpenVinoBackend.open(OpenVinoOptions.DEFAULT).bind(g, xml)) {
      LatencyBackend watched = LoadWatchingBackend.wrap(b, LoadPolicy.DEFAULT);
      Measurement m = watched.measure(g, Placement.allOn(DeviceSet.of("CPU"), g.nodeCount(), "CPU"),
          MeasurementProtocol.PAPER);
      assertTrue(m.ok(), m.reason());
      MeasurementLoad load = m.load();
      assertNotNull(load, "a real measurement on Linux carries its load figure");
      assertTrue(load.cores() >= 1 && load.foreignCores() >= 0 && load.foreignCores() <= load.cores(), load.describe());
      assertTrue(load.retakes() <= LoadPolicy.DEFAULT.retakes());
      assertEquals(load, watched.capability(LoadWatch.class).orElseThrow().lastLoad().orElseThrow());
    }
  }
}
