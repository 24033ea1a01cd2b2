package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.PlacementFiles;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.sim.ProfileMismatch;
import org.hsdag.testkit.Samples;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hsdag plan}: zero measurements, every number an estimate naming its cost model, a usable placement file. */
class PlanCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path tmp;
  private Path model;

  @BeforeEach
  void writeModel() throws IOException {
    model = TestModels.twoBranch(tmp);
  }

  private static void assertOneLineError(CliRun r, String fragment) {
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().contains(fragment), r.err());
  }

  @Test
  void planWritesAPlacementThatApplyAcceptsAndLabelsEveryNumberAnEstimate() throws IOException {
    Path out = tmp.resolve("plan.json");
    CliRun r = CliRun.of("plan", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "-o", out.toString());
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.out().contains("no measurements"), r.out());
    r.out().lines().filter(l -> l.contains(" ms"))
        .forEach(l -> assertTrue(l.contains("estimate, cost model of sim/paper"), "unlabelled number: " + l));
    OpGraph g = TestModels.read(model);
    assertEquals(g.nodeCount(), PlacementFiles.read(out, g, DeviceSet.of("CPU", "GPU.1")).size());
    CliRun apply = CliRun.of("apply", model.toString(), out.toString(), "--backend", "sim", "--rounds", "2");
    assertEquals(ExitCodes.OK, apply.exitCode(), apply.err());
  }

  @Test
  void theJsonPlanIsNeverWorseThanTheBestSingleDevice() throws IOException {
    CliRun r = CliRun.of("plan", model.toString(), "--backend", "sim", "--json");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    JsonNode plan = JSON.readTree(r.out());
    assertFalse(plan.get("measured").asBoolean());
    assertEquals(3, plan.get("devices").size(), "default: every device of the backend");
    assertTrue(plan.at("/best/estimate_ms").asDouble() <= plan.at("/best_single_device/estimate_ms").asDouble());
    assertEquals(plan.at("/best/estimate_ms").asDouble(), plan.at("/candidates/0/estimate_ms").asDouble());
    assertTrue(r.err().isEmpty(), "--json keeps stderr quiet: " + r.err());
  }

  @Test
  void aProxyProfilePlansOnThatCostModelAndSaysSo() throws IOException {
    Path other = tmp.resolve("mybox.json");
    Files.writeString(other, ProfileMismatch.named(0.3, 5).apply(DeviceProfile.load("paper")).toJson());
    CliRun own = CliRun.of("plan", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--json");
    CliRun mine = CliRun.of("plan", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--json",
        "--proxy-profile", other.toString());
    assertEquals(ExitCodes.OK, mine.exitCode(), mine.err());
    JsonNode a = JSON.readTree(own.out());
    JsonNode b = JSON.readTree(mine.out());
    assertEquals("cost model of profile mybox.json", b.get("estimates_from").asText());
    assertNotEquals(a.at("/best_single_device/estimate_ms").asDouble(),
        b.at("/best_single_device/estimate_ms").asDouble());
  }

  /** As in tune, --mismatch perturbs only the measured machine: the cost model stays --profile. */
  @Test
  void withMismatchThePlanStaysOnTheProfilesCostModel() throws IOException {
    CliRun own = CliRun.of("plan", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--json");
    CliRun perturbed = CliRun.of("plan", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--json",
        "--mismatch", "0.3");
    assertEquals(ExitCodes.OK, perturbed.exitCode(), perturbed.err());
    JsonNode a = JSON.readTree(own.out());
    JsonNode b = JSON.readTree(perturbed.out());
    assertEquals(a.get("best"), b.get("best"));
    assertEquals(a.at("/best_single_device/estimate_ms").asDouble(),
        b.at("/best_single_device/estimate_ms").asDouble());
    assertEquals("cost model of profile paper", b.get("estimates_from").asText());
  }

  /** "Compute ops" means the same in plan and in a run's results: kernels, not the constant-folded weight Converts. */
  @Test
  void planAndTuneCountTheSameComputeOps() throws IOException {
    Path chain = TestModels.chain(tmp);
    CliRun plan = CliRun.of("plan", chain.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--json");
    assertEquals(ExitCodes.OK, plan.exitCode(), plan.err());
    Path out = tmp.resolve("run");
    CliRun tune = CliRun.of("tune", chain.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--strategy",
        "random",
        "--budget", "3", "--top-k", "1", "--final-rounds", "1", "--no-report", "--quiet", "--out", out.toString());
    assertEquals(ExitCodes.OK, tune.exitCode(), tune.err());
    int planned = 0;
    for (JsonNode n : JSON.readTree(plan.out()).at("/best/compute_ops_per_device")) {
      planned += n.asInt();
    }
    int reported = 0;
    for (JsonNode n : JSON.readTree(out.resolve("result.json").toFile()).at("/best/compute_ops_per_device")) {
      reported += n.asInt();
    }
    assertTrue(planned > 0);
    assertEquals(planned, reported);
  }

  @Test
  void badInputIsOneLineAndExitTwo() throws IOException {
    assertOneLineError(CliRun.of("plan", model.toString(), "--backend", "sim", "--devices", "GPU.1"),
        "at least 2 devices");
    assertOneLineError(CliRun.of("plan", model.toString(), "--backend", "sim", "--devices", "CPU,NPU"), "NPU");
    assertOneLineError(CliRun.of("plan", model.toString(), "--backend", "sim", "--proxy-profile", "nope.json"),
        "nope.json");
    assertOneLineError(CliRun.of("plan", model.toString(), "--backend", "sim", "-o", tmp.toString()), "is a directory");
  }

  @Test
  void dynamicInputsAreSaidOnceAndInputShapeChangesTheEstimate() throws IOException {
    Path bert = Samples.irSample("distilbert-base-uncased-sst2.xml");
    CliRun assumed = CliRun.of("plan", bert.toString(), "--backend", "sim", "--devices", "CPU,GPU.1");
    assertEquals(ExitCodes.OK, assumed.exitCode(), assumed.err());
    assertEquals(1, assumed.err().lines().filter(l -> l.contains("assumed input_ids=1x8, attention_mask=1x8")).count(),
        assumed.err());
    CliRun given = CliRun.of("plan", bert.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--json",
        "--input-shape", "input_ids=1,128;attention_mask=1,128");
    assertEquals(ExitCodes.OK, given.exitCode(), given.err());
    JsonNode plan = JSON.readTree(given.out());
    assertFalse(plan.get("dynamic_inputs_assumed").asBoolean());
    assertEquals("input_ids=1x128", plan.at("/dynamic_inputs/0").asText());
    JsonNode small = JSON.readTree(CliRun.of("plan", bert.toString(), "--backend", "sim", "--devices", "CPU,GPU.1",
        "--json").out());
    assertTrue(
        plan.at("/best_single_device/estimate_ms").asDouble() > small.at("/best_single_device/estimate_ms").asDouble());
    assertOneLineError(CliRun.of("plan", bert.toString(), "--backend", "sim", "--input-shape", "ids=1,8"),
        "no input 'ids'");
  }
}
