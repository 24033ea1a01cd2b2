package org.hsdag.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.cli.CliRun;
import org.hsdag.models.ModelCatalog;
import org.hsdag.testkit.RealOpenVino;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hsdag bench} on the real runtime: CPU and the f32 test device CPU2, a tiny model, a few
 * measurements per method. Every method runs on real hardware (or is reported skipped with its
 * reason), and the report is written.
 */
@Tag("openvino")
class RealBenchTest {
  @TempDir
  Path dir;

  @Test
  void everyMethodRunsOnTheRealBackendAndTheReportIsWritten() throws Exception {
    RealOpenVino.require();
    Path model = dir.resolve("tiny_transformer.xml");
    ModelCatalog.get("tiny_transformer").build().writeTo(model, ModelCatalog.DEFAULT_SEED);
    Path out = dir.resolve("bench");
    List<String> methods = List.of("openvino-pp", "random", "greedy", "planner", "hsdag", "gpu1");
    CliRun r = CliRun.of("bench", model.toString(), "--backend", "openvino", "--test-device", "CPU2:precision=f32",
        "--devices", "CPU,CPU2", "--methods", String.join(",", methods), "--budget", "3", "--seeds", "1",
        "--reference-factor", "0", "--final-rounds", "1", "--out", out.toString());
    assertEquals(0, r.exitCode(), r.out() + r.err());
    String console = r.out() + r.err();
    assertTrue(console.lines().anyMatch(l -> l.matches("tiny_transformer +load +[0-9.]+ at the start, [0-9.]+ at the "
        + "end \\(1-minute load average\\)")), "the load the figures were measured under, on the console: " + console);
    for (String f : List.of("results.json", "report.md", "report.html")) {
      assertTrue(Files.size(out.resolve(f)) > 0, f);
    }
    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertEquals("openvino", json.get("backend").asText());
    assertFalse(json.get("simulated").asBoolean());
    List<String> ran = new ArrayList<>();
    for (JsonNode m : json.get("models").get(0).get("methods")) {
      String name = m.get("method").asText();
      if (name.equals("gpu1")) {
        assertTrue(m.get("skipped").asText().contains("needs GPU.1"), m.toString());
        continue;
      }
      assertTrue(m.get("skipped").isNull(), m.toString());
      assertTrue(m.get("meanMillis").asDouble() > 0, m.toString());
      ran.add(name);
    }
    assertTrue(ran.containsAll(List.of("cpu", "cpu2", "openvino-pp", "random", "greedy", "planner", "hsdag")),
        ran.toString());
    String md = Files.readString(out.resolve("report.md"));
    assertTrue(md.contains("Backend `openvino`") && md.contains("measured on hardware"), md);
  }
}
