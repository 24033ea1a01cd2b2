package org.hsdag.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.hsdag.cli.CliRun;
import org.hsdag.testkit.DynamicIrs;
import org.hsdag.testkit.RealOpenVino;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench fidelity}, {@code bench refusals} and {@code bench throughput} on the real runtime, given a model with dynamic
 * inputs: both size them as {@code tune} does (the default assumption, said, or {@code --input-shape})
 * instead of refusing them or failing with an internal error.
 */
@Tag("openvino")
class RealBenchExperimentsTest {
  @TempDir
  Path tmp;
  private String model;

  @BeforeEach
  void dynamicModel() {
    RealOpenVino.require();
    DynamicIrs.write(tmp, "tiny_dynamic", DynamicIrs.tinyDynamic());
    model = tmp.resolve("tiny_dynamic.xml").toString();
  }

  @Test
  void fidelityMeasuresADynamicModelAtTheAnnouncedSizes() {
    CliRun r = CliRun.of("bench", "fidelity", model, "--backend", "openvino", "--devices", "CPU,CPU2", "--test-device",
        "CPU2:precision=f32", "--placements", "3", "--rounds", "2", "--runs", "1");
    assertEquals(0, r.exitCode(), r.out() + r.err());
    assertTrue(r.out().contains("assumed input_ids=1x8, hidden=1x8x12"), r.out());
    assertTrue(r.out().contains("real hardware, not simulated"), r.out());
    assertTrue(r.out().contains("tiny_dynamic.xml | 3 (0) |"), "three placements ran, none failed: " + r.out());
  }

  @Test
  void refusalsTakesTheGivenInputShape() {
    CliRun r = CliRun.of("bench", "refusals", model, "--placements", "2", "--max-changes", "2", "--test-device",
        "CPU2:precision=f32", "--input-shape", "input_ids=1,4;hidden=1,4,12");
    assertEquals(0, r.exitCode(), r.out() + r.err());
    assertTrue(r.out().contains("| tiny_dynamic.xml | 2 |"), r.out());
    assertTrue(!r.out().contains("other failure:"), "every placement compiled at the given sizes: " + r.out());
  }

  @Test
  void tooManyPlacementsForASmallModelIsBadInputInOneLine() {
    CliRun r = CliRun.of("bench", "refusals", model, "--placements", "50");
    assertEquals(2, r.exitCode(), r.out() + r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().contains("lower --placements or --max-changes"), r.err());
  }

  @Test
  void aSizeTheModelCannotTakeIsRefusedBeforeAnyMeasurement() {
    CliRun r = CliRun.of("bench", "refusals", model, "--placements", "2", "--input-shape",
        "input_ids=1,8;hidden=1,8,5");
    assertEquals(2, r.exitCode(), r.out() + r.err());
    assertTrue(r.err().contains("input 'hidden' cannot be 1x8x5"), r.err());
    assertTrue(!r.out().contains("| tiny_dynamic.xml"), r.out());
  }

  @Test
  void throughputPlansADynamicModelAtTheAnnouncedSizes() {
    CliRun r = CliRun.of("bench", "throughput", model, "--backend", "openvino", "--test-device", "CPU2:precision=f32",
        "--requests", "2", "--plan-only");
    assertEquals(0, r.exitCode(), r.out() + r.err());
    assertTrue(r.out().contains("assumed input_ids=1x8, hidden=1x8x12"), r.out());
    assertTrue(r.out().contains("| openvino | " + model + " | CPU,CPU2 |"), r.out());
    assertTrue(!r.out().contains("failed measurement"), r.out());
  }

  @Test
  void realRuntimeFiguresPrintsEverySectionItIsAskedForOnASmallModel() {
    CliRun r = CliRun.of("bench", "real-runtime-figures", "--models", "tiny_chain", "--sections", "cpu,sim,cost-model",
        "--calibrate-on", "tiny_chain", "--rounds", "1", "--iterations", "3", "--placements", "4", "--split-runs", "2",
        "--cost-model-rounds", "1");
    assertEquals(0, r.exitCode(), r.out() + r.err());
    assertTrue(r.out().contains("real hardware, not simulated"), r.out());
    for (String section : List.of("## CPU-only latency: hsdag (openvino backend) vs benchmark_app",
        "## Simulator calibrated on tiny_chain", "## The planner's cost model")) {
      assertTrue(r.out().contains(section), section + ": " + r.out());
    }
    assertEquals(3, r.out().lines().filter(l -> l.startsWith("| tiny_chain |")).count(), "one row per section: "
        + r.out());
  }
}
