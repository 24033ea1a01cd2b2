package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.testkit.TinyGraphs;
import org.hsdag.throughput.ObjectiveFigures;
import org.hsdag.throughput.ThroughputMeasuring;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Calibrate's throughput measurement on a scripted runtime, its fit into a profile, and the simulator using it. */
class CalibrationThroughputTest {
  private static final DeviceProfile PAPER = DeviceProfile.load("paper");

  @Test
  void eachDeviceAloneIsCompiledOncePerRequestCountAndTheCountsAreInterleaved() {
    OpGraph g = TinyGraphs.randomDag(6, 2, 1);
    ScriptedRuntime rt = new ScriptedRuntime(g, "CPU");
    rt.periodByRequests = new double[] {10, 5.5, 5};
    CalibrationRecords recs = new CalibrationRun(10, 0, 7, Map.of(), 3).measure(rt, g, Path.of("tiny.xml"),
        List.of("CPU"), PAPER, ShapeAssumption.DEFAULT);
    assertEquals(List.of(10.0, 5.5, 5.0), recs.run("CPU").throughputPeriodsMillis());
    assertEquals(List.of("compile throughput CPU 1", "compile throughput CPU 2", "compile throughput CPU 3"),
        rt.calls.stream().filter(c -> c.startsWith("compile throughput")).toList());
    List<String> infers = rt.calls.stream().filter(c -> c.contains(" in flight ")).toList();
    assertEquals(3 * CalibrationThroughput.PASSES, infers.size(), infers.toString());
    // A pass runs every count once, so load that changes during calibration falls on each count alike.
    assertEquals(List.of("infer 1 in flight 1+2", "infer 2 in flight 1+2", "infer 3 in flight 1+2"),
        infers.subList(0, 3));
    assertEquals(infers.subList(0, 3), infers.subList(3, 6));
  }

  @Test
  void aConstantTheReaderFoldedIsNotNamedInTheAffinities() {
    OpGraph g = TinyGraphs.randomDag(12, 2, 3);
    String folded = g.nodes().stream().filter(n -> n.type().equals("Const")).findFirst().orElseThrow().name();
    ScriptedRuntime rt = new ScriptedRuntime(g, "CPU", "CPU2");
    rt.foldedByReader = java.util.Set.of(folded);
    CalibrationRecords recs = new CalibrationRun(3, 0, 7, Map.of(), 0).measure(rt, g, Path.of("tiny.xml"),
        List.of("CPU", "CPU2"), PAPER, ShapeAssumption.DEFAULT);
    assertTrue(rt.calls.stream().anyMatch(c -> c.startsWith("affinities ")), rt.calls.toString());
    assertTrue(!rt.lastAffinities.containsKey(folded), "the folded constant is left to the runtime");
    assertEquals(2, recs.devices().size());
  }

  @Test
  void aRuntimeThatCannotProfileFailsAsTheRuntimeNotAsAnInternalError() {
    OpGraph g = TinyGraphs.randomDag(6, 2, 1);
    ScriptedRuntime rt = new ScriptedRuntime(g, "CPU");
    rt.compileError = "out of memory";
    OpenVinoException e = org.junit.jupiter.api.Assertions.assertThrows(OpenVinoException.class,
        () -> new CalibrationRun(3, 0, 7, Map.of(), 0).measure(rt, g, Path.of("tiny.xml"), List.of("CPU"), PAPER,
            ShapeAssumption.DEFAULT));
    assertTrue(e.getMessage().contains("out of memory"), e.getMessage());
  }

  @Test
  void recordsWithoutThroughputTimesKeepTheProfileAsItWas() throws Exception {
    CalibrationRecords old = new CalibrationRecords("m.xml", "synthetic: test",
        List.of(new CalibrationRecords.DeviceRun("CPU", "cpu", 1.0, List.of())), List.of());
    String json = old.toJson();
    assertTrue(json.contains("\"throughputPeriodsMillis\" : [ ]"), json);
    assertEquals(PAPER, CalibrationThroughput.withGains(PAPER, old, new ArrayList<>()));
  }

  @Test
  void theFittedGainMakesTheSimulatorPredictAUnsplitDeviceAsMeasuredAndLeavesSplitsAlone(@TempDir Path dir)
      throws Exception {
    OpGraph g = SelfTestModel.graph();
    CalibrationRecords fixture = CalibrationRecords.read(
        Path.of(CalibrationThroughputTest.class.getResource("calibration-selftest-synthetic.json").toURI()));
    List<CalibrationRecords.DeviceRun> runs = new ArrayList<>();
    for (CalibrationRecords.DeviceRun r : fixture.devices()) {
      List<Double> periods = r.device().equals("CPU") ? List.of(0.118, 0.0656, 0.0606) : List.of();
      runs.add(new CalibrationRecords.DeviceRun(r.device(), r.fullName(), r.latencyMillis(), r.records(), periods));
    }
    CalibrationRecords recs = new CalibrationRecords(fixture.model(), fixture.source(), runs, fixture.splits(),
        fixture.designed());
    CalibrationFit fit = new CalibrationFit(g, PAPER, ShapeAssumption.DEFAULT);
    List<String> notes = new ArrayList<>();
    DeviceProfile profile = CalibrationThroughput.withGains(fit.toProfile("m", "test", List.of(), fit.fit(recs)), recs,
        notes);
    assertEquals(List.of(1.0, 1.799, 1.947), profile.device("CPU").throughputGain());
    assertEquals(List.of(), profile.device("GPU.1").throughputGain(), "not measured: one request at a time");
    assertEquals(List.of("CPU alone, throughput hint, 1..3 requests in flight: inferences/s x1.00 x1.80 x1.95 over 1 "
        + "in flight (ms per inference 0.118 0.066 0.061)"), notes);
    assertEquals(notes, profile.sources(), "the profile says where its curve comes from");
    Path file = dir.resolve("m.json");
    Files.writeString(file, profile.toJson());
    SimBackend sim = new SimBackend(DeviceProfile.load(file.toString()), SimOptions.exact());

    Placement cpu = Placement.allOn(sim.deviceSet(), g.nodeCount(), "CPU");
    for (int n = 1; n <= 4; n++) {
      ObjectiveFigures f = ThroughputMeasuring.figuresOf(sim, n).orElseThrow().figures(g, cpu);
      double gain = n == 1 ? 1 : n == 2 ? 1.799 : 1.947;
      assertEquals(f.latencyMillis() / gain, f.periodMillis(), 1e-9, n + " in flight");
    }
    Placement gpu = Placement.allOn(sim.deviceSet(), g.nodeCount(), "GPU.1");
    ObjectiveFigures noGain = ThroughputMeasuring.figuresOf(sim, 3).orElseThrow().figures(g, gpu);
    assertTrue(noGain.periodMillis() < noGain.latencyMillis(), "only the host overhead overlaps, as before");
  }
}
