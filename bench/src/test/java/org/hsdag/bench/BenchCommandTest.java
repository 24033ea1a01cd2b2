package org.hsdag.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hsdag.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hsdag bench} end to end on a tiny catalog model with the simulator. */
class BenchCommandTest {
  @TempDir
  Path dir;

  @Test
  void writesTablesPlotsAndJsonLabelledWithBackendAndProfile() throws Exception {
    Path out = dir.resolve("bench");
    CliRun r = CliRun.of("bench", "tiny_chain", "--methods", "gpu1,openvino-gpu,random,greedy,brkga", "--budget", "30",
        "--seeds", "2",
        "--reference-factor", "2", "--out", out.toString());
    assertEquals(0, r.exitCode(), r.err());
    for (String f : List.of("results.json", "report.md", "report.html", "bestsofar-tiny_chain.png",
        "bestsofar-tiny_chain.svg")) {
      assertTrue(Files.size(out.resolve(f)) > 0, f);
    }
    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertEquals("sim", json.get("backend").asText());
    assertTrue(json.get("simulated").asBoolean());
    JsonNode model = json.get("models").get(0);
    assertEquals("tiny_chain", model.get("model").asText());
    JsonNode methods = model.get("methods");
    // Each device gets its single-device baseline, CPU-only (the speedup reference) first; the simulator's cost model
    // gives the best known, so no BRKGA reference runs.
    assertEquals("cpu", methods.get(0).get("method").asText());
    assertEquals(0.0, methods.get(0).get("speedupPercent").asDouble(), 1e-9);
    for (JsonNode m : methods) {
      assertNotEquals("brkga-reference", m.get("method").asText());
    }
    assertTrue(r.out().lines().anyMatch(l -> l.contains("cost-model optimum") && l.contains("on the cost model")),
        r.out());
    double bestKnown = model.get("bestKnownMillis").asDouble();
    // The console's best known is the report's, never another figure under that name.
    String known = String.format(java.util.Locale.ROOT, "best known           %.4f ms", bestKnown);
    assertTrue(r.out().lines().anyMatch(l -> l.contains(known)), known + " in\n" + r.out());
    assertTrue(r.out().lines().filter(l -> l.contains("best known")).allMatch(l -> l.contains(known)), r.out());
    for (JsonNode m : methods) {
      assertEquals(2, m.get("runs").size(), m.get("method").asText());
      assertTrue(m.get("meanMillis").asDouble() >= bestKnown - 1e-9);
      assertTrue(m.get("gapToBestPercent").asDouble() >= -1e-9);
    }
    JsonNode greedyRun = null;
    for (JsonNode m : methods) {
      greedyRun = m.get("method").asText().equals("greedy") ? m.get("runs").get(0) : greedyRun;
    }
    assertEquals(30, greedyRun.get("measurements").asInt());
    assertEquals(30, greedyRun.get("bestSoFarMillis").size());
    String md = Files.readString(out.resolve("report.md"));
    assertTrue(md.contains("Backend `sim`, profile `paper`"), md);
    assertTrue(md.contains("SIMULATED"));
    assertTrue(md.contains("**"), "best method in bold");
    assertFalse(md.contains("Table 3 layout"), "no ablation was run");
    assertFalse(md.contains("paper (ms)") || md.contains("Paper columns"), "the paper has no tiny_chain");
    assertFalse(md.matches("(?s).*seed \\d{6,}.*"), "seeds read as 1/2, 2/2");
    String html = Files.readString(out.resolve("report.html"));
    assertTrue(html.contains("<div class=\"wide\"><table"), "a wide table scrolls in its own box");
    assertTrue(html.contains("data:image/png;base64,"), "plots inlined");
    assertTrue(html.contains("SIMULATED"));
    assertFalse(html.contains("src=\"bestsofar"), "self-contained");
    assertTrue(r.out().contains("profile paper"));
  }

  @Test
  void underTheUsersMemoryEveryMethodKeepsWithinItAndTheReportSaysWhatEachNeeds() throws Exception {
    Path out = dir.resolve("capped");
    CliRun r = CliRun.of("bench", "tiny_decoder", "--methods", "random,greedy", "--budget", "6", "--seeds", "1",
        "--reference-factor", "0", "--final-rounds", "1", "--backend", "sim", "--devices", "CPU,GPU.1", "--memory",
        "GPU.1=1MiB",
        "--out", out.toString());
    assertEquals(0, r.exitCode(), r.err());
    assertTrue(r.out().contains("bench: device memory capacities: sim profile paper, --memory for GPU.1"), r.out());
    JsonNode methods = new ObjectMapper().readTree(out.resolve("results.json").toFile()).get("models").get(0)
        .get("methods");
    int capped = 0;
    for (JsonNode m : methods) {
      for (JsonNode run : m.get("runs")) {
        JsonNode gpu = run.path("bestPlacementMemory").path("GPU.1");
        if (!gpu.isMissingNode()) {
          capped++;
          assertEquals(1L << 20, gpu.get("capacity_bytes").asLong(), m.toString());
          assertTrue(gpu.get("total_bytes").asLong() <= 1L << 20, m.toString());
        }
      }
    }
    assertTrue(capped >= 2, methods.toString());
    String md = Files.readString(out.resolve("report.md"));
    assertTrue(
        md.contains("## Memory per device") && md.contains("GPU.1 needs of capacity") && md.contains("of 1.00 MiB"),
        md);

    CliRun outside = CliRun.of("bench", "tiny_decoder", "--methods", "random", "--budget", "2", "--backend", "sim",
        "--devices",
        "CPU,GPU.1", "--memory", "GPU.0=1GiB", "--out", dir.resolve("outside").toString());
    assertEquals(2, outside.exitCode(), outside.err());
    assertEquals(1, outside.err().lines().count(), outside.err());
    assertTrue(outside.err().contains("--memory names GPU.0, which is not among the devices (CPU,GPU.1)"),
        outside.err());
  }

  @Test
  void anEarlierBenchIsNeverOverwrittenAndJsonSummarisesOnStdout() throws Exception {
    Path out = dir.resolve("b");
    CliRun first = CliRun.of("bench", "tiny_chain", "--methods", "random", "--budget", "4", "--seeds", "1",
        "--reference-factor", "0", "--final-rounds", "1", "--backend", "sim", "--json", "--out", out.toString());
    assertEquals(0, first.exitCode(), first.err());
    JsonNode summary = new ObjectMapper().readTree(first.out());
    assertEquals(out.toString(), summary.get("out").asText());
    assertTrue(summary.get("simulated").asBoolean());
    assertTrue(summary.get("models").get(0).get("methods").get("random").get("mean_ms").asDouble() > 0, first.out());
    assertTrue(first.err().contains("bench: "), "progress goes to stderr with --json");
    String results = Files.readString(out.resolve("results.json"));
    CliRun again = CliRun.of("bench", "tiny_chain", "--methods", "random", "--budget", "4", "--out", out.toString());
    assertEquals(2, again.exitCode(), again.err());
    assertTrue(again.err().contains("already holds a bench"), again.err());
    assertEquals(results, Files.readString(out.resolve("results.json")));
  }

  @Test
  void aModelWithNoLayersIsRefusedAndNothingWritten() throws Exception {
    Path empty = Files.writeString(dir.resolve("empty.xml"),
        "<?xml version=\"1.0\"?>\n<net name=\"empty\" version=\"11\">\n  <layers>\n  </layers>\n  <edges>\n  </edges>\n</net>\n");
    Path out = dir.resolve("b");
    CliRun r = CliRun.of("bench", empty.toString(), "--methods", "random", "--budget", "4", "--seeds", "1",
        "--reference-factor", "0", "--backend", "sim", "--out", out.toString());
    assertEquals(2, r.exitCode(), r.err());
    assertEquals("hsdag: " + empty + ": model has no layers", r.err().strip());
    assertFalse(Files.exists(out), "nothing written");
  }

  /** An --out that cannot be written is refused before the bench runs, not after. */
  @Test
  void anUnwritableOutIsRefusedBeforeAnythingRuns() throws Exception {
    Path file = Files.writeString(dir.resolve("a-file"), "x");
    CliRun r = CliRun.of("bench", "tiny_chain", "--methods", "random", "--budget", "4", "--seeds", "1",
        "--reference-factor", "0", "--final-rounds", "1", "--backend", "sim", "--out", file.resolve("out").toString());
    assertEquals(2, r.exitCode(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().contains("--out " + file.resolve("out")), r.err());
    assertEquals("", r.out(), "nothing ran");
  }

  @Test
  void badInputExitsWithTwoAndOneLine() throws Exception {
    Files.writeString(dir.resolve("a-file"), "x");
    assertEquals(2, CliRun.of("bench", "tiny_chain", "--methods", "scotch", "--out", dir.toString()).exitCode());
    CliRun zero = CliRun.of("bench", "tiny_chain", "--budget", "0", "--out", dir.toString());
    assertEquals(2, zero.exitCode());
    assertEquals("hsdag: --budget must be at least 1 (got 0)", zero.err().strip(), "names the one rule broken");
    Path file = dir.resolve("a-file");
    CliRun toFile = CliRun.of("bench", "tiny_chain", "--budget", "2", "--out", file.toString());
    assertEquals(2, toFile.exitCode(), toFile.err());
    assertTrue(toFile.err().contains("is a file"), toFile.err());
    CliRun paperWithModel = CliRun.of("bench", "--paper", "tiny_chain", "--out", dir.resolve("p").toString());
    assertEquals(2, paperWithModel.exitCode());
    assertTrue(paperWithModel.err().contains("--paper chooses the models"), paperWithModel.err());
    CliRun missing = CliRun.of("bench", dir.resolve("nope.xml").toString(), "--out", dir.toString());
    assertEquals(2, missing.exitCode());
    assertTrue(missing.err().contains("nope.xml"), missing.err());
  }

  @Test
  void theCostModelMethodsPlanWithIsChosenLikeTunesAndNamedInTheReport() throws Exception {
    Path named = dir.resolve("named");
    CliRun withProfile = CliRun.of("bench", "tiny_chain", "--methods", "planner", "--budget", "4", "--seeds", "1",
        "--final-rounds", "1",
        "--backend", "sim", "--mismatch", "0.3", "--proxy-profile", "paper", "--out", named.toString());
    assertEquals(0, withProfile.exitCode(), withProfile.err());
    JsonNode json = new ObjectMapper().readTree(named.resolve("results.json").toFile());
    assertTrue(json.get("costModel").asText().contains("profile paper"), json.get("costModel").asText());
    assertTrue(
        Files.readString(named.resolve("report.md")).contains("Methods that plan use the cost model of profile paper"));
    Path cold = dir.resolve("cold");
    CliRun none = CliRun.of("bench", "tiny_chain", "--methods", "greedy", "--budget", "4", "--seeds", "1",
        "--final-rounds", "1",
        "--backend", "sim", "--proxy", "none", "--out", cold.toString());
    assertEquals(0, none.exitCode(), none.err());
    assertTrue(new ObjectMapper().readTree(cold.resolve("results.json").toFile()).get("costModel").asText()
        .startsWith("none"));
    CliRun missing = CliRun.of("bench", "tiny_chain", "--budget", "4", "--proxy-profile",
        dir.resolve("nope.json").toString(),
        "--out", dir.resolve("m").toString());
    assertEquals(2, missing.exitCode(), missing.err());
    assertTrue(missing.err().strip().startsWith("hsdag: --proxy-profile: "), missing.err());
    assertEquals(1, missing.err().strip().lines().count(), missing.err());
    CliRun both = CliRun.of("bench", "tiny_chain", "--proxy", "none", "--proxy-profile", "paper", "--out",
        dir.resolve("x").toString());
    assertEquals(2, both.exitCode(), both.err());
  }

  @Test
  void methodGroupsExpandInTableOrder() {
    assertEquals(List.of("hsdag", "hsdag-no-shape", "hsdag-no-id", "hsdag-no-structural"),
        BenchCommand.resolveMethods(List.of("ablations")));
    assertEquals(List.of("random", "brkga"), BenchCommand.resolveMethods(List.of("brkga", "random")));
  }

  @Test
  void everyDeviceOfTheSetGetsItsSingleDeviceBaselineAnNpuToo() throws Exception {
    Path out = dir.resolve("npu");
    CliRun r = CliRun.of("bench", "tiny_chain", "--backend", "sim", "--profile", "laptop-core-ultra", "--devices",
        "CPU,NPU",
        "--methods", "random", "--budget", "4", "--seeds", "1", "--final-rounds", "1", "--out", out.toString());
    assertEquals(0, r.exitCode(), r.err());
    JsonNode methods = new ObjectMapper().readTree(out.resolve("results.json").toFile()).get("models").get(0)
        .get("methods");
    List<String> names = new java.util.ArrayList<>();
    methods.forEach(m -> names.add(m.get("method").asText()));
    assertEquals(List.of("cpu", "npu", "random"), names);
    assertEquals("NPU-only", methods.get(1).get("label").asText());
    assertEquals(0.0, methods.get(0).get("speedupPercent").asDouble(), 1e-9, "CPU-only is the reference");
  }

  /** The BRKGA runs of a bench with {@code methods} (same seed, budget and model every time). */
  private JsonNode brkgaRuns(String methods, String name) throws Exception {
    Path out = dir.resolve(name);
    CliRun r = CliRun.of("bench", "tiny_chain", "--methods", methods, "--budget", "25", "--seeds", "2", "--seed", "3",
        "--reference-factor", "0", "--backend", "sim", "--out", out.toString());
    assertEquals(0, r.exitCode(), r.err());
    for (JsonNode m : new ObjectMapper().readTree(out.resolve("results.json").toFile()).get("models").get(0)
        .get("methods")) {
      if (m.get("method").asText().equals("brkga")) {
        return m.get("runs");
      }
    }
    throw new AssertionError("no brkga row");
  }

  @Test
  void aMethodsNumbersDoNotDependOnWhichOtherMethodsRan() throws Exception {
    JsonNode alone = brkgaRuns("brkga", "alone");
    JsonNode withOthers = brkgaRuns("random,greedy,brkga", "with-others");
    assertEquals(2, alone.size());
    for (int i = 0; i < alone.size(); i++) {
      for (String field : List.of("seed", "measurements", "searchBestMillis", "finalMillis", "bestSoFarMillis")) {
        assertEquals(alone.get(i).get(field), withOthers.get(i).get(field), "run " + i + " " + field);
      }
    }
  }

  @Test
  void experimentsAreSubcommandsSharingTheirOptionMixins() {
    for (String sub : List.of("planner-figures", "warm-start", "planner-speed")) {
      CliRun help = CliRun.of("bench", sub, "--help");
      assertEquals(0, help.exitCode(), help.err());
      assertTrue(help.out().contains("--profile") && help.out().contains("--devices"), sub + ": " + help.out());
    }
    CliRun realHelp = CliRun.of("bench", "real-runtime-figures", "--help");
    assertTrue(realHelp.out().contains("--sections"), realHelp.out());
    CliRun badFamily = CliRun.of("bench", "planner-speed", "--graph", "nope");
    assertEquals(2, badFamily.exitCode(), "a usage error: " + badFamily.err());
    assertTrue(badFamily.err().contains("--graph"), badFamily.err());
    CliRun speed = CliRun.of("bench", "planner-speed", "--runs", "1", "--graph", "synthetic", "300");
    assertEquals(0, speed.exitCode(), speed.err());
    CliRun clusterHelp = CliRun.of("bench", "cluster-figures", "--help");
    assertTrue(clusterHelp.out().contains("--tasks"), clusterHelp.out());
    CliRun noTasks = CliRun.of("bench", "cluster-figures", "--tasks", "0");
    assertEquals(2, noTasks.exitCode(), "a usage error: " + noTasks.err());
    assertTrue(noTasks.err().contains("--tasks must be at least 1"), noTasks.err());
  }
}
