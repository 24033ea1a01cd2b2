package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.hsdag.backend.CompileCaching;
import org.hsdag.backend.CompileStats;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.Statistic;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.junit.jupiter.api.Test;

/**
 * The backend's reuse of compiled models and its accounting, over {@link ScriptedRuntime} (no OpenVINO
 * involved). The simulator compiles nothing, so the reuse is the real backend's only: what it must keep
 * is that a reused model is measured exactly as a fresh one (same protocol, warm-up included, same
 * inputs), which these tests check call by call.
 */
class OpenVinoBackendCacheTest {
  private static final MeasurementProtocol PROTOCOL = new MeasurementProtocol(1, 10, Statistic.MEDIAN, 1, 0);
  private final OpGraph graph = SelfTestModel.graph();
  private final DeviceSet devices = DeviceSet.of("CPU", "GPU.1");
  private final Placement split = SelfTestModel.mixedPlacement(graph, "CPU", "GPU.1");
  private final Placement cpu = Placement.allOn(devices, graph.nodeCount(), "CPU");

  private OpenVinoBackend backend(ScriptedRuntime rt) {
    return new OpenVinoBackend(rt, OpenVinoOptions.DEFAULT.withSeed(7)).bind(graph, Path.of("selftest.xml"));
  }

  private static long count(ScriptedRuntime rt, String call) {
    return rt.calls.stream().filter(c -> c.equals(call)).count();
  }

  @Test
  void theSamePlacementMeasuredThreeTimesCompilesOnceAndRunsTheWarmUpEachTime() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "GPU.1");
    try (OpenVinoBackend b = backend(rt)) {
      List<Measurement> ms = List.of(b.measure(graph, split, PROTOCOL), b.measure(graph, split, PROTOCOL),
          b.measure(graph, split, PROTOCOL));
      ms.forEach(m -> assertTrue(m.ok(), m.reason()));
      assertEquals(1, count(rt, "compile HETERO:CPU,GPU.1"), rt.calls.toString());
      assertEquals(List.of(1, 1, 1), rt.inferredOn, "every measurement ran on the one compiled model");
      assertEquals(3, count(rt, "infer 1+10"), "the protocol's warm-up and runs on every call");
      assertEquals(1, count(rt, "fill 7"), "the kept model keeps its inputs");
      assertEquals(ms.get(0).latencyMillis(), ms.get(2).latencyMillis());
      CompileStats s = b.compileStats();
      assertEquals(1, s.compiles());
      assertEquals(2, s.hits());
      assertEquals(1, s.distinctPlacements());
      assertEquals(0, s.evictions());
      assertEquals("openvino", s.backend());
      assertTrue(s.describe().startsWith("real (openvino): 1 compile "), s.describe());
      assertEquals(0, count(rt, "close compiled"));
    }
    assertEquals(1, count(rt, "close compiled"), "released when the backend closes");
  }

  @Test
  void interleavedPlacementsCompileOnceEach() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "GPU.1");
    try (OpenVinoBackend b = backend(rt)) {
      for (int round = 0; round < 3; round++) {
        assertTrue(b.measure(graph, split, PROTOCOL).ok());
        assertTrue(b.measure(graph, cpu, PROTOCOL).ok());
      }
      assertEquals(List.of(1, 2, 1, 2, 1, 2), rt.inferredOn, "the rounds stay interleaved, each on its own model");
      CompileStats s = b.compileStats();
      assertEquals(2, s.compiles());
      assertEquals(2, s.distinctPlacements());
      assertEquals(4, s.hits());
    }
  }

  @Test
  void aZeroBudgetCompilesOnEveryMeasurementAsBefore() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "GPU.1");
    try (OpenVinoBackend b = backend(rt)) {
      b.capability(CompileCaching.class).orElseThrow().compileCacheBudget(0, "--compile-cache-mb 0");
      for (int i = 0; i < 3; i++) {
        assertTrue(b.measure(graph, split, PROTOCOL).ok());
        assertEquals(i + 1, count(rt, "close compiled"), "released after each measurement");
      }
      CompileStats s = b.compileStats();
      assertEquals(3, s.compiles());
      assertEquals(1, s.distinctPlacements());
      assertEquals(0, s.hits());
      assertEquals(3, count(rt, "fill 7"));
      assertTrue(s.describe().contains("budget 0 MB (--compile-cache-mb 0)"), s.describe());
    }
  }

  @Test
  void aFailedCompileOrInferenceIsNeverKept() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "GPU.1");
    try (OpenVinoBackend b = backend(rt)) {
      rt.compileError = "refused";
      assertFalse(b.measure(graph, split, PROTOCOL).ok());
      rt.compileError = null;
      rt.inferError = "infer failed";
      assertFalse(b.measure(graph, split, PROTOCOL).ok());
      assertEquals(1, count(rt, "close compiled"), "the model whose first inference failed is released");
      rt.inferError = null;
      assertTrue(b.measure(graph, split, PROTOCOL).ok());
      rt.inferError = "infer failed later";
      assertFalse(b.measure(graph, split, PROTOCOL).ok(), "a kept model that fails");
      assertEquals(2, count(rt, "close compiled"), "is released at once");
      rt.inferError = null;
      assertTrue(b.measure(graph, split, PROTOCOL).ok());
      CompileStats s = b.compileStats();
      assertEquals(4, s.compiles(), "compiled again after each failure");
      assertEquals(1, s.failedCompiles());
      assertEquals(1, s.hits());
    }
  }

  @Test
  void aSmallerBudgetReleasesWhatNoLongerFits() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "GPU.1");
    try (OpenVinoBackend b = backend(rt)) {
      assertTrue(b.measure(graph, split, PROTOCOL).ok());
      assertTrue(b.measure(graph, cpu, PROTOCOL).ok());
      b.compileCacheBudget(0, "--compile-cache-mb 0");
      assertEquals(2, count(rt, "close compiled"));
      assertEquals(2, b.compileStats().evictions());
      assertTrue(b.measure(graph, split, PROTOCOL).ok());
      assertEquals(3, b.compileStats().compiles());
    }
  }
}
