package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.Statistic;
import org.hsdag.backend.TestDevice;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.testkit.RealOpenVino;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real runtime in its child process: a child that hangs gives no answer and the measurement fails at its
 * deadline; a child that crashes (SIGSEGV) fails the measurement as crashed; either way the next measurement runs on
 * a fresh child. The faults come from the child itself ({@link RuntimeFaultInjector}, armed by the test for the next
 * measurement), not from signals sent to it: a child stopped with SIGSTOP answers as soon as anyone continues it (a
 * tool that pauses and resumes the machine's processes does), so a stop proves nothing about the deadline. Asserts
 * what happened, never how long it took.
 */
@Tag("openvino")
class RealIsolationTest {
  private static final MeasurementProtocol FEW = new MeasurementProtocol(1, 3, Statistic.MEDIAN, 1, 0);

  @TempDir
  Path dir;
  private OpGraph graph;
  private Path xml;
  private IsolatedRuntime runtime;

  @BeforeEach
  void model() throws Exception {
    RealOpenVino.require();
    xml = SelfTestModel.write(dir);
    graph = new IrReader().read(xml);
  }

  /**
   * The real backend on CPU and CPU2 whose runtime children obey the test's fault requests. Only the children get the
   * injector's property (its value is never counted there): this JVM has none, so the backend arms nothing itself.
   */
  private OpenVinoBackend backend() {
    runtime = new IsolatedRuntime(socket -> {
      List<String> cmd = new ArrayList<>(RuntimeChild.javaCommand(socket));
      cmd.add(1, "-D" + RuntimeFaultInjector.HANG_PROPERTY + "=search:1");
      return cmd;
    });
    OpenVinoOptions options = new OpenVinoOptions(null, null, 0L, Map.of(),
        List.of(new TestDevice("CPU2", 1, "f32")));
    return new OpenVinoBackend(runtime, options).bind(graph, xml);
  }

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  @Test
  void aHungChildFailsTheMeasurementAtItsDeadlineAndTheNextOneRunsOnAFreshChild() {
    try (OpenVinoBackend b = backend()) {
      assertTrue(b.runtimePid().isPresent(), "the runtime runs in a child");
      Placement split = SelfTestModel.mixedPlacement(graph, "CPU", "CPU2");
      assertTrue(b.measure(graph, split, FEW).ok(), "a first measurement before any fault");
      long hung = b.runtimePid().getAsLong();
      b.measureTimeout(Duration.ofSeconds(2));
      runtime.faultInNextMeasurement(RuntimeFaultInjector.Fault.HANG);
      Measurement m = b.measure(graph, split, FEW);
      assertFalse(m.ok());
      assertTrue(m.reason().startsWith("no answer in 2 s (the runtime was ended)"), m.reason());
      assertFalse(alive(hung), "the hung child was ended");
      b.measureTimeout(Duration.ofMinutes(10)); // the fresh child's read and compile: no deadline is tested here
      Measurement again = b.measure(graph, split, FEW);
      assertTrue(again.ok(), again.reason());
      assertNotEquals(hung, b.runtimePid().getAsLong(), "a fresh child");
      assertEquals(2, again.subModels(), "the test device was registered again on the fresh child");
    }
  }

  @Test
  void aCrashedChildFailsTheMeasurementAsCrashedAndTheNextOneRunsOnAFreshChild() {
    try (OpenVinoBackend b = backend()) {
      Placement cpu = Placement.allOn(DeviceSet.of("CPU", "CPU2"), graph.nodeCount(), "CPU");
      assertTrue(b.measure(graph, cpu, FEW).ok());
      long crashed = b.runtimePid().getAsLong();
      // A segmentation fault in the child's thread that makes the native calls, as the measurement starts inferring.
      runtime.faultInNextMeasurement(RuntimeFaultInjector.Fault.CRASH);
      Measurement m = b.measure(graph, cpu, FEW);
      assertFalse(m.ok());
      assertTrue(m.reason().startsWith("crashed the runtime (signal 11, SIGSEGV)"), m.reason());
      assertFalse(alive(crashed), "the crashed child is gone");
      Measurement again = b.measure(graph, cpu, FEW);
      assertTrue(again.ok(), again.reason());
      assertNotEquals(crashed, b.runtimePid().getAsLong());
      assertEquals(2, b.compileStats().compiles(), "the kept compiled model died with its child: compiled again");
    }
  }
}
