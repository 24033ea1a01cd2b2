package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.TestDevice;
import org.hsdag.ir.OpGraph;
import org.hsdag.testkit.TinyGraphs;
import org.junit.jupiter.api.Test;

class TestDeviceTest {
  @Test
  void parsesNameAndThreadsInTheDevicesSpelling() {
    assertEquals(new TestDevice("CPU2", 1), TestDevice.parse("cpu2"));
    assertEquals(new TestDevice("CPU_SLOW", 3), TestDevice.parse(" CPU_SLOW : threads=3 "));
    assertEquals("CPU2:threads=1", TestDevice.parse("CPU2").toString());
    TestDevice f32 = TestDevice.parse("CPU2:precision=F32:threads=2");
    assertEquals(new TestDevice("CPU2", 2, "f32"), f32);
    assertEquals(f32, TestDevice.parse(f32.toString()));
  }

  @Test
  void refusesNamesOpenVinoRefusesAndBadThreadCounts() {
    for (String bad : List.of("GPU2", "CPU", "CPU.2", "CPU2:threads=0", "CPU2:threads=x", "CPU2:cores=1",
        "CPU2:precision=i8")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TestDevice.parse(bad), bad);
      assertTrue(e.getMessage().contains("test device"), e.getMessage());
    }
  }

  @Test
  void aMarkedFullNameGivesTheDeviceBack() {
    TestDevice t = new TestDevice("CPU2", 2);
    String marked = t.mark("AMD EPYC");
    assertEquals("AMD EPYC (test device: the CPU plugin registered again, 2 threads)", marked);
    assertEquals(Optional.of(t), TestDevice.fromMarked("CPU2", marked));
    assertEquals(Optional.empty(), TestDevice.fromMarked("CPU", "AMD EPYC"));
    TestDevice f32 = new TestDevice("CPU2", 1, "f32");
    assertEquals("AMD EPYC (test device: the CPU plugin registered again, 1 thread, precision f32)",
        f32.mark("AMD EPYC"));
    assertEquals(Optional.of(f32), TestDevice.fromMarked("CPU2", f32.mark("AMD EPYC")));
  }

  @Test
  void theBackendRegistersTestDevicesAndEveryReportSeesThemMarked() {
    OpGraph g = TinyGraphs.randomDag(6, 2, 1);
    ScriptedRuntime rt = new ScriptedRuntime(g, "CPU");
    OpenVinoBackend backend = new OpenVinoBackend(rt,
        OpenVinoOptions.DEFAULT.withTestDevices(List.of(new TestDevice("CPU2", 1))));
    assertTrue(rt.calls.contains("register CPU2:threads=1"), rt.calls.toString());
    DeviceInfo cpu2 = backend.devices().get(1);
    assertEquals("CPU2", cpu2.name());
    assertTrue(cpu2.fullName().contains("test device"), cpu2.fullName());
    assertTrue(backend.profile().contains("CPU2=") && backend.profile().contains("test device"), backend.profile());
  }
}
