package org.hsdag.bench.real;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.cli.CliRun;
import org.hsdag.models.ModelCatalog;
import org.hsdag.testkit.RealOpenVino;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench fidelity --out FILE} on the real runtime: every placement's prediction and measurement are in the file. */
@Tag("openvino")
class RealFidelityJsonTest {
  @TempDir
  Path dir;

  @Test
  void everyPlacementHasItsPredictedAndRealFigures() throws Exception {
    RealOpenVino.require();
    Path model = dir.resolve("tiny_chain.xml");
    ModelCatalog.get("tiny_chain").build().writeTo(model, ModelCatalog.DEFAULT_SEED);
    Path file = dir.resolve("fidelity.json");
    CliRun r = CliRun.of("bench", "fidelity", model.toString(), "--backend", "openvino", "--devices", "CPU,CPU2",
        "--test-device", "CPU2:precision=f32", "--placements", "3", "--rounds", "2", "--runs", "1", "--out",
        file.toString());
    assertEquals(0, r.exitCode(), r.out() + r.err());
    assertTrue(Files.isRegularFile(file), r.out());
    JsonNode json = new ObjectMapper().readTree(file.toFile());
    assertEquals("openvino", json.get("backend").asText());
    assertFalse(json.get("simulated").asBoolean());
    String testDevice = json.get("test_devices").get(0).asText();
    assertTrue(testDevice.startsWith("CPU2:") && testDevice.contains("precision=f32"), testDevice);
    JsonNode m = json.get("models").get(0);
    assertEquals(3, m.get("summary").get("ran").asInt());
    assertTrue(m.get("load_start").isNumber() && m.get("load_end").isNumber(), m.toString());
    int ran = 0;
    for (JsonNode p : m.get("placements")) {
      assertTrue(p.get("predicted_ms").asDouble() > 0, p.toString());
      if (!p.get("failure").isNull()) {
        assertTrue(p.get("real_ms").isNull(), p.toString());
        continue;
      }
      ran++;
      assertTrue(p.get("real_ms").asDouble() > 0, p.toString());
      assertEquals(2, p.get("rounds_ms").size(), p.toString());
      assertTrue(p.get("sub_models").asInt() >= 1, p.toString());
      assertEquals(p.get("predicted_ms").asDouble() / p.get("real_ms").asDouble() - 1, p.get("error").asDouble(),
          1e-12);
    }
    assertEquals(3, ran);
    // What the cost model was built from: the designed splits with their rounds, and the fitted scales.
    JsonNode built = m.get("cost_model_measurements");
    assertEquals(2, built.get("kernelScale").size(), built.toString());
    JsonNode designed = built.get("design").get("placements");
    assertTrue(designed.size() >= 2, built.toString());
    assertTrue(designed.get(0).get("micros").get(0).asDouble() > 0, designed.toString());
  }
}
