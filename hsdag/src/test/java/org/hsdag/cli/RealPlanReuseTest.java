package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code plan} on the real backend: the first call profiles and says the wall time it took, the load it
 * profiled under and the cost model's own error; the same call again reuses that cost model and gives
 * the same plan; {@code --fresh-profile} profiles again.
 */
@Tag("openvino")
class RealPlanReuseTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path tmp;

  @Test
  void theSameCallTwicePlansOnTheSameCostModel() throws Exception {
    Path model = RealTinyModel.write(tmp);
    Path cache = tmp.resolve("cost-models");
    JsonNode first = plan(model, cache, "first.json");
    assertTrue(first.path("cost_model_reused_from").isMissingNode(), first.toString());
    assertTrue(first.has("cost_model_error") && first.get("cost_model_error").get("runs").asInt() > 0,
        first.toString());
    assertTrue(first.has("profiled_under_load"), first.toString());
    double parts = first.get("startup_seconds").asDouble() + first.get("cost_model_seconds").asDouble()
        + first.get("plan_seconds").asDouble();
    assertEquals(first.get("seconds").asDouble(), parts, 1e-6, "the wall is its parts");
    assertTrue(first.get("cost_model_seconds").asDouble() > first.get("plan_seconds").asDouble(),
        "profiling is what takes the time: " + first);

    JsonNode second = plan(model, cache, "second.json");
    assertTrue(second.get("cost_model_reused_from").asText().startsWith(cache.toString()), second.toString());
    assertEquals(first.get("cost_model_error"), second.get("cost_model_error"));
    assertEquals(first.get("profiled_under_load"), second.get("profiled_under_load"), "the load it was profiled under");
    assertEquals(Files.readString(tmp.resolve("first.json")), Files.readString(tmp.resolve("second.json")),
        "the same plan");

    CliRun text = CliRun.of("plan", model.toString(), "--devices", "CPU,CPU2", "--backend", "openvino",
        "--test-device", "CPU2:precision=f32", "--cost-model-cache", cache.toString());
    assertEquals(ExitCodes.OK, text.exitCode(), text.out() + text.err());
    assertTrue(text.out().contains("cost model reused from " + cache), text.out());
    assertTrue(text.out().contains("the cost model's own error on its "), text.out());
    assertTrue(text.out().lines().anyMatch(l -> l.startsWith("  profiled under load ")), "the load, on the console: "
        + text.out());
    assertFalse(text.out().contains(" in 0.") && text.out().contains("plan for tiny_transformer on CPU,CPU2, in"),
        text.out());

    JsonNode fresh = plan(model, cache, "fresh.json", "--fresh-profile");
    assertTrue(fresh.path("cost_model_reused_from").isMissingNode(), fresh.toString());
  }

  private JsonNode plan(Path model, Path cache, String out, String... more) throws Exception {
    java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("plan", model.toString(), "--devices",
        "CPU,CPU2", "--backend", "openvino", "--test-device", "CPU2:precision=f32", "--cost-model-cache",
        cache.toString(), "--json", "-o", tmp.resolve(out).toString()));
    args.addAll(java.util.List.of(more));
    CliRun r = CliRun.of(args.toArray(String[]::new));
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    return JSON.readTree(r.out());
  }
}
