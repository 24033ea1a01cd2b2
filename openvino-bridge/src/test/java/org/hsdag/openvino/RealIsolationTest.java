package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
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
 * The real runtime in its child process: a child stopped (SIGSTOP) gives no answer and the
 * measurement fails at its deadline; a child that crashes (SIGSEGV) fails the measurement as
 * crashed; either way the next measurement runs on a fresh child. Asserts what happened, never
 * how long it took.
 */
@Tag("openvino")
class RealIsolationTest {
  private static final MeasurementProtocol FEW = new MeasurementProtocol(1, 3, Statistic.MEDIAN, 1, 0);

  @TempDir
  Path dir;
  private OpGraph graph;
  private Path xml;

  @BeforeEach
  void model() throws Exception {
    RealOpenVino.require();
    xml = SelfTestModel.write(dir);
    graph = new IrReader().read(xml);
  }

  private static OpenVinoOptions twoDevices() {
    return new OpenVinoOptions(null, null, 0L, Map.of(), List.of(new TestDevice("CPU2", 1, "f32")));
  }

  private static void signal(long pid, String sig) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).inheritIO().start();
    assertEquals(0, kill.waitFor(), "kill -" + sig + " " + pid);
  }

  /** The child's thread that serves requests, by its name in the process table. */
  private static long servingThread(long pid) throws Exception {
    try (java.util.stream.Stream<Path> tasks = java.nio.file.Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path t : tasks.toList()) {
        if (java.nio.file.Files.readString(t.resolve("comm")).strip().equals(RuntimeChildMain.SERVING_THREAD)) {
          return Long.parseLong(t.getFileName().toString());
        }
      }
    }
    throw new IllegalStateException("no thread " + RuntimeChildMain.SERVING_THREAD + " in " + pid);
  }

  private static boolean waitingForTheChild(Thread t) {
    return java.util.Arrays.stream(t.getStackTrace())
        .anyMatch(f -> f.getClassName().equals(RuntimeChild.class.getName()) && f.getMethodName().equals("call"));
  }

  @Test
  void aStoppedChildFailsTheMeasurementAtItsDeadlineAndTheNextOneRunsOnAFreshChild() throws Exception {
    try (OpenVinoBackend b = OpenVinoBackend.open(twoDevices()).bind(graph, xml)) {
      assertTrue(b.runtimePid().isPresent(), "the runtime runs in a child");
      Placement split = SelfTestModel.mixedPlacement(graph, "CPU", "CPU2");
      assertTrue(b.measure(graph, split, FEW).ok(), "a first measurement before any fault");
      long stopped = b.runtimePid().getAsLong();
      b.measureTimeout(Duration.ofSeconds(2));
      signal(stopped, "STOP");
      Measurement m = b.measure(graph, split, FEW);
      assertFalse(m.ok());
      assertTrue(m.reason().startsWith("no answer in 2 s (the runtime was ended)"), m.reason());
      assertFalse(ProcessHandle.of(stopped).map(ProcessHandle::isAlive).orElse(false), "the stopped child was ended");
      Measurement again = b.measure(graph, split, FEW);
      assertTrue(again.ok(), again.reason());
      assertNotEquals(stopped, b.runtimePid().getAsLong(), "a fresh child");
      assertEquals(2, again.subModels(), "the test device was registered again on the fresh child");
    }
  }

  @Test
  void aCrashedChildFailsTheMeasurementAsCrashedAndTheNextOneRunsOnAFreshChild() throws Exception {
    try (OpenVinoBackend b = OpenVinoBackend.open(twoDevices()).bind(graph, xml)) {
      Placement cpu = Placement.allOn(DeviceSet.of("CPU", "CPU2"), graph.nodeCount(), "CPU");
      assertTrue(b.measure(graph, cpu, FEW).ok());
      long crashed = b.runtimePid().getAsLong();
      // Stopped, so the measurement surely waits for its answer; then a segmentation fault in the thread that makes the
      // native calls, and continued: that thread crashes before it can answer.
      long tid = servingThread(crashed);
      signal(crashed, "STOP");
      Thread measuring = Thread.currentThread();
      Thread crash = new Thread(() -> {
        try {
          for (int i = 0; i < 6000 && !waitingForTheChild(measuring); i++) {
            Thread.sleep(10);
          }
          Process p = new ProcessBuilder("python3", "-c", "import ctypes; ctypes.CDLL(None).syscall(234, "
              + crashed + ", " + tid + ", 11)").inheritIO().start(); // tgkill(pid, tid, SIGSEGV)
          p.waitFor();
          signal(crashed, "CONT");
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      crash.start();
      Measurement m = b.measure(graph, cpu, FEW);
      crash.join();
      assertFalse(m.ok());
      assertTrue(m.reason().startsWith("crashed the runtime (signal 11, SIGSEGV)"), m.reason());
      Measurement again = b.measure(graph, cpu, FEW);
      assertTrue(again.ok(), again.reason());
      assertNotEquals(crashed, b.runtimePid().getAsLong());
      assertEquals(2, b.compileStats().compiles(), "the kept compiled model died with its child: compiled again");
    }
  }
}
