package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime child's protocol with a fake child ({@link FakeRuntimeChild}: a scripted runtime
 * behind the real socket and frames): calls and errors travel both ways, a hang is ended at the
 * deadline, a crash is named, and the backend goes on with a fresh child. No OpenVINO needed.
 */
class IsolatedRuntimeTest {
  @TempDir
  Path dir;
  private Path xml;
  private OpGraph graph;

  @BeforeEach
  void model() throws Exception {
    xml = SelfTestModel.write(dir);
    graph = new IrReader().read(xml);
  }

  /** A runtime whose children run the fake with {@code faults} in turn (the last one for every later child). */
  private IsolatedRuntime fake(String... faults) {
    List<String> left = new ArrayList<>(List.of(faults));
    return new IsolatedRuntime(socket -> RuntimeChild.javaCommand(FakeRuntimeChild.class.getName(),
        List.of(socket.toString(), xml.toString(), left.size() > 1 ? left.remove(0) : left.get(0))));
  }

  @Test
  void framesCarryEveryValueKindUnchanged() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<Object> values = new ArrayList<>(List.of(7L, "ok", 3, 2.5, true, "ü €", new long[] {1, -2},
        new double[] {0.5}, new float[] {1.5f}, new boolean[] {true, false}, List.of("a", List.of(1)),
        Map.of("n", "CPU")));
    values.add(null);
    Wire.write(out, values);
    List<Object> back = Wire.read(new ByteArrayInputStream(out.toByteArray()));
    assertEquals(values.size(), back.size());
    assertEquals(values.subList(0, 6), back.subList(0, 6));
    assertArrayEquals(new long[] {1, -2}, (long[]) back.get(6));
    assertArrayEquals(new double[] {0.5}, (double[]) back.get(7));
    assertArrayEquals(new float[] {1.5f}, (float[]) back.get(8));
    assertArrayEquals(new boolean[] {true, false}, (boolean[]) back.get(9));
    assertEquals(List.of("a", List.of(1)), back.get(10));
    assertEquals(Map.of("n", "CPU"), back.get(11));
    assertEquals(null, back.get(12));
    assertThrows(EOFException.class, () -> Wire.read(new ByteArrayInputStream(new byte[0])));
  }

  @Test
  void theServerAnswersCallsAndReportsErrorsByKind() throws Exception {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU");
    rt.compileError = "compiling on HETERO: refused";
    ByteArrayOutputStream requests = new ByteArrayOutputStream();
    Wire.write(requests, List.of(1L, "version", 0L));
    Wire.write(requests, List.of(2L, "readModel", 0L, xml.toString()));
    Wire.write(requests, java.util.Arrays.asList(3L, "compile", 1L, "CPU", null, false));
    Wire.write(requests, List.of(4L, "opNames", 99L));
    Wire.write(requests, List.of(5L, "no-such-call", 0L));
    ByteArrayOutputStream answers = new ByteArrayOutputStream();
    new RuntimeServer(rt).serve(new ByteArrayInputStream(requests.toByteArray()), answers);
    ByteArrayInputStream in = new ByteArrayInputStream(answers.toByteArray());
    assertEquals(List.of(1L, "ok", rt.version()), Wire.read(in));
    assertEquals(List.of(2L, "ok", 1L), Wire.read(in), "the model's handle");
    assertEquals(List.of(3L, "error", "openvino", "compiling on CPU: compiling on HETERO: refused"), Wire.read(in),
        "OpenVINO's message as the scripted runtime words it");
    assertEquals(List.of(4L, "error", "state", "no such handle 99 (closed?)"), Wire.read(in));
    assertEquals("other", Wire.read(in).get(2));
  }

  @Test
  void aModelReadAndMeasuredInTheChildAnswersAsInProcess() {
    try (IsolatedRuntime rt = fake("none")) {
      assertTrue(rt.isolated());
      assertTrue(rt.childPid().isPresent());
      assertNotEquals(ProcessHandle.current().pid(), rt.childPid().getAsLong());
      try (OpenVinoRuntime.Model m = rt.readModel(xml)) {
        assertEquals(graph.nodeCount(), m.opNames().size());
        OpenVinoRuntime.Compiled c = m.compile("CPU", null, false);
        c.fillInputs(1);
        assertArrayEquals(new double[] {5, 4, 3}, c.inferTimed(1, 3));
        assertArrayEquals(new float[] {0.25f, 0.75f}, c.outputs()[0]);
        c.close();
      }
    }
  }

  /**
   * Every call to the child is the runtime's time, whatever phase it falls in: reading the model when it is bound
   * (before any measure call) too, so the timed backend leaves it out of hsdag's own time.
   */
  @Test
  void theTimedBackendCountsEveryCallToTheChildAsTheRuntimes() {
    Placement cpu = Placement.allOn(DeviceSet.of("CPU", "GPU.1"), graph.nodeCount(), "CPU");
    try (OpenVinoBackend b = new OpenVinoBackend(fake("none"), OpenVinoOptions.DEFAULT)) {
      TimedBackend timed = new TimedBackend(b);
      b.bindModelFile(graph, xml);
      assertTrue(timed.measure(graph, cpu, MeasurementProtocol.PAPER).ok());
      Map<String, Long> busy = b.runtimeBusyNanos();
      assertTrue(busy.containsKey("readModel") && busy.containsKey("compile") && busy.containsKey("inferTimed"),
          busy::toString);
      TimedBackend.Totals t = timed.totals();
      double calls = (busy.get("readModel") + busy.get("compile") + busy.get("inferTimed")) / 1e6;
      assertTrue(t.runtimeMs() >= calls, t + " " + busy);
      assertTrue(t.openVinoMs() >= t.runtimeMs() && t.otherRuntimeMs() >= 0, t::toString);
      assertTrue(timed.shares(1.0).contains("reading the model, boundary shape inference and affinities"),
          timed.shares(1.0));
    }
  }

  @Test
  void aHangingChildIsEndedAtTheDeadlineAndTheBackendGoesOnWithAFreshOne() {
    Placement cpu = Placement.allOn(DeviceSet.of("CPU", "GPU.1"), graph.nodeCount(), "CPU");
    try (OpenVinoBackend b = new OpenVinoBackend(fake("hang", "none"), OpenVinoOptions.DEFAULT).bind(graph, xml)) {
      b.measureTimeout(Duration.ofMillis(500));
      long first = b.runtimePid().getAsLong();
      Measurement m = b.measure(graph, cpu, MeasurementProtocol.PAPER);
      assertFalse(m.ok());
      assertEquals("no answer in 500 ms (the runtime was ended) while inferring", m.reason());
      assertFalse(ProcessHandle.of(first).map(ProcessHandle::isAlive).orElse(false));
      b.measureTimeout(null); // the default rule: a fresh JVM on a busy machine needs no race against 500 ms
      Measurement again = b.measure(graph, cpu, MeasurementProtocol.PAPER);
      assertTrue(again.ok(), again.reason());
      assertNotEquals(first, b.runtimePid().getAsLong());
    }
  }

  @Test
  void aCrashingChildFailsTheMeasurementAsCrashedAndItsCompiledModelsAreForgotten() {
    Placement cpu = Placement.allOn(DeviceSet.of("CPU", "GPU.1"), graph.nodeCount(), "CPU");
    try (OpenVinoBackend b = new OpenVinoBackend(fake("crash", "none"), OpenVinoOptions.DEFAULT).bind(graph, xml)) {
      Measurement m = b.measure(graph, cpu, MeasurementProtocol.PAPER);
      assertFalse(m.ok());
      assertEquals("crashed the runtime (signal 11) while inferring", m.reason());
      Measurement again = b.measure(graph, cpu, MeasurementProtocol.PAPER);
      assertTrue(again.ok(), again.reason());
      assertEquals(2, b.compileStats().compiles(), "compiled again in the fresh child");
    }
  }

  @Test
  void aChildThatDiesWhileItStartsIsSaidAndReplacedWithoutFailingTheNextMeasurement() {
    Placement cpu = Placement.allOn(DeviceSet.of("CPU", "GPU.1"), graph.nodeCount(), "CPU");
    List<String> notes = new ArrayList<>();
    try (OpenVinoBackend b = new OpenVinoBackend(fake("crash", "exit", "none"), OpenVinoOptions.DEFAULT).bind(graph,
        xml)) {
      b.onRuntimeLost(notes::add);
      assertFalse(b.measure(graph, cpu, MeasurementProtocol.PAPER).ok());
      Measurement again = b.measure(graph, cpu, MeasurementProtocol.PAPER);
      assertTrue(again.ok(), again.reason());
      assertEquals(2, notes.size(), String.valueOf(notes));
      assertTrue(notes.get(1).startsWith("a fresh runtime child failed while it started"), notes.get(1));
    }
  }

  @Test
  void theCrashReasonNamesTheSignalFromTheJvmBannerOrTheExitStatus() {
    String banner = """
        #
        # A fatal error has been detected by the Java Runtime Environment:
        #
        #  SIGSEGV (0xb) at pc=0x0, pid=42, tid=43
        """;
    assertEquals("crashed the runtime (signal 11, SIGSEGV)", RuntimeChild.exitReason(134, banner));
    assertEquals("crashed the runtime (signal 9)", RuntimeChild.exitReason(137, ""));
    assertEquals("the runtime child exited with status 3", RuntimeChild.exitReason(3, ""));
  }

  @Test
  void theChildGetsAnAbsoluteClassPathSinceItRunsInItsOwnFolder() {
    List<String> cmd = RuntimeChild.javaCommand("Main", List.of("arg"));
    String cp = cmd.get(cmd.indexOf("-cp") + 1);
    for (String entry : cp.split(java.io.File.pathSeparator, -1)) {
      assertTrue(Path.of(entry).isAbsolute(), entry);
    }
    assertEquals(List.of("Main", "arg"), cmd.subList(cmd.size() - 2, cmd.size()));
  }

  @Test
  void theDefaultDeadlineFollowsTheSlowestMeasurementWithAFloor() {
    MeasurementLimit limit = new MeasurementLimit();
    assertEquals(MeasurementLimit.FIRST, limit.next(), "before any measurement succeeded");
    limit.succeeded(Duration.ofSeconds(1).toNanos());
    assertEquals(MeasurementLimit.FLOOR, limit.next());
    limit.succeeded(Duration.ofSeconds(12).toNanos());
    assertEquals(Duration.ofMinutes(2), limit.next());
    limit.fixed(Duration.ofSeconds(5));
    assertEquals(Duration.ofSeconds(5), limit.next());
    assertTrue(limit.rule().contains("--measure-timeout"), limit.rule());
    assertThrows(IllegalArgumentException.class, () -> limit.fixed(Duration.ZERO));
  }
}
