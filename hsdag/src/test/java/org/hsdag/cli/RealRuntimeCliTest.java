package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.HeteroAffinity;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.placement.PlacementFiles;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.testkit.RealOpenVino;
import org.hsdag.tune.LogRecord;
import org.hsdag.tune.RunLog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands a user runs on real hardware, run for real on this CPU with CPU2 (the CPU plugin
 * registered again) as the second device: check-runtime, calibrate, apply (and the Python it prints,
 * run with the wheel's own Python), and tune killed with -9 then resumed.
 */
@Tag("openvino")
class RealRuntimeCliTest {
  /** Generous bound on how long the child may take to reach the kill point (a failure guard, not a timing check). */
  private static final long PATIENCE_MS = 180_000;

  @TempDir
  Path tmp;
  private Path model;

  @BeforeEach
  void writeModel() throws IOException {
    model = RealTinyModel.write(tmp);
  }

  @Test
  void checkRuntimeSplitsBetweenCpuAndTheTestDevice() {
    CliRun r = CliRun.of("check-runtime", "--test-device", "CPU2", "--runs", "3");
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    assertTrue(r.out().contains("HETERO:CPU2,CPU") && r.out().contains("[ran on CPU,CPU2]"), r.out());
    assertTrue(r.out().contains("test device: the CPU plugin registered again, 1 thread"), r.out());
  }

  /** The time: line shares out the seconds the wall: line counts, from the command's start, not from the backend's. */
  @Test
  void theTimeLineCountsTheSecondsOfTheWallLine() {
    CliRun r = CliRun.of("tune", model.toString(), "--devices", "CPU,CPU2", "--backend", "openvino", "--test-device",
        "CPU2:precision=f32", "--budget", "2", "--final-rounds", "1", "--fresh-profile", "--out",
        tmp.resolve("run").toString());
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    Matcher wall = Pattern.compile("(?m)^wall: ([0-9.]+) s since the command started").matcher(r.out());
    Matcher time = Pattern.compile("(?m)^time: wall ([0-9.]+) s \\(this session, since the command started\\)")
        .matcher(r.out());
    assertTrue(wall.find() && time.find(), r.out());
    assertEquals(wall.group(1), time.group(1), r.out());
  }

  @Test
  void calibrateWritesAProfileTheSimulatorRuns() throws IOException {
    Path profile = tmp.resolve("this-cpu.json");
    CliRun r = CliRun.of("calibrate", model.toString(), "--devices", "CPU", "-o", profile.toString(), "--runs", "3");
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    DeviceProfile p = DeviceProfile.load(profile.toString());
    assertEquals(List.of("CPU"), p.devices().stream().map(d -> d.name()).toList());
    CliRun sim = CliRun.of("devices", "--backend", "sim", "--profile", profile.toString());
    assertEquals(ExitCodes.OK, sim.exitCode(), sim.err());
  }

  @Test
  void applyOnOpenVinoKeepsToTheUsersMemoryWhereTheCpusReportNone() throws Exception {
    OpGraph graph = new IrReader().read(model);
    Path placement = tmp.resolve("on CPU2.json");
    PlacementFiles.write(placement, graph, Placement.allOn(DeviceSet.of("CPU", "CPU2"), graph.nodeCount(), "CPU2"));
    CliRun over = CliRun.of("apply", model.toString(), placement.toString(), "--backend", "openvino", "--test-device",
        "CPU2", "--memory", "CPU2=1KiB", "--rounds", "1");
    assertEquals(ExitCodes.BAD_INPUT, over.exitCode(), over.out() + over.err());
    assertEquals(1, over.err().lines().count(), over.err());
    assertTrue(over.err().contains("does not fit: out of memory on CPU2: needs ") && over.err().contains(
        "(capacities: --memory {CPU2=1.00 KiB}; otherwise reported by OpenVINO: CPU not reported, CPU2 not reported"),
        over.err());
    CliRun within = CliRun.of("apply", model.toString(), placement.toString(), "--backend", "openvino",
        "--test-device", "CPU2", "--memory", "CPU2=4GiB", "--rounds", "1");
    assertEquals(ExitCodes.OK, within.exitCode(), within.out() + within.err());
    assertTrue(within.out().contains("memory CPU2 ") && within.out().contains(" of 4.00 GiB"), within.out());
  }

  @Test
  void applyPrintsPythonThatCompilesTheSameSplitWithTheWheel() throws Exception {
    OpGraph graph = new IrReader().read(model);
    int[] topo = graph.topologicalOrder();
    int[] device = new int[graph.nodeCount()];
    for (int r = topo.length / 2; r < topo.length; r++) {
      device[topo[r]] = 1;
    }
    Path placement = tmp.resolve("half and half.json");
    // Resolved as tune writes best.json: constants, Parameters and Results beside their neighbours.
    PlacementFiles.write(placement, graph,
        new HeteroAffinity(graph).resolvedPlacement(new Placement(DeviceSet.of("CPU", "CPU2"), device)));
    CliRun r = CliRun.of("apply", model.toString(), placement.toString(), "--backend", "openvino", "--test-device",
        "CPU2",
        "--rounds", "1");
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    Matcher m = Pattern.compile("placement\\s+[0-9.]+ ms .*?, (\\d+) sub-models?").matcher(r.out());
    assertTrue(m.find(), r.out());
    int subModels = Integer.parseInt(m.group(1));
    assertTrue(subModels >= 2, r.out());
    assertTrue(r.out().contains("--test-device CPU2:threads=1"), "the shell line names the test device: " + r.out());

    String python = pythonBlock(r.out()) + String.join("\n",
        "import numpy as np",
        "assert compiled.get_property('EXECUTION_DEVICES') == ['CPU', 'CPU2'], compiled.get_property('EXECUTION_DEVICES')",
        "print('submodels', compiled.get_property('HETERO_NUMBER_OF_SUBMODELS'))",
        "rng = np.random.default_rng(3)",
        "feeds = {i: rng.integers(0, 2, list(p.get_shape())).astype(np.int64) for i, p in enumerate(compiled.inputs)}",
        "for d in ('CPU', 'CPU2'): core.set_property(d, {'INFERENCE_PRECISION_HINT': 'f32'})",
        "split = [v for v in core.compile_model(model, 'HETERO:CPU,CPU2').create_infer_request().infer(feeds).values()]",
        "cpu_model = core.read_model(" + pythonString(model.toString()) + ")",
        "cpu = [v for v in core.compile_model(cpu_model, 'CPU').create_infer_request().infer(feeds).values()]",
        "print('maxdiff', max(float(np.abs(a - b).max()) for a, b in zip(cpu, split)))",
        "");
    Path script = tmp.resolve("use_placement.py");
    Files.writeString(script, python);
    Process p = new ProcessBuilder(RealOpenVino.python().toString(), script.toString()).redirectErrorStream(true)
        .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), python + "\n---\n" + output);
    assertTrue(output.contains("submodels " + subModels),
        "hsdag and the printed Python compile the same split: " + output);
    Matcher diff = Pattern.compile("maxdiff ([0-9.e+-]+)").matcher(output);
    assertTrue(diff.find(), output);
    assertTrue(Double.parseDouble(diff.group(1)) <= 1e-4, "in f32 a split computes CPU's outputs: " + output);
  }

  private static String pythonString(String s) {
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  /** The lines of apply's "Python" block, unindented. */
  private static String pythonBlock(String out) {
    StringBuilder b = new StringBuilder();
    boolean in = false;
    for (String line : out.lines().toList()) {
      if (line.startsWith("  Python")) {
        in = true;
      } else if (in && line.startsWith("    ")) {
        b.append(line.substring(4)).append('\n');
      } else if (in) {
        break;
      }
    }
    assertFalse(b.isEmpty(), "apply prints a Python block: " + out);
    return b.toString();
  }

  @Test
  void tuneOnCpuAndCpu2KilledWithMinus9ResumesToACompleteRun() throws Exception {
    Path out = tmp.resolve("run");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-Djava.awt.headless=true", "-Dai.djl.offline=true",
        // The child keeps the suite's own cost-model store, never the user's.
        "-Dhsdag.costModelCache=" + System.getProperty("hsdag.costModelCache", tmp.resolve("cost-models").toString()),
        "-cp", System.getProperty("java.class.path"),
        Main.class.getName(), "tune", model.toString(), "--backend", "openvino", "--test-device", "CPU2",
        "--devices", "CPU,CPU2", "--budget", "24", "--patience", "0", "--checkpoint-every", "4", "--seed", "3", "--out",
        out.toString(),
        "--quiet"));
    Process child = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    Path log = out.resolve("log.jsonl");
    try {
      long deadline = System.currentTimeMillis() + PATIENCE_MS;
      while (child.isAlive() && searchSteps(log).size() < 8) {
        assertTrue(System.currentTimeMillis() < deadline, "the child never reached 8 search steps");
        Thread.sleep(20);
      }
      assertTrue(child.isAlive(), "killed before the run ended");
      child.destroyForcibly();
      assertTrue(child.waitFor(30, TimeUnit.SECONDS));
    } finally {
      child.destroyForcibly();
    }
    assertFalse(Files.exists(out.resolve("best.json")), "a killed run has no result yet");
    CliRun resumed = CliRun.of("tune", "--resume", "--out", out.toString(), "--quiet");
    assertEquals(ExitCodes.OK, resumed.exitCode(), resumed.out() + resumed.err());
    List<Integer> steps = searchSteps(log);
    // Steps 0, 1, 2, ... each logged once; proposals the run had measured already (cache hits) are logged without
    // spending the budget, so there may be more steps than 24.
    assertTrue(steps.size() >= 24, "the whole budget: " + steps);
    for (int i = 0; i < steps.size(); i++) {
      assertEquals(i, steps.get(i), "every step once, in order: " + steps);
    }
    Placement best = PlacementFiles.read(out.resolve("best.json"), new IrReader().read(model),
        DeviceSet.of("CPU", "CPU2"));
    assertEquals(new IrReader().read(model).nodeCount(), best.size());
    assertTrue(RunLog.read(log).records().stream().filter(LogRecord::hasMeasurement).allMatch(r -> r.load() != null),
        "every real measurement carries its foreign load");
    String notes = Files.readString(out.resolve("notes.json"));
    assertTrue(notes.contains("foreign load during") && notes.contains("hsdag's own"), notes);
    String manifest = Files.readString(out.resolve("manifest.json"));
    assertTrue(manifest.contains("\"backend\" : \"openvino\"") && manifest.contains("test device"), manifest);
  }

  private static List<Integer> searchSteps(Path log) throws IOException {
    if (!Files.exists(log)) {
      return List.of();
    }
    try {
      return RunLog.read(log).records().stream().filter(r -> LogRecord.PHASE_SEARCH.equals(r.phase()))
          .map(LogRecord::step).toList();
    } catch (RuntimeException e) {
      return List.of(); // a line half written by the child: look again
    }
  }
}
