package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.Statistic;
import org.hsdag.backend.TestDevice;
import org.hsdag.cost.DeviceModel;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.HeteroCostModel;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.openvino.OpenVinoBackend;
import org.hsdag.openvino.OpenVinoOptions;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fitting what HETERO really costs on this CPU with CPU2 (the CPU plugin registered again): calibrate and the backend's own model. */
@Tag("openvino")
class RealCalibrationTest {
  @TempDir
  Path tmp;
  private Path model;

  @BeforeEach
  void writeModel() throws IOException {
    model = RealTinyModel.write(tmp);
  }

  @Test
  void calibrateFitsStartAndCopyCostsFromDesignedSplitsIntoAProfileTheSimulatorRuns() throws IOException {
    Path profile = tmp.resolve("this-cpu.json");
    CliRun r = CliRun.of("calibrate", model.toString(), "--devices", "CPU,CPU2", "--test-device", "CPU2", "-o",
        profile.toString(), "--runs", "3");
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    assertTrue(r.out().contains("designed HETERO runs: median"), r.out());
    DeviceProfile p = DeviceProfile.load(profile.toString());
    assertEquals(List.of("CPU", "CPU2"), p.devices().stream().map(DeviceModel::name).toList());
    // How much a split costs is this machine's timing; that calibrate either prices it or says it found it free is not.
    boolean priced = p.devices().stream().anyMatch(d -> d.subModelOverheadUs() > 0 || d.linkLatencyUs() > 0)
        || p.requestOverheadUs() > 0;
    assertTrue(priced || r.out().contains("splits look free"),
        "start, copy and request costs fitted, or the output says the fit found splits free: " + r.out());
    assertTrue(p.devices().stream().allMatch(d -> d.subModelOverheadUs() >= 0 && d.linkLatencyUs() >= 0
        && Double.isFinite(d.subModelOverheadUs()) && Double.isFinite(d.linkLatencyUs())), r.out());
    OpGraph g = new IrReader().read(model);
    int[] half = new int[g.nodeCount()];
    for (int v = g.nodeCount() / 2; v < half.length; v++) {
      half[v] = 1;
    }
    try (SimBackend sim = new SimBackend(p, SimOptions.exact())) {
      Measurement m = sim.measure(g, new Placement(DeviceSet.of("CPU", "CPU2"), half),
          new MeasurementProtocol(0, 1, Statistic.MEDIAN, 1, 0));
      assertTrue(m.ok() && m.latencyMillis() > 0, String.valueOf(m.reason()));
    }
  }

  @Test
  void calibrateReadsAndFeedsTheProfileDatabaseAsTuneDoes() {
    Path db = tmp.resolve("db");
    Path profile = tmp.resolve("p.json");
    String[] args = {"calibrate", model.toString(), "--devices", "CPU,CPU2", "--test-device", "CPU2", "-o",
        profile.toString(), "--runs", "2", "--requests", "0", "--cost-model-cache", db.toString()};
    CliRun first = CliRun.of(concat(args, "--profiled-runs", "2"));
    assertEquals(ExitCodes.OK, first.exitCode(), first.out() + first.err());
    assertTrue(first.err().contains("--profiled-runs is no longer used"), first.err());
    assertTrue(first.out().matches("(?s).*profile database: 0 of \\d+ op records reused, [1-9]\\d* profiled.*"),
        first.out());
    CliRun second = CliRun.of(args);
    assertEquals(ExitCodes.OK, second.exitCode(), second.out() + second.err());
    assertTrue(second.out().matches("(?s).*profile database: (\\d+) of \\1 op records reused, 0 profiled.*"),
        "nothing profiled again: " + second.out());
    // A tune of the model on the same machine and devices reads what calibrate profiled.
    CliRun tune = CliRun.of("tune", model.toString(), "--backend", "openvino", "--devices", "CPU,CPU2",
        "--test-device", "CPU2", "--budget", "2", "--out", tmp.resolve("run").toString(), "--cost-model-cache",
        db.toString());
    assertEquals(ExitCodes.OK, tune.exitCode(), tune.out() + tune.err());
    assertTrue(tune.out().matches("(?s).*profile database: (\\d+) of \\1 op records reused, 0 profiled.*"),
        tune.out());
    CliRun fresh = CliRun.of(concat(args, "--fresh-profile"));
    assertEquals(ExitCodes.OK, fresh.exitCode(), fresh.out() + fresh.err());
    assertTrue(fresh.out().contains("--fresh-profile: none read, all refreshed"), fresh.out());
  }

  private static String[] concat(String[] head, String... tail) {
    String[] out = java.util.Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, out, head.length, tail.length);
    return out;
  }

  @Test
  void theBackendsOwnCostModelPricesSplits() throws IOException {
    OpGraph g = new IrReader().read(model);
    OpenVinoOptions options = OpenVinoOptions.DEFAULT.withTestDevices(List.of(TestDevice.parse("CPU2")));
    try (OpenVinoBackend backend = OpenVinoBackend.open(options)) {
      backend.bind(g, model);
      HeteroCostModel cm = backend.costModel(g);
      double costs = cm.requestOverhead();
      for (int d = 0; d < cm.deviceCount(); d++) {
        costs += cm.subModelOverhead(d) + cm.copyMicros(d, 1024);
      }
      String saved = backend.costModelMeasurements(g).orElseThrow();
      // The fitted values are this machine's timing (all 0 is a legitimate fit when splits cost less than the noise).
      assertTrue(costs >= 0 && Double.isFinite(costs), "start, copy and request costs fitted, none negative: "
          + saved.substring(Math.max(0, saved.indexOf("\"kernelScale\""))));
      assertTrue(backend.costModelMeasurements(g).orElseThrow().contains("\"costs\""),
          "the fit is saved with the kernels, so a resumed run plans on the same numbers");
      int[] dc = new int[cm.opCount()];
      for (int i = cm.opCount() / 2; i < dc.length; i++) {
        dc[i] = 1;
      }
      assertTrue(cm.evaluate(dc).micros() > 0);
    }
  }
}
