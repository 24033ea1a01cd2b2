package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.ir.OpGraph;
import org.junit.jupiter.api.Test;

/**
 * The real backend's cost-model build over {@link ScriptedRuntime}: each part is handed over as soon as it is
 * measured, and a build continued from a saved part profiles nothing again and measures only the designed splits
 * it lacks.
 */
class ProfiledCostModelsTest {
  private static final String DESIGN_INFER = "infer " + KernelProfiles.DESIGN_PROTOCOL.warmupRuns() + "+"
      + KernelProfiles.DESIGN_PROTOCOL.runs();
  private static final String PROFILING_INFER = "infer 1+" + KernelProfiles.PROFILING_RUNS;

  private final OpGraph graph = SelfTestModel.graph();

  private ScriptedRuntime runtime() {
    ScriptedRuntime rt = new ScriptedRuntime(graph, "CPU", "GPU.1");
    rt.profileByDevice.put("HETERO:CPU,GPU.1", List.of(ran("conv1", 300), ran("fc", 50)));
    rt.profileByDevice.put("HETERO:GPU.1,CPU", List.of(ran("conv1", 90), ran("fc", 40)));
    return rt;
  }

  private OpenVinoBackend backend(ScriptedRuntime rt) {
    return new OpenVinoBackend(rt, OpenVinoOptions.DEFAULT).bind(graph, Path.of("selftest.xml"));
  }

  private static ProfilingRecord ran(String node, long micros) {
    return new ProfilingRecord(-1, node, "", "", ProfilingRecord.Status.EXECUTED, micros, micros);
  }

  private static long count(List<String> calls, String call) {
    return calls.stream().filter(call::equals).count();
  }

  @Test
  void eachPartIsHandedOverAsItIsMeasuredAndASavedPartIsNotMeasuredAgain() {
    ScriptedRuntime rt = runtime();
    List<String> handed = new ArrayList<>();
    String whole;
    try (OpenVinoBackend b = backend(rt)) {
      b.costModelProgress(graph, handed::add);
      assertTrue(b.costModelPending(graph));
      b.costModel(graph);
      whole = b.costModelMeasurements(graph).orElseThrow();
      assertFalse(b.costModelPending(graph));
    }
    long designed = count(rt.calls, DESIGN_INFER);
    assertTrue(designed > 3, rt.calls.toString());
    assertEquals(designed + 2, handed.size(), "the kernels, each designed split's measurement, then the fit");
    ProfiledKernels kernels = ProfiledKernels.fromJson(handed.get(0));
    assertFalse(kernels.fitted());
    assertEquals(0, kernels.design().measurements(), "the kernels alone, as soon as they are profiled");
    assertEquals(whole, handed.get(handed.size() - 1));
    assertTrue(ProfiledKernels.fromJson(whole).fitted());

    int stop = 3; // killed after the kernels and 3 designed-split measurements
    ScriptedRuntime again = runtime();
    try (OpenVinoBackend b = backend(again)) {
      b.reuseCostModelMeasurements(graph, handed.get(stop));
      assertTrue(b.costModelPending(graph), "the designed splits are not all measured");
      assertEquals("kernel times on CPU, GPU.1 and 3 of " + ProfiledKernels.fromJson(handed.get(stop)).design()
          .planned() + " designed-split measurements", b.costModelMeasured(graph).orElseThrow());
      b.costModel(graph);
      assertEquals(0, count(again.calls, PROFILING_INFER), "the kernels are not profiled again: " + again.calls);
      assertEquals(designed - stop, count(again.calls, DESIGN_INFER), "only the designed splits not saved");
      ProfiledKernels done = ProfiledKernels.fromJson(b.costModelMeasurements(graph).orElseThrow());
      assertTrue(done.fitted());
      assertTrue(b.costModelMeasured(graph).orElseThrow().contains("and the fit to "), b.costModelMeasured(graph)
          .orElseThrow());
    }

    ScriptedRuntime third = runtime();
    try (OpenVinoBackend b = backend(third)) {
      b.reuseCostModelMeasurements(graph, whole);
      assertFalse(b.costModelPending(graph), "a finished build is reused whole");
      b.costModel(graph);
      assertEquals(0, count(third.calls, PROFILING_INFER) + count(third.calls, DESIGN_INFER), third.calls.toString());
    }
  }

  @Test
  void theNoiseOfTheDesignedRunsIsTheMedianHalfSpreadOfTheirRepeats() {
    int[] ops = {0, 1};
    DesignSamples design = new DesignSamples(3, List.of(
        new DesignSamples.Sampled("a", ops, List.of(100.0, 102.0, 98.0), null),
        new DesignSamples.Sampled("b", ops, List.of(100.0, 110.0, 90.0), null),
        new DesignSamples.Sampled("c", ops, List.of(200.0, 300.0, 100.0), null),
        new DesignSamples.Sampled("once", ops, List.of(50.0), null),
        new DesignSamples.Sampled("refused", ops, List.of(), "refused")));
    // Half-spreads 2 %, 10 % and 50 %; a run measured once or refused has none.
    assertEquals(0.10, ProfiledCostModels.repeatNoise(design), 1e-12);
    assertTrue(Double.isNaN(ProfiledCostModels.repeatNoise(DesignSamples.NONE)));
  }
}
