package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
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
 * it arms dies of a real SIGSEGV inside that measurement's compile, never outside a measurement, or hangs there and
 * the measurement fails at its deadline, however large its request; a child started without it refuses the request.
 * No OpenVINO needed ({@link FakeRuntimeChild}).
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
      assertFalse(off.fires(cpu));
    }
    for (String bad : List.of("", "search", "search:0", "search:x", "soon:1", "search:1:2")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RuntimeFaultInjector.parse(bad));
      assertTrue(e.getMessage().startsWith(RuntimeFaultInjector.PROPERTY + " (a test fault injector)"), e.getMessage());
      e = assertThrows(IllegalArgumentException.class,
          () -> RuntimeFaultInjector.parse(bad, RuntimeFaultInjector.Fault.HANG));
      assertTrue(e.getMessage().startsWith(RuntimeFaultInjector.HANG_PROPERTY + " (a test fault injector)"),
          e.getMessage());
    }
    assertTrue(RuntimeFaultInjector.parse("search:1", RuntimeFaultInjector.Fault.HANG).enabled());
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
    order.forEach(p -> out.add(f.fires(p)));
    return out;
  }

  /** A runtime whose children run the fake child, with the injector's property when {@code on}. */
  private IsolatedRuntime fake(boolean on) {
    return new IsolatedRuntime(socket -> command(socket, on));
  }

  /** The fake child's command, with the injector's property when {@code on}. */
  private List<String> command(Path socket, boolean on) {
    List<String> cmd = new ArrayList<>(RuntimeChild.javaCommand(FakeRuntimeChild.class.getName(),
        List.of(socket.toString(), xml.toString(), "none")));
    if (on) {
      cmd.add(1, "-D" + RuntimeFaultInjector.PROPERTY + "=search:1");
    }
    return cmd;
  }

  @Test
  void anArmedChildCrashesInTheMeasurementsCompileNotBeforeTheMeasurement() {
    lostInTheMeasurementThenFresh(RuntimeFaultInjector.Fault.CRASH, Duration.ofMinutes(5),
        "crashed the runtime (signal 11, SIGSEGV)");
  }

  @Test
  void anArmedChildHangsInTheMeasurementsCompileWhichFailsAtItsDeadlineAndTheNextRunsOnAFreshChild() {
    lostInTheMeasurementThenFresh(RuntimeFaultInjector.Fault.HANG, Duration.ofSeconds(1),
        "no answer in 1 s (the runtime was ended)");
  }

  /**
   * A child armed with {@code fault} is lost for {@code reason} in a measurement of {@code limit}, not before it;
   * the next measurement runs on a fresh child, disarmed.
   */
  private void lostInTheMeasurementThenFresh(RuntimeFaultInjector.Fault fault, Duration limit, String reason) {
    try (IsolatedRuntime rt = fake(true)) {
      long pid = rt.childPid().getAsLong();
      OpenVinoException e = armedCompileInAMeasurement(rt, fault, limit);
      assertTrue(e instanceof RuntimeLostException, String.valueOf(e));
      assertEquals(reason, e.getMessage());
      assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the child was ended");
      rt.deadline(Duration.ofMinutes(5));
      rt.readModel(xml).compile("CPU", null, false).close();
      rt.deadline(null);
      assertNotEquals(pid, rt.childPid().getAsLong());
    }
  }

  @Test
  void aHungChildThatReadsNothingFailsEvenARequestLargerThanTheSocketHoldsAtItsDeadline() {
    RuntimeChild c = RuntimeChild.start(socket -> command(socket, true), RuntimeChild.START_LIMIT);
    try {
      c.call(Long.MAX_VALUE, "", RuntimeServer.TEST_HANG, 0); // answered; then it reads nothing more
      String large = "x".repeat(16 << 20); // far more than a socket buffers: the write itself waits on the child
      RuntimeLostException e = assertTimeoutPreemptively(Duration.ofMinutes(2), // a guard: without the fix it waits
          () -> assertThrows(RuntimeLostException.class, () -> c.call(System.nanoTime() + Duration.ofSeconds(1)
              .toNanos(), "no answer in 1 s", "version", 0, large)));
      assertEquals("no answer in 1 s", e.getMessage());
      assertFalse(ProcessHandle.of(c.pid()).map(ProcessHandle::isAlive).orElse(false), "the hung child was ended");
    } finally {
      c.close();
    }
  }

  @Test
  void aChildStartedWithoutTheInjectorRefusesTheFaultRequests() {
    try (IsolatedRuntime rt = fake(false)) {
      long pid = rt.childPid().getAsLong();
      for (RuntimeFaultInjector.Fault f : RuntimeFaultInjector.Fault.values()) {
        OpenVinoException e = armedCompileInAMeasurement(rt, f, Duration.ofMinutes(5));
        assertFalse(e instanceof RuntimeLostException, String.valueOf(e));
        assertTrue(e.getMessage().contains("the test fault injector is off"), e.getMessage());
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the child lives on");
      }
    }
  }

  /**
   * Arms {@code rt} with {@code fault}, compiles once outside a measurement (no fault there), then inside one of
   * {@code limit}: what that threw.
   */
  private OpenVinoException armedCompileInAMeasurement(IsolatedRuntime rt, RuntimeFaultInjector.Fault fault,
      Duration limit) {
    rt.faultInNextMeasurement(fault);
    OpenVinoRuntime.Model m = rt.readModel(xml);
    m.compile("CPU", null, false).close();
    rt.deadline(limit);
    try {
      return assertThrows(OpenVinoException.class, () -> m.compile("CPU", null, false));
    } finally {
      rt.deadline(null);
    }
  }
}
