package org.hsdag.bench.real;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.statistics.descriptive.Median;
import org.hsdag.backend.ForwardingBackend;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.cli.CliRun;
import org.hsdag.cli.ModelArgument;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.placement.SplitPlacements;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.Proxies;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench fidelity} on the simulator: an exact cost model scores perfectly; the command's output and input checks. */
class FidelityTest {
  @Test
  void anExactCostModelHasRhoOneAndNoError() {
    OpGraph g = ModelArgument.read(ModelArgument.resolve(Path.of("tiny_chain")));
    try (SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact())) {
      DeviceSet pair = DeviceSet.of("CPU", "GPU.1");
      PlacementProxy proxy = Proxies.resolve(sim, g, pair, null, ShapeAssumption.DEFAULT).proxy();
      Fidelity.Result r = Fidelity.run(sim, g, "tiny_chain", proxy, new Fidelity.Settings(8, 3, 2, 1));
      assertEquals(8, r.rows().size());
      assertTrue(r.failures().isEmpty(), r.failures().toString());
      assertEquals(1.0, r.rho(), 1e-12);
      assertEquals(1.0, r.noiseRho(), 1e-12, "exact measurements rank alike in every round");
      assertEquals(0.0, r.maxAbsError(), 1e-12);
      assertEquals(0.0, r.medianAbsError(), 1e-12);
      assertEquals("CPU only", r.rows().get(0).label());
      assertEquals("GPU.1 only", r.rows().get(1).label());
      assertTrue(r.rows().stream().skip(2).allMatch(x -> x.label().contains("change")), r.rows().toString());
    }
  }

  @Test
  void theCommandPrintsTheFiguresWithBackendAndLoad() {
    CliRun r = CliRun.of("bench", "fidelity", "tiny_chain", "--devices", "CPU,GPU.1", "--backend", "sim",
        "--placements",
        "6", "--rounds", "2", "--runs", "2", "--details");
    assertEquals(0, r.exitCode(), r.err());
    assertTrue(r.out().contains("backend sim") && r.out().contains("(simulated)"), r.out());
    assertTrue(r.out().contains("noise floor rho") && r.out().contains("load (start-end)"), r.out());
    assertTrue(r.out().contains("| tiny_chain | 6 (0) |"), r.out());
    assertTrue(r.out().contains("tiny_chain CPU only:"), r.out());
  }

  @Test
  void theJsonFileHoldsEveryPlacementAndTheTablesFigures(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("fidelity.json");
    CliRun r = CliRun.of("bench", "fidelity", "tiny_chain", "--devices", "CPU,GPU.1", "--backend", "sim",
        "--placements",
        "6", "--rounds", "3", "--runs", "2", "--details", "--out", file.toString());
    assertEquals(0, r.exitCode(), r.err());
    JsonNode json = new ObjectMapper().readTree(file.toFile());
    assertEquals("sim", json.get("backend").asText());
    assertTrue(json.get("simulated").asBoolean());
    assertEquals(List.of("CPU", "GPU.1"), strings(json.get("devices")));
    assertEquals(3, json.get("settings").get("rounds").asInt());
    JsonNode model = json.get("models").get(0);
    assertEquals("tiny_chain", model.get("model").asText());
    JsonNode summary = model.get("summary");
    assertEquals(6, summary.get("ran").asInt());
    assertEquals(0, summary.get("failed").asInt());
    JsonNode placements = model.get("placements");
    assertEquals(6, placements.size());
    double[] absErrors = new double[placements.size()];
    int k = 0;
    for (JsonNode p : placements) {
      double[] rounds = doubles(p.get("rounds_ms"));
      assertEquals(3, rounds.length, p.toString());
      double real = p.get("real_ms").asDouble();
      assertEquals(Arrays.stream(rounds).min().orElseThrow(), real, 1e-12, "real = the fastest round");
      assertEquals(Median.withDefaults().evaluate(rounds), p.get("median_ms").asDouble(), 1e-12);
      assertEquals(p.get("predicted_ms").asDouble() / p.get("median_ms").asDouble() - 1,
          p.get("error_vs_median").asDouble(), 1e-12);
      double error = p.get("predicted_ms").asDouble() / real - 1;
      assertEquals(error, p.get("error").asDouble(), 1e-12);
      absErrors[k++] = Math.abs(error);
      int ops = 0;
      for (JsonNode n : p.get("ops_per_device")) {
        ops += n.asInt();
      }
      assertTrue(ops > 0 && p.get("hash").asText().matches("[0-9a-f]{16}"), p.toString());
      assertEquals(p.get("changes").asInt(), p.get("cuts").size(), p.toString());
      assertTrue(p.get("failure").isNull(), p.toString());
      // The console's --details line of this placement gives the same prediction and id.
      String line = String.format(Locale.ROOT, "- tiny_chain %s: %d sub-models, predicted %.2f ms", p.get(
          "description").asText(), p.get("sub_models").asInt(), p.get("predicted_ms").asDouble());
      assertTrue(r.out().contains(line) && r.out().contains("[#" + p.get("id").asInt() + " " + p.get("hash").asText()
          + "]"), line + " in\n" + r.out());
    }
    assertEquals(Median.withDefaults().evaluate(absErrors), summary.get("median_abs_error").asDouble(), 1e-12);
    assertEquals(Arrays.stream(absErrors).max().orElseThrow(), summary.get("max_abs_error").asDouble(), 1e-12);
    // The table's row is the summary's figures.
    String row = String.format(Locale.ROOT, "| tiny_chain | 6 (0) | %.3f | %.3f | %.1f %% | %.1f %% | %+.1f %% |",
        summary.get("rho").asDouble(), summary.get("noise_floor_rho").asDouble(),
        100 * summary.get("median_abs_error").asDouble(), 100 * summary.get("max_abs_error").asDouble(),
        100 * summary.get("median_error").asDouble());
    assertTrue(r.out().contains(row), row + " in\n" + r.out());
    assertTrue(r.out().contains("wrote " + file), r.out());
  }

  @Test
  void jsonPrintsTheDocumentOnStdoutAndTheTableOnStderr() throws Exception {
    CliRun r = CliRun.of("bench", "fidelity", "tiny_chain", "--devices", "CPU,GPU.1", "--backend", "sim",
        "--placements",
        "4", "--rounds", "2", "--runs", "1", "--json");
    assertEquals(0, r.exitCode(), r.err());
    JsonNode json = new ObjectMapper().readTree(r.out());
    assertEquals(4, json.get("models").get(0).get("placements").size());
    assertTrue(r.err().contains("| tiny_chain | 4 (0) |"), r.err());
  }

  @Test
  void anExistingOutFileIsKept(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("earlier.json");
    Files.writeString(file, "{}");
    CliRun r = CliRun.of("bench", "fidelity", "tiny_chain", "--devices", "CPU,GPU.1", "--backend", "sim", "--out",
        file.toString());
    assertEquals(2, r.exitCode());
    assertTrue(r.err().contains("already exists"), r.err());
    assertEquals("{}", Files.readString(file));
  }

  @Test
  void aFailedPlacementIsInTheJsonWithItsPredictionAndReason() {
    OpGraph g = ModelArgument.read(ModelArgument.resolve(Path.of("tiny_chain")));
    // Closing the decorator closes the simulator.
    try (
        LatencyBackend refusing = new RefusingSplits(new SimBackend(DeviceProfile.load("paper"), SimOptions.exact()))) {
      DeviceSet pair = DeviceSet.of("CPU", "GPU.1");
      PlacementProxy proxy = Proxies.resolve(refusing, g, pair, null, ShapeAssumption.DEFAULT).proxy();
      Fidelity.Result r = Fidelity.run(refusing, g, "tiny_chain", proxy, new Fidelity.Settings(4, 2, 1, 1));
      assertFalse(r.failures().isEmpty(), "placements with 2 or more changes are refused");
      Map<String, Object> doc = FidelityJson.document(new FidelityJson.Run("sim", "paper", true, List.of(),
          pair.names(), new Fidelity.Settings(4, 2, 1, 1)), List.of(new FidelityJson.Model(r, "test")));
      JsonNode json = new ObjectMapper().valueToTree(doc);
      JsonNode placements = json.get("models").get(0).get("placements");
      assertEquals(r.rows().size() + r.failures().size(), placements.size());
      int failed = 0;
      for (JsonNode p : placements) {
        if (p.get("failure").isNull()) {
          assertTrue(p.get("changes").asInt() < 2, p.toString());
          continue;
        }
        failed++;
        assertTrue(p.get("changes").asInt() >= 2, p.toString());
        assertEquals("split refused for the test", p.get("failure").asText());
        assertTrue(p.get("predicted_ms").asDouble() > 0 && p.get("real_ms").isNull(), p.toString());
      }
      assertEquals(r.failures().size(), failed);
      assertTrue(json.get("models").get(0).get("cost_model_measurements").isNull(), "the simulator measured none");
      // A measured cost model's inputs (the real backend's designed splits and fit) go in as JSON, not as text.
      JsonNode built = new ObjectMapper().valueToTree(FidelityJson.document(new FidelityJson.Run("openvino", "x",
          false, List.of(), pair.names(), new Fidelity.Settings(4, 2, 1, 1)),
          List.of(new FidelityJson.Model(r,
              "test", "{\"kernelScale\": [0.9, 1.1], \"design\": {\"planned\": 3}}"))));
      JsonNode m = built.get("models").get(0).get("cost_model_measurements");
      assertEquals(1.1, m.get("kernelScale").get(1).asDouble(), 1e-12);
      assertEquals(3, m.get("design").get("planned").asInt());
    }
  }

  /** The simulator, refusing every placement with two or more device changes (as a runtime refuses some splits). */
  private static final class RefusingSplits extends ForwardingBackend {
    RefusingSplits(LatencyBackend delegate) {
      super(delegate);
    }

    @Override
    public Measurement measure(OpGraph graph, Placement placement, MeasurementProtocol protocol) {
      return SplitPlacements.changes(placement.deviceOf()) >= 2
          ? Measurement.failed("split refused for the test", name(), profile())
          : delegate.measure(graph, placement, protocol);
    }
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  private static double[] doubles(JsonNode array) {
    double[] out = new double[array.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = array.get(i).asDouble();
    }
    return out;
  }

  @Test
  void oneDeviceIsBadInput() {
    CliRun r = CliRun.of("bench", "fidelity", "tiny_chain", "--devices", "CPU", "--backend", "sim");
    assertEquals(2, r.exitCode());
    assertTrue(r.err().contains("--devices: fidelity compares two devices"), r.err());
  }
}
