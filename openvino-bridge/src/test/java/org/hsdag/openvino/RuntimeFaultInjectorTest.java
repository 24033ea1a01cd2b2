package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The test fault injector: off unless its property is set, it picks one measurement by what is measured, and the child
 * it arms dies of a real SIGSEGV inside that measurement's compile, never outside a measurement; a child started
 * without it refuses the request. No OpenVINO needed ({@link FakeRuntimeChild}).
 */
class RuntimeFaultInjectorTest {
  private static final DeviceSet DEVICES = DeviceSet.of("CPU", "GPU.1");

  @TempDir
  Path dir;
  private Path xml;
  private OpGraph graph;

  @BeforeEach
  void model() throws Exception {
    xml = SelfTestModel.write(dir);
    graph = new IrReader().read(xml);
  }

  @Test
  void offItNeverFiresAndAnythingButKindColonNIsRefusedWithItsName() {
    RuntimeFaultInjector off = RuntimeFaultInjector.parse(null);
    assertFalse(off.enabled());
    Placement cpu = Placement.allOn(DEVICES, graph.nodeCount(), "CPU");
    for (int i = 0; i < 3; i++) {
      assertFalse(off.crashes(cpu));
    }
    for (String bad : List.of("", "search", "search:0", "search:x", "soon:1", "search:1:2")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RuntimeFaultInjector.parse(bad));
      assertTrue(e.getMessage().startsWith(RuntimeFaultInjector.PROPERTY + " (a test fault injector)"), e.getMessage());
    }
  }

  @Test
  void itPicksTheNthFirstSplitTheNthFirstSingleDeviceOrTheNthMeasurementAgain() {
    Placement cpu = Placement.allOn(DEVICES, graph.nodeCount(), "CPU");
    Placement gpu = Placement.allOn(DEVICES, graph.nodeCount(), "GPU.1");
    Placement split = SelfTestModel.mixedPlacement(graph, "CPU", "GPU.1");
    // A tune's order: baselines (the first re-taken under load), a search step, the final race re-measuring all three.
    List<Placement> order = List.of(cpu, cpu, gpu, split, split, cpu, gpu);
    assertEquals(List.of(false, false, true, false, false, false, false), fired("baseline:2", order));
    assertEquals(List.of(false, false, false, true, false, false, false), fired("search:1", order));
    assertEquals(List.of(false, false, false, false, false, true, false), fired("final:1", order));
    assertEquals(List.of(false, false, false, false, false, false, true), fired("final:2", order));
    assertEquals(List.of(false, false, false, false, false, false, false), fired("search:2", order));
  }

  private static List<Boolean> fired(String value, List<Placement> order) {
    RuntimeFaultInjector f = RuntimeFaultInjector.parse(value);
    List<Boolean> out = new ArrayList<>();
    order.forEach(p -> out.add(f.crashes(p)));
    return out;
  }

  /** A runtime whose children run the fake child, with the injector's property when {@code on}. */
  private IsolatedRuntime fake(boolean on) {
    return new IsolatedRuntime(socket -> {
      List<String> cmd = new ArrayList<>(RuntimeChild.javaCommand(FakeRuntimeChild.class.getName(),
          List.of(socket.toString(), xml.toString(), "none")));
      if (on) {
        cmd.add(1, "-D" + RuntimeFaultInjector.PROPERTY + "=search:1");
      }
      return cmd;
    });
  }

  @Test
  void anArmedChildCrashesInTheMeasurementsCompileNotBeforeTheMeasurement() {
    try (IsolatedRuntime rt = fake(true)) {
      long pid = rt.childPid().getAsLong();
      OpenVinoException e = armedCompileInAMeasurement(rt);
      assertTrue(e instanceof RuntimeLostException, String.valueOf(e));
      assertEquals("crashed the runtime (signal 11, SIGSEGV)", e.getMessage());
      assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
      rt.deadline(Duration.ofMinutes(5)); // the next measurement: a fresh child, disarmed
      rt.readModel(xml).compile("CPU", null, false).close();
      rt.deadline(null);
    }
  }

  @Test
  void aChildStartedWithoutTheInjectorRefusesTheCrashRequest() {
    try (IsolatedRuntime rt = fake(false)) {
      long pid = rt.childPid().getAsLong();
      OpenVinoException e = armedCompileInAMeasurement(rt);
      assertFalse(e instanceof RuntimeLostException, String.valueOf(e));
      assertTrue(e.getMessage().contains("the test fault injector is off"), e.getMessage());
      assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the child lives on");
    }
  }

  /** Arms {@code rt}, compiles once outside a measurement (no crash there), then inside one: what that threw. */
  private OpenVinoException armedCompileInAMeasurement(IsolatedRuntime rt) {
    rt.crashInNextMeasurement();
    OpenVinoRuntime.Model m = rt.readModel(xml);
    m.compile("CPU", null, false).close();
    rt.deadline(Duration.ofMinutes(5));
    try {
      return assertThrows(OpenVinoException.class, () -> m.compile("CPU", null, false));
    } finally {
      rt.deadline(null);
    }
  }
}
