package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.SupportMatrix;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.HeteroAffinity;
import org.hsdag.placement.Placement;
import org.junit.jupiter.api.Test;

/** The backend's Java logic over {@link ScriptedRuntime} (no OpenVINO involved). */
class OpenVinoBackendTest {
  private final OpGraph graph = SelfTestModel.graph();
  private final DeviceSet devices = DeviceSet.of("CPU", "GPU.1");
  private final Path xml = Path.of("selftest.xml");

  private OpenVinoBackend backend(ScriptedRuntime rt, OpenVinoOptions options) {
    return new OpenVinoBackend(rt, options).bind(graph, xml);
  }

  @Test
  void measuresByTheProtocolAndNamesTheRealMachine() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "GPU.1");
    try (OpenVinoBackend b = backend(rt, OpenVinoOptions.DEFAULT.withSeed(42))) {
      Measurement m = b.measure(graph, SelfTestModel.mixedPlacement(graph, "CPU", "GPU.1"), MeasurementProtocol.PAPER);
      assertTrue(m.ok(), m.reason());
      assertEquals(10, m.samplesMillis().length);
      assertEquals(3.0, m.latencyMillis(), 1e-12, "mean of the last 5 samples");
      assertEquals(2, m.subModels());
      assertEquals("openvino", m.backend());
      assertFalse(b.simulated());
      assertEquals("OpenVINO 2025.1.0 on CPU=Test CPU, GPU.1=Test GPU.1", m.profile());
      assertTrue(rt.calls.contains("compile HETERO:CPU,GPU.1"), rt.calls.toString());
      assertTrue(rt.calls.contains("fill 42"), rt.calls.toString());
      assertTrue(rt.calls.contains("infer 0+10"), rt.calls.toString());
      assertFalse(rt.calls.contains("close compiled"), "kept for the next measurement of the placement");
    }
    assertTrue(rt.calls.contains("close compiled"), "compiled models are released when the backend closes");
  }

  @Test
  void sendsAnAffinityForEveryNodeWithConstantsOnTheirConsumersDevice() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "GPU.1");
    try (OpenVinoBackend b = backend(rt, OpenVinoOptions.DEFAULT)) {
      int[] d = SelfTestModel.mixedPlacement(graph, "CPU", "GPU.1").deviceOf();
      d[graph.indexOf("conv2/weights")] = 0;
      b.measure(graph, new Placement(devices, d), MeasurementProtocol.PAPER);
      Map<String, String> sent = rt.lastAffinities;
      assertEquals(graph.nodeCount(), sent.size());
      for (OpNode n : graph.nodes()) {
        assertTrue(sent.containsKey(n.name()), n.name());
      }
      assertEquals("GPU.1", sent.get("conv2/weights"));
    }
  }

  @Test
  void aCompileErrorIsAFailedMeasurementWithOpenVinosMessage() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "GPU.1");
    rt.compileError = "[GPU] Operation: fc of type MatMul(opset1) is not supported";
    try (OpenVinoBackend b = backend(rt, OpenVinoOptions.DEFAULT)) {
      Measurement m = b.measure(graph, Placement.allOn(devices, graph.nodeCount(), "GPU.1"), MeasurementProtocol.PAPER);
      assertFalse(m.ok());
      assertTrue(m.reason().contains("is not supported"), m.reason());
      assertEquals("openvino", m.backend());
    }
  }

  @Test
  void measureWithCostGivesTheSameMeasurementAndChargesNoPhaseItNeverReached() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "GPU.1");
    try (OpenVinoBackend b = backend(rt, OpenVinoOptions.DEFAULT)) {
      MeasurementCost ok = b.measureWithCost(graph, SelfTestModel.mixedPlacement(graph, "CPU", "GPU.1"),
          MeasurementProtocol.PAPER);
      assertTrue(ok.measurement().ok(), ok.measurement().reason());
      assertEquals(3.0, ok.measurement().latencyMillis(), 1e-12);
      assertTrue(ok.prepareMillis() >= 0 && ok.compileMillis() >= 0 && ok.inferMillis() >= 0, ok.toString());

      rt.compileError = "[GPU] Operation: fc of type MatMul(opset1) is not supported";
      MeasurementCost failed = b.measureWithCost(graph,
          Placement.allOn(devices, graph.nodeCount(), "GPU.1"),
          MeasurementProtocol.PAPER);
      assertFalse(failed.measurement().ok());
      assertEquals(0.0, failed.inferMillis(), "a compile that failed ran no inference");
    }
    try (OpenVinoBackend b = backend(new ScriptedRuntime(graph, "CPU"), OpenVinoOptions.DEFAULT)) {
      MeasurementCost refused = b.measureWithCost(graph,
          SelfTestModel.mixedPlacement(graph, "CPU", "GPU.1"),
          MeasurementProtocol.PAPER);
      assertFalse(refused.measurement().ok());
      assertEquals(0.0, refused.compileMillis(), "refused before compiling");
      assertEquals(0.0, refused.inferMillis());
    }
  }

  @Test
  void aDeviceThisMachineLacksFailsBeforeCompiling() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU");
    try (OpenVinoBackend b = backend(rt, OpenVinoOptions.DEFAULT)) {
      Measurement m = b.measure(graph, SelfTestModel.mixedPlacement(graph, "CPU", "GPU.1"), MeasurementProtocol.PAPER);
      assertFalse(m.ok());
      assertTrue(m.reason().contains("GPU.1 is not available"), m.reason());
      assertTrue(rt.calls.stream().noneMatch(c -> c.startsWith("compile")), rt.calls.toString());
    }
  }

  @Test
  void aModelFileThatDiffersFromTheGraphFailsBeforeCompiling() {
    // The runtime reads a model whose node names are not the graph's.
    ScriptedRuntime rt = new ScriptedRuntime(renamed(SelfTestModel.graph()), "CPU", "GPU.1");
    try (OpenVinoBackend b = backend(rt, OpenVinoOptions.DEFAULT)) {
      Measurement m = b.measure(graph, Placement.allOn(devices, graph.nodeCount(), "CPU"), MeasurementProtocol.PAPER);
      assertFalse(m.ok());
      assertTrue(m.reason().contains("differ"), m.reason());
      assertTrue(rt.calls.stream().noneMatch(c -> c.startsWith("compile")), rt.calls.toString());
    }
  }

  @Test
  void anUnboundGraphIsAFailedMeasurementNotACrash() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU");
    try (OpenVinoBackend b = new OpenVinoBackend(rt, OpenVinoOptions.DEFAULT)) {
      Measurement m = b.measure(graph, Placement.allOn(DeviceSet.of("CPU"), graph.nodeCount(), "CPU"),
          MeasurementProtocol.PAPER);
      assertFalse(m.ok());
      assertTrue(m.reason().contains("bind(graph, model.xml)"), m.reason());
      assertThrows(IllegalStateException.class, () -> b.supports(graph, DeviceSet.of("CPU")));
    }
  }

  @Test
  void aMeasurementOverTheTimeoutFailsWithTheLimit() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU");
    rt.blockInference = new CountDownLatch(1);
    try (OpenVinoBackend b = backend(rt, OpenVinoOptions.DEFAULT.withTimeout(Duration.ofMillis(200)))) {
      Measurement m = b.measure(graph, Placement.allOn(DeviceSet.of("CPU"), graph.nodeCount(), "CPU"),
          MeasurementProtocol.PAPER);
      // Release the stuck inference before close(), which waits for it (its handles are in use).
      rt.blockInference.countDown();
      assertFalse(m.ok());
      assertEquals("timed out after 200 ms while inferring (compile + " + MeasurementProtocol.PAPER.describe() + ")",
          m.reason());
    }
  }

  @Test
  void aThroughputMeasurementOverTheTimeoutFailsNamingTheStageItReached() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU");
    Placement cpu = Placement.allOn(DeviceSet.of("CPU"), graph.nodeCount(), "CPU");
    String what = "(compile + 2 requests in flight, " + MeasurementProtocol.PAPER.describe() + ")";
    try (OpenVinoBackend b = backend(rt, OpenVinoOptions.DEFAULT.withTimeout(Duration.ofMillis(200)))) {
      rt.blockInference = new CountDownLatch(1);
      Measurement inferring = b.measureThroughput(graph, cpu, MeasurementProtocol.PAPER, 2);
      rt.blockInference.countDown();
      assertFalse(inferring.ok());
      assertEquals("timed out after 200 ms while inferring " + what, inferring.reason());
      assertEquals("openvino", inferring.backend());
      assertTrue(rt.calls.contains("infer 2 in flight 0+10"), rt.calls.toString());

      // A compile that overruns fails naming the compile.
      rt.blockCompile = new CountDownLatch(1);
      Measurement compiling = b.measureThroughput(graph, cpu, MeasurementProtocol.PAPER, 2);
      rt.blockCompile.countDown();
      assertFalse(compiling.ok());
      assertEquals("timed out after 200 ms while compiling " + what, compiling.reason());

      // Within the limit a throughput measurement is the runtime's as without one.
      Measurement ok = b.measureThroughput(graph, cpu, MeasurementProtocol.PAPER, 2);
      assertTrue(ok.ok(), ok.reason());
      assertEquals(10, ok.samplesMillis().length);
    }
  }

  @Test
  void inputShapesAreAppliedOnceWhenTheModelIsRead() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU");
    OpenVinoOptions o = OpenVinoOptions.DEFAULT.withInputShapes(OpenVinoOptions.parseInputShapes("input=1,3,32,32"));
    try (OpenVinoBackend b = backend(rt, o)) {
      Placement p = Placement.allOn(DeviceSet.of("CPU"), graph.nodeCount(), "CPU");
      b.measure(graph, p, MeasurementProtocol.PAPER);
      b.measure(graph, p, MeasurementProtocol.PAPER);
      assertEquals(1, rt.calls.stream().filter(c -> c.equals("read selftest.xml")).count());
      assertTrue(rt.calls.contains("reshape 0 [1, 3, 32, 32]"), rt.calls.toString());
    }
  }

  @Test
  void supportFollowsQueryModelAndLetsStructuralNodesGoAnywhere() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "GPU.1");
    boolean[] gpu = new boolean[graph.nodeCount()];
    for (int v = 0; v < gpu.length; v++) {
      gpu[v] = !graph.node(v).name().equals("pool") && !graph.node(v).isConstant();
    }
    rt.support.put("GPU.1", gpu);
    try (OpenVinoBackend b = backend(rt, OpenVinoOptions.DEFAULT)) {
      SupportMatrix s = b.supports(graph, devices);
      assertFalse(s.allowed(graph.indexOf("pool"), 1));
      assertTrue(s.allowed(graph.indexOf("pool"), 0));
      assertTrue(s.allowed(graph.indexOf("conv2/weights"), 1), "constants follow their consumer");
      assertTrue(s.allowed(graph.indexOf("conv2"), 1));
    }
  }

  @Test
  void parsesInputShapesAndRejectsBadOnes() {
    Map<String, long[]> m = OpenVinoOptions.parseInputShapes("input_ids=1,128; attention_mask = 1,128");
    assertEquals(List.of("input_ids", "attention_mask"), List.copyOf(m.keySet()));
    assertEquals(128, m.get("attention_mask")[1]);
    assertThrows(IllegalArgumentException.class, () -> OpenVinoOptions.parseInputShapes("x=1,?"));
    assertThrows(IllegalArgumentException.class, () -> OpenVinoOptions.parseInputShapes("x"));
    assertThrows(IllegalArgumentException.class, () -> OpenVinoOptions.parseInputShapes("x=0"));
  }

  private static OpGraph renamed(OpGraph g) {
    OpGraph.Builder b = OpGraph.builder().setName(g.name());
    for (OpNode n : g.nodes()) {
      b.addNode(new OpNode(n.index(), n.id(), "renamed/" + n.name(), n.type(), n.version(), n.attributes(), n.inputs(),
          n.outputs(), n.rtInfoXml(), n.extraXml()));
    }
    g.edges().forEach(b::addEdge);
    return b.build();
  }

  private static ProfilingRecord ran(String node, long micros) {
    return new ProfilingRecord(-1, node, "", "", ProfilingRecord.Status.EXECUTED, micros, micros);
  }

  @Test
  void itsCostModelTakesEachOpsTimeFromThatDevicesProfilingRun() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "GPU.1");
    // On the GPU the plugin fused conv1's bias and activation into one kernel named after the last of them.
    // Each device is profiled inside HETERO (its last op on the other device), named first.
    rt.profileByDevice.put("HETERO:CPU,GPU.1",
        List.of(ran("conv1", 300), ran("conv1/add", 20), ran("conv1/relu", 10), ran("fc", 50)));
    rt.profileByDevice.put("HETERO:GPU.1,CPU", List.of(ran("conv1/relu", 90), ran("fc", 40), ran("reorder_0", 7)));
    rt.executedByDevice.put("HETERO:GPU.1,CPU",
        List.of(ExecutedNode.of("conv1/relu", "conv1,conv1/add,conv1/relu"), ExecutedNode.of("fc", "fc")));
    boolean[] gpu = new boolean[graph.nodeCount()];
    java.util.Arrays.fill(gpu, true);
    gpu[graph.indexOf("prob")] = false;
    rt.support.put("GPU.1", gpu);
    try (OpenVinoBackend b = backend(rt, OpenVinoOptions.DEFAULT)) {
      org.hsdag.cost.HeteroCostModel model = b.costModel(graph);
      assertEquals(List.of("CPU", "GPU.1"), model.deviceNames());
      // The profiled times, before the fit to the designed runs scales them.
      ProfiledKernels k = ProfiledKernels.fromJson(b.costModelMeasurements(graph).orElseThrow());
      double[][] us = k.micros();
      assertEquals(300, us[0][graph.indexOf("conv1")], 1e-9);
      assertEquals(20, us[0][graph.indexOf("conv1/add")], 1e-9, "on the CPU each record is its own op");
      assertEquals(90, us[1][graph.indexOf("conv1")], 1e-9, "the fused kernel's time goes to its first original layer");
      assertEquals(0, us[1][graph.indexOf("conv1/add")], 1e-9, "fused away on the GPU");
      assertEquals(40, us[1][graph.indexOf("fc")], 1e-9);
      assertTrue(k.fitted(), "start and copy costs fitted to the designed runs");
      int conv1 = opIndex(model, "conv1");
      assertEquals(300 * k.kernelScale()[0], model.micros(conv1, 0), 1e-6, "the model's times are the fitted scale's");
      int prob = opIndex(model, "prob");
      assertFalse(model.supported(prob, 1), "query_model said GPU.1 cannot run it");
      assertTrue(model.supported(prob, 0));
      assertTrue(rt.calls.contains("compile HETERO:CPU,GPU.1") && rt.calls.contains("compile HETERO:GPU.1,CPU"),
          rt.calls.toString());
      assertTrue(rt.calls.contains("infer 1+" + KernelProfiles.PROFILING_RUNS), rt.calls.toString());
      long compiles = rt.calls.stream().filter(c -> c.startsWith("compile")).count();
      assertTrue(b.costModel(graph) == model, "profiled and fitted once per graph");
      assertEquals(compiles, rt.calls.stream().filter(c -> c.startsWith("compile")).count());
      assertTrue(b.capability(org.hsdag.backend.CostModelSource.class).isPresent());
    }
  }

  @Test
  void aDeviceThatCannotProfileTheModelIsNamed() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "GPU.1");
    rt.compileError = "[GPU] Operation: fc of type MatMul(opset1) is not supported";
    try (OpenVinoBackend b = backend(rt, OpenVinoOptions.DEFAULT)) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> b.costModel(graph));
      assertTrue(e.getMessage().contains("on CPU") && e.getMessage().contains("not supported"), e.getMessage());
    }
  }

  private int opIndex(org.hsdag.cost.HeteroCostModel model, String name) {
    int node = graph.indexOf(name);
    for (int i = 0; i < model.opCount(); i++) {
      if (model.node(i) == node) {
        return i;
      }
    }
    throw new AssertionError(name + " is not a kernel of the cost model");
  }

  @Test
  void nodesOpenVinoMergedWhileReadingGetNoAffinityButAnotherModelIsNotHidden() {
    Map<String, String> placed = new java.util.LinkedHashMap<>();
    for (int i = 0; i < 20; i++) {
      placed.put("n" + i, i < 10 ? "CPU" : "GPU.1");
    }
    List<String> runtime = placed.keySet().stream().filter(n -> !n.equals("n3") && !n.equals("n12")).toList();
    HeteroAffinity.ModelFit fit = HeteroAffinity.fitToModel(placed, runtime);
    assertTrue(fit.problems().isEmpty(), fit.problems().toString());
    Map<String, String> kept = fit.affinities();
    assertEquals(18, kept.size());
    assertFalse(kept.containsKey("n3") || kept.containsKey("n12"));
    assertEquals("GPU.1", kept.get("n13"));
    List<String> other = List.of("n0", "n1", "x", "y");
    HeteroAffinity.ModelFit another = HeteroAffinity.fitToModel(placed, other);
    assertEquals(placed, another.affinities(), "most names missing: nothing is left out");
    assertFalse(another.problems().isEmpty(), "and the model file is said to differ");
    assertEquals(HeteroAffinity.checkAgainstModel(placed, other), another.problems());
  }
}
