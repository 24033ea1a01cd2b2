package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.HeteroAffinity;
import org.hsdag.placement.Placement;
import org.hsdag.placement.PlacementFiles;
import org.hsdag.testkit.DynamicIrs;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command on {@code --backend openvino} with the f32 test device CPU2 beside CPU, on tiny
 * models and the smallest budgets (bench has its own test in the bench module): plan, tune then
 * report and export on its run folder, calibrate, check-runtime, and a model with dynamic inputs
 * measured at the sizes hsdag announces, alone on CPU and split across CPU and CPU2.
 */
@Tag("openvino")
class RealRuntimeCommandsTest {
  private static final String[] REAL = {"--backend", "openvino", "--test-device", "CPU2:precision=f32"};

  @TempDir
  Path tmp;
  private Path model;

  @BeforeEach
  void writeModel() throws IOException {
    model = RealTinyModel.write(tmp);
  }

  private static CliRun real(String... args) {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.addAll(List.of(REAL));
    return CliRun.of(all.toArray(String[]::new));
  }

  @Test
  void planUsesTheRealBackendsCostModelAndHintsAtTheTestDeviceWhenItIsMissing() {
    Path out = tmp.resolve("plan.json");
    CliRun r = real("plan", model.toString(), "--devices", "CPU,CPU2", "-o", out.toString());
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    assertTrue(r.out().contains("(estimate, cost model of openvino/OpenVINO "), r.out());
    assertTrue(Files.isRegularFile(out));

    CliRun missing = CliRun.of("plan", model.toString(), "--devices", "CPU,CPU2", "--backend", "openvino");
    assertEquals(ExitCodes.BAD_INPUT, missing.exitCode(), missing.out() + missing.err());
    assertEquals(1, missing.err().lines().count(), missing.err());
    assertTrue(missing.err().contains("--test-device CPU2:precision=f32"), missing.err());
  }

  @Test
  void tuneThenReportAndExportItsRunFolder() throws IOException {
    Path run = tmp.resolve("run");
    CliRun tune = real("tune", model.toString(), "--devices", "CPU,CPU2", "--budget", "4", "--patience", "0",
        "--final-rounds", "1", "--top-k", "1", "--out", run.toString(), "--quiet");
    assertEquals(ExitCodes.OK, tune.exitCode(), tune.out() + tune.err());
    CliRun report = CliRun.of("report", run.toString());
    assertEquals(ExitCodes.OK, report.exitCode(), report.out() + report.err());
    assertTrue(Files.readString(run.resolve("report.md")).contains("openvino"), report.out());
    Path exported = tmp.resolve("exported.json");
    CliRun export = CliRun.of("export", run.toString(), "--step", "1", "-o", exported.toString());
    assertEquals(ExitCodes.OK, export.exitCode(), export.out() + export.err());
    OpGraph g = new IrReader().read(model);
    assertEquals(g.nodeCount(), PlacementFiles.read(exported, g, DeviceSet.of("CPU", "CPU2")).size());
  }

  @Test
  void calibrateProfilesBothDevices() {
    Path profile = tmp.resolve("cpu-cpu2.json");
    CliRun r = real("calibrate", model.toString(), "--devices", "CPU,CPU2", "-o", profile.toString(), "--runs", "2",
        "--splits", "1", "--requests", "2");
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    DeviceProfile p = DeviceProfile.load(profile.toString());
    assertEquals(List.of("CPU", "CPU2"), p.devices().stream().map(d -> d.name()).toList());
    for (var d : p.devices()) {
      // Each device alone with 1 and 2 requests in flight: a gain curve of two entries, the first 1 (its size is timing).
      assertEquals(2, d.throughputGain().size(), d.name());
      assertEquals(1.0, d.throughputGain().get(0), d.name());
    }
  }

  @Test
  void checkRuntimeSplitsOntoTheF32TestDevice() {
    CliRun r = real("check-runtime", "--runs", "2");
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    assertTrue(r.out().contains("[ran on CPU,CPU2]") && r.out().contains("precision f32"), r.out());
  }

  /** The sizes announced are the sizes compiled: token ids at the default, the hidden state at its model size. */
  @Test
  void aDynamicModelIsMeasuredAtTheAnnouncedSizesAloneAndSplit() throws IOException {
    OpGraph g = DynamicIrs.write(tmp, "tiny_dynamic", DynamicIrs.tinyDynamic());
    Path xml = tmp.resolve("tiny_dynamic.xml");
    DeviceSet ds = DeviceSet.of("CPU", "CPU2");
    Path alone = tmp.resolve("alone.json");
    PlacementFiles.write(alone, g, Placement.allOn(ds, g.nodeCount(), "CPU"));
    int[] topo = g.topologicalOrder();
    int[] device = new int[g.nodeCount()];
    for (int r = topo.length / 2; r < topo.length; r++) {
      device[topo[r]] = 1;
    }
    Path split = tmp.resolve("split.json");
    PlacementFiles.write(split, g, new HeteroAffinity(g).resolvedPlacement(new Placement(ds, device)));
    for (Path placement : List.of(alone, split)) {
      CliRun r = real("apply", xml.toString(), placement.toString(), "--rounds", "1");
      assertEquals(ExitCodes.OK, r.exitCode(), placement + ": " + r.out() + r.err());
      assertTrue(r.err().contains("assumed input_ids=1x8, hidden=1x8x12"), r.err());
      assertTrue(r.out().contains("model.reshape({\"input_ids\": [1, 8], \"hidden\": [1, 8, 12]})"), r.out());
      assertFalse(r.out().contains("failed"), r.out());
    }
  }

  @Test
  void aSizeOpenVinoRejectsOrNoneAtAllIsRefusedInOneLineNamingTheInput() {
    DynamicIrs.write(tmp, "tiny_dynamic", DynamicIrs.tinyDynamic());
    CliRun wrong = real("plan", tmp.resolve("tiny_dynamic.xml").toString(), "--devices", "CPU,CPU2", "--input-shape",
        "input_ids=1,8;hidden=1,8,5");
    assertEquals(ExitCodes.BAD_INPUT, wrong.exitCode(), wrong.out() + wrong.err());
    String last = wrong.err().lines().reduce((a, b) -> b).orElse("");
    assertTrue(last.contains("input 'hidden' cannot be 1x8x5") && last.contains("--input-shape hidden="), wrong.err());

    DynamicIrs.write(tmp, "undeterminable", DynamicIrs.undeterminable());
    CliRun none = real("plan", tmp.resolve("undeterminable.xml").toString(), "--devices", "CPU,CPU2");
    assertEquals(ExitCodes.BAD_INPUT, none.exitCode(), none.out() + none.err());
    assertEquals(1, none.err().lines().count(), none.err());
    assertTrue(none.err().contains("input 'features'") && none.err().contains("--input-shape features="), none.err());
  }
}
