package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.Placement;
import org.hsdag.cost.CostModel;
import org.hsdag.cost.DeviceModel;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.OpClass;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.sim.SimBackend;
import org.hsdag.cost.SimGraph;
import org.hsdag.sim.SimOptions;
import org.hsdag.testkit.Samples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CalibrationFitTest {
  private static final DeviceProfile PAPER = DeviceProfile.load("paper");

  private static CalibrationRecords fixture() throws URISyntaxException {
    return CalibrationRecords
        .read(Path.of(CalibrationFitTest.class.getResource("calibration-selftest-synthetic.json").toURI()));
  }

  @Test
  void theSyntheticFixtureIsLabelledAsSuch() throws Exception {
    assertTrue(fixture().source().startsWith("synthetic:"), "test data must never pass for measurements");
  }

  /** A device that runs alone slower than inside a split (a 1-thread test device) keeps that factor in its profile. */
  @Test
  void aFittedAloneFactorReachesTheProfileAndTheSimulatorPricesTheDeviceAloneWithIt() throws Exception {
    OpGraph g = SelfTestModel.graph();
    CalibrationFit fit = new CalibrationFit(g, PAPER, ShapeAssumption.DEFAULT);
    CalibrationFit.Result result = fit.fit(fixture());
    CalibrationFit.DeviceFit first = result.devices().get(0);
    CalibrationFit.DeviceFit twice = new CalibrationFit.DeviceFit(first.device(), first.fullName(), first.baseDevice(),
        first.launchOverheadUs(), first.subModelOverheadUs(), first.efficiency(), first.fittedClasses(),
        first.linkLatencyUs(), first.linkBandwidthGBs(), first.matchedRecords(), first.unmatchedRecords(), 2.0);
    List<CalibrationFit.DeviceFit> devices = new java.util.ArrayList<>(result.devices());
    devices.set(0, twice);
    DeviceProfile plain = fit.toProfile("plain", "", List.of(), result);
    DeviceProfile alone = fit.toProfile("alone", "", List.of(), new CalibrationFit.Result(devices, result.notes()));
    assertEquals(1.0, plain.device(first.device()).aloneFactor());
    assertEquals(2.0, alone.device(first.device()).aloneFactor());
    double before;
    double after;
    try (SimBackend a = new SimBackend(plain, SimOptions.exact());
        SimBackend b = new SimBackend(alone, SimOptions.exact())) {
      before = a.latencyMillis(g, Placement.allOn(a.deviceSet(), g.nodeCount(), first.device()));
      after = b.latencyMillis(g, Placement.allOn(b.deviceSet(), g.nodeCount(), first.device()));
    }
    assertTrue(after > 1.3 * before, "alone, the device's kernels take twice as long: " + before + " -> " + after);
  }

  @Test
  void fittedProfileReproducesEverySingleDeviceLatencyOnTheSimulator(@TempDir Path dir) throws Exception {
    OpGraph g = SelfTestModel.graph();
    CalibrationRecords recs = fixture();
    CalibrationFit fit = new CalibrationFit(g, PAPER, ShapeAssumption.DEFAULT);
    CalibrationFit.Result result = fit.fit(recs);
    DeviceProfile profile = fit.toProfile("my-machine", "test", List.of(recs.source()), result);

    Path file = dir.resolve("my-machine.json");
    Files.writeString(file, profile.toJson());
    DeviceProfile loaded = DeviceProfile.load(file.toString());
    assertEquals(profile, loaded, "the written profile is a valid simulator profile");

    SimBackend sim = new SimBackend(loaded, SimOptions.exact());
    for (CalibrationRecords.DeviceRun run : recs.devices()) {
      double simulated = sim.latencyMillis(g, Placement.allOn(sim.deviceSet(), g.nodeCount(), run.device()));
      assertEquals(run.latencyMillis(), simulated, 0.01 * run.latencyMillis(), run.device());
    }
  }

  @Test
  void fittedLinkCostExplainsTheSplitRuns() throws Exception {
    OpGraph g = SelfTestModel.graph();
    CalibrationRecords recs = fixture();
    CalibrationFit fit = new CalibrationFit(g, PAPER, ShapeAssumption.DEFAULT);
    CalibrationFit.Result result = fit.fit(recs);
    DeviceProfile profile = fit.toProfile("my-machine", "test", List.of(), result);
    DeviceModel gpu = profile.device("GPU.1");
    assertTrue(gpu.linkLatencyUs() >= 0 && gpu.linkBandwidthGBs() >= 0, gpu.toString());
    assertEquals(0.0, profile.device("CPU").linkLatencyUs(), "host memory needs no copy");

    SimBackend sim = new SimBackend(profile, SimOptions.exact());
    SimGraph sg = SimGraph.build(g, profile, new CostModel(ShapeAssumption.DEFAULT));
    List<String> errors = new ArrayList<>();
    for (CalibrationRecords.SplitRun s : recs.splits()) {
      Placement p = fit.splitPlacement(sg, s.device(), s.prefixKernels());
      double simulated = sim.latencyMillis(g, p);
      errors.add(String.format("prefix %d: %.4f vs %.4f", s.prefixKernels(), simulated, s.latencyMillis()));
      assertEquals(s.latencyMillis(), simulated, 0.15 * s.latencyMillis(), errors.toString());
    }
  }

  @Test
  void recordsMatchedByFriendlyNameAndPluginInternalNodesCounted() throws Exception {
    CalibrationFit.Result result = new CalibrationFit(SelfTestModel.graph(), PAPER, ShapeAssumption.DEFAULT)
        .fit(fixture());
    CalibrationFit.DeviceFit cpu = result.devices().get(0);
    assertEquals("CPU", cpu.device());
    assertEquals(5, cpu.matchedRecords(), "conv1, conv2, pool, fc, prob");
    assertEquals(1, cpu.unmatchedRecords(), "input_reorder");
    assertEquals(List.of("CONVOLUTION"), cpu.fittedClasses(), "only classes with two or more records");
    assertEquals(PAPER.device("CPU").efficiencyOf(OpClass.MATMUL), cpu.efficiency().get("MATMUL"),
        "unfitted classes keep the base value");
    assertEquals(2, result.devices().get(1).unmatchedRecords());
  }

  @Test
  void recoversTheEfficienciesThatGeneratedTheRecords() {
    OpGraph g = new IrReader().read(Samples.irSample("resnet-50.xml"));
    // "Truth": the paper profile with a different CPU; records generated from it without noise.
    DeviceModel c = PAPER.device("CPU");
    java.util.Map<String, Double> eff = new java.util.LinkedHashMap<>(c.efficiency());
    eff.put("CONVOLUTION", 0.3);
    eff.put("POINTWISE_CONVOLUTION", 0.2);
    DeviceModel truthCpu = new DeviceModel(c.name(), c.fullName(), c.kind(), c.peakGflops(), c.memoryBandwidthGBs(),
        c.launchOverheadUs(), 40.0, 0, 0, eff, c.unsupportedOps(), c.dynamicShapes(), false);
    DeviceProfile truth = new DeviceProfile("truth", "", List.of(), PAPER.requestOverheadUs(), List.of(truthCpu));
    SimGraph sg = SimGraph.build(g, truth, new CostModel(ShapeAssumption.DEFAULT));
    List<ProfilingRecord> records = new ArrayList<>();
    for (int v = 0; v < g.nodeCount(); v++) {
      if (sg.isCompute(v)) {
        records.add(
            new ProfilingRecord(-1, g.node(v).name(), g.node(v).type(), "synthetic", ProfilingRecord.Status.EXECUTED,
                Math.round(sg.kernelMicros(v, 0)), 0));
      }
    }
    double wall = new SimBackend(truth, SimOptions.exact()).latencyMillis(g, Placement.allOn(
        new SimBackend(truth, SimOptions.exact()).deviceSet(), g.nodeCount(), "CPU"));
    CalibrationRecords recs = new CalibrationRecords("resnet-50.xml", "synthetic: generated from a known profile",
        List.of(new CalibrationRecords.DeviceRun("CPU", "test", wall, records)), List.of());

    CalibrationFit.DeviceFit fit = new CalibrationFit(g, PAPER, ShapeAssumption.DEFAULT).fit(recs).devices().get(0);
    assertEquals(0.3, fit.efficiency().get("CONVOLUTION"), 0.03);
    assertEquals(0.2, fit.efficiency().get("POINTWISE_CONVOLUTION"), 0.02);
  }

  @Test
  void aWallLatencyBelowTheSimulatedKernelsLowersTheLaunchOverheadInstead() throws Exception {
    OpGraph g = SelfTestModel.graph();
    CalibrationRecords f = fixture();
    // GPU.1 measured faster than its nine kernels at the 10th-percentile launch cost allow.
    CalibrationRecords.DeviceRun gpu = f.run("GPU.1");
    CalibrationRecords fast = new CalibrationRecords(f.model(), f.source(), List.of(f.run("CPU"),
        new CalibrationRecords.DeviceRun("GPU.1", gpu.fullName(), 0.100, gpu.records())), List.of());
    CalibrationFit fit = new CalibrationFit(g, PAPER, ShapeAssumption.DEFAULT);
    CalibrationFit.Result result = fit.fit(fast);
    CalibrationFit.DeviceFit fitted = result.devices().get(1);
    assertTrue(fitted.launchOverheadUs() < 11.0, "below the smallest GPU record: " + fitted);
    assertTrue(result.notes().stream().anyMatch(n -> n.startsWith("GPU.1: launch overhead lowered")),
        result.notes().toString());
    SimBackend sim = new SimBackend(fit.toProfile("x", "", List.of(), result), SimOptions.exact());
    assertEquals(0.100, sim.latencyMillis(g, Placement.allOn(sim.deviceSet(), g.nodeCount(), "GPU.1")), 0.001);
  }

  @Test
  void recordsWithoutAnyDeviceRunAreRejected() {
    CalibrationRecords empty = new CalibrationRecords("m.xml", "synthetic", List.of(), List.of());
    assertThrows(IllegalArgumentException.class,
        () -> new CalibrationFit(SelfTestModel.graph(), PAPER, ShapeAssumption.DEFAULT).fit(empty));
  }

  @Test
  void recordsRoundTripThroughJson(@TempDir Path dir) throws Exception {
    CalibrationRecords recs = fixture();
    Path f = dir.resolve("records.json");
    recs.write(f);
    assertEquals(recs, CalibrationRecords.read(f));
    Files.writeString(f, "{\"model\": \"x\", \"devices\": [{\"device\": \"CPU\", \"latencyMillis\": 0}]}");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CalibrationRecords.read(f));
    assertTrue(e.getMessage().contains("latencyMillis"), e.getMessage());
  }

  @Test
  void aClassEfficiencyThatWouldSitAtAClampIsNotBelieved() throws Exception {
    CalibrationRecords f = fixture();
    CalibrationRecords.DeviceRun cpu = f.run("CPU");
    // Records 1e5 times too long for their FLOPs (as fused kernels whose FLOPs the class does not see).
    List<ProfilingRecord> slow = cpu.records().stream().map(r -> new ProfilingRecord(r.subgraph(), r.nodeName(),
        r.nodeType(), r.execType(), r.status(), r.realTimeMicros() * 100_000, r.cpuTimeMicros())).toList();
    CalibrationRecords recs = new CalibrationRecords(f.model(), f.source(),
        List.of(new CalibrationRecords.DeviceRun("CPU", cpu.fullName(), cpu.latencyMillis() * 100_000, slow)),
        List.of());
    CalibrationFit.Result result = new CalibrationFit(SelfTestModel.graph(), PAPER, ShapeAssumption.DEFAULT).fit(recs);
    CalibrationFit.DeviceFit fit = result.devices().get(0);
    assertTrue(fit.fittedClasses().isEmpty(), fit.fittedClasses().toString());
    for (java.util.Map.Entry<String, Double> e : fit.efficiency().entrySet()) {
      assertEquals(PAPER.device("CPU").efficiency().get(e.getKey()), e.getValue(),
          e.getKey() + " keeps the base value");
    }
    assertTrue(result.notes().stream().anyMatch(n -> n.startsWith("CPU: CONVOLUTION efficiency")
        && n.contains("is outside [0.001, 1]")), result.notes().toString());
  }

  @Test
  void designedHeteroRunsGiveTheStartAndCopyCostsThatProducedThem() throws Exception {
    OpGraph g = SelfTestModel.graph();
    CalibrationRecords f = fixture();
    CalibrationFit fit = new CalibrationFit(g, PAPER, ShapeAssumption.DEFAULT);
    DeviceProfile p0 = fit.toProfile("p0", "", List.of(), fit.fit(f));
    // "Truth": the fitted kernels, with known starts and copies.
    List<DeviceModel> devs = new ArrayList<>();
    double[][] costs = {{200, 10, 1}, {300, 30, 5}};
    for (int d = 0; d < 2; d++) {
      DeviceModel m = p0.devices().get(d);
      devs.add(new DeviceModel(m.name(), m.fullName(), m.kind(), m.peakGflops(), m.memoryBandwidthGBs(),
          m.launchOverheadUs(), costs[d][0], costs[d][1], costs[d][2], m.efficiency(), m.unsupportedOps(),
          m.dynamicShapes(), m.fusion()).withMemory(m.memory()));
    }
    DeviceProfile truth = new DeviceProfile("truth", "", List.of(), p0.requestOverheadUs(), devs);
    List<String> names = List.of("CPU", "GPU.1");
    org.hsdag.cost.HeteroCostModel hm = SimGraph.build(g, truth, new CostModel(ShapeAssumption.DEFAULT)).costModel()
        .withDevices(names);
    List<CalibrationRecords.DesignedRun> designed = new ArrayList<>();
    for (org.hsdag.cost.HeteroSplitDesign.Designed d : org.hsdag.cost.HeteroSplitDesign.placements(hm)) {
      designed.add(new CalibrationRecords.DesignedRun(d.label(), names, d.deviceOfOp(),
          hm.evaluate(d.deviceOfOp()).micros() / 1000));
    }
    CalibrationRecords recs = new CalibrationRecords(f.model(), f.source(), f.devices(), List.of(), designed);
    CalibrationFit.Result result = fit.fit(recs);
    DeviceProfile calibrated = fit.toProfile("c", "", List.of(), result);
    for (int d = 0; d < 2; d++) {
      DeviceModel m = calibrated.devices().get(d);
      // A chain's splits cannot tell a start from its sub-model's input and output copies: the start takes them in.
      double start = m.subModelOverheadUs();
      assertTrue(start >= costs[d][0] - 1 && start <= costs[d][0] + 2 * costs[d][1] + 1,
          m.name() + " start " + start + ": " + result.notes());
    }
    assertTrue(result.notes().stream().anyMatch(n -> n.startsWith("the calibrated profile's own error on its "
        + designed.size() + " designed HETERO runs: median 0.0 %, max 0.0 %")), result.notes().toString());
    assertTrue(result.notes().stream().noneMatch(n -> n.contains("no usable split run")), result.notes().toString());
  }
}
