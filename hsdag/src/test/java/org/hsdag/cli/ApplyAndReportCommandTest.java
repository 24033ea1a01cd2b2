package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.PlacementFiles;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApplyAndReportCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path tmp;
  private Path model;
  private OpGraph graph;

  @BeforeEach
  void writeModel() throws IOException {
    model = TestModels.twoBranch(tmp);
    graph = TestModels.read(model);
  }

  /** A placement file: the first {@code onGpu} compute-or-not nodes on GPU.1, the rest on CPU. */
  private Path placement(String name, Map<String, String> map) throws IOException {
    Path f = tmp.resolve(name);
    Files.writeString(f, JSON.writeValueAsString(map));
    return f;
  }

  private Map<String, String> halfAndHalf() {
    Map<String, String> m = new LinkedHashMap<>();
    for (int v = 0; v < graph.nodeCount(); v++) {
      m.put(graph.node(v).name(), v < graph.nodeCount() / 2 ? "GPU.1" : "CPU");
    }
    return m;
  }

  private static void assertOneLineError(CliRun r, String fragment) {
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().contains(fragment), r.err());
  }

  @Test
  void applyValidatesMeasuresAgainstBaselinesAndShowsHowToUseIt() throws IOException {
    Path p = placement("half.json", halfAndHalf());
    CliRun r = CliRun.of("apply", model.toString(), p.toString(), "--backend", "sim", "--rounds", "2");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.out().contains("placement is valid"), r.out());
    assertTrue(r.out().contains("SIMULATED"), r.out());
    assertTrue(r.out().contains("CPU-only") && r.out().contains("GPU.1-only"), r.out());
    assertFalse(r.out().contains("-affinity"), "no released benchmark_app reads a placement file");
    assertTrue(r.out().contains("compile_model(model, \"HETERO:CPU,GPU.1\", {\"PERFORMANCE_HINT\": \"LATENCY\"})")
        && r.out().contains(p.toString()), r.out());
    assertTrue(r.out().contains("OpenVinoBackend.open"), r.out());
    assertFalse(r.out().contains("kept"), "apply keeps nothing: " + r.out());
  }

  /** A placement that failed to run gets no usage code: nothing tells the user to use it with OpenVINO. */
  @Test
  void aPlacementThatFailedPrintsNoUsageCode() throws IOException {
    Path p = placement("half.json", halfAndHalf());
    CliRun r = CliRun.of("apply", model.toString(), p.toString(), "--backend", "fake-splits-fail", "--rounds", "2");
    assertEquals(ExitCodes.FAILURE, r.exitCode(), r.out() + r.err());
    assertTrue(
        r.out().lines()
            .anyMatch(l -> l.startsWith("  placement") && l.contains("failed") && l.contains("fake failure")),
        r.out());
    assertTrue(r.out().contains("no usage code: the placement did not run here"), r.out());
    assertFalse(r.out().contains("Use it with OpenVINO") || r.out().contains("compile_model("), r.out());
    assertTrue(r.err().contains("the placement failed to run: ") && r.err().contains("fake failure"), r.err());
  }

  /** A split within the noise of a single device: apply keeps nothing, so its verdict says which to use, not "kept". */
  @Test
  void aSplitWithinTheNoiseIsNotSaidToBeKept() {
    org.hsdag.placement.DeviceSet ds = org.hsdag.placement.DeviceSet.of("CPU", "GPU.1");
    org.hsdag.search.Candidate cpu = new org.hsdag.search.Candidate("CPU-only", true,
        org.hsdag.placement.Placement.allOn(ds, 3, "CPU"), -1, 10.0, 10.0, 9.5, 10.5, java.util.List.of(10.0, 10.0),
        20, 1, null);
    org.hsdag.search.Candidate split = new org.hsdag.search.Candidate("placement", false,
        new org.hsdag.placement.Placement(ds, new int[] {0, 1, 1}), 0, 9.9, 9.9, 9.4, 10.4,
        java.util.List.of(9.9, 9.9), 20, 2, null);
    java.util.List<org.hsdag.search.Candidate> both = java.util.List.of(split, cpu);
    org.hsdag.search.Verdict v = org.hsdag.search.Verdict.of(both);
    assertEquals(org.hsdag.search.Decision.SPLIT_WITHIN_NOISE, v.decision());
    String said = ApplyCommand.verdictText(new org.hsdag.search.FinalResult(both, v, false));
    assertFalse(said.contains("kept"), said);
    assertTrue(said.contains("not shown to be faster than CPU-only") && said.contains("CPU alone does as well"), said);
  }

  /** Throughput: inferences/s, the THROUGHPUT hint and an async queue, and the option kept in the command again. */
  @Test
  void underThroughputApplyPrintsInferencesPerSecondAndTheSnippetQueuesRequests() throws IOException {
    Path p = placement("half.json", halfAndHalf());
    CliRun r = CliRun.of("apply", model.toString(), p.toString(), "--backend", "sim", "--rounds", "2", "--objective",
        "throughput");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.out().lines().anyMatch(l -> l.startsWith("  placement") && l.endsWith("inferences/s")), r.out());
    assertTrue(r.out().contains("\"PERFORMANCE_HINT\": \"THROUGHPUT\"") && r.out().contains("ov.AsyncInferQueue("),
        r.out());
    assertTrue(r.out().lines().anyMatch(l -> l.contains("or from the shell: ") && l.contains("--objective throughput")
        && l.contains("--rounds 2")), r.out());
  }

  /** A path with a space and a quote: the shell line, the Python and the Java lines hsdag prints still paste. */
  @Test
  void printedCommandsQuotePathsForTheShellAndEscapeThemForEachLanguage() throws IOException {
    Path odd = Files.createDirectories(tmp.resolve("my \"odd\" dir"));
    Path m = Files.copy(model, odd.resolve("model.xml"));
    Path p = Files.writeString(odd.resolve("half.json"), Files.readString(placement("half.json", halfAndHalf())));
    CliRun r = CliRun.of("apply", m.toString(), p.toString(), "--backend", "sim", "--rounds", "2");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    String escaped = m.toString().replace("\"", "\\\"");
    assertTrue(r.out().contains("core.read_model(\"" + escaped + "\")"), r.out());
    assertTrue(r.out().contains("new IrReader().read(Path.of(\"" + escaped + "\"))"), r.out());
    assertTrue(r.out().contains(" apply '" + m + "' '" + p + "' --backend openvino"), r.out());

    Path out = odd.resolve("run");
    CliRun t = CliRun.of("tune", m.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--strategy", "random",
        "--budget", "3", "--top-k", "1", "--final-rounds", "1", "--no-report", "--out", out.toString());
    assertEquals(ExitCodes.OK, t.exitCode(), t.err());
    assertTrue(t.out().lines()
        .anyMatch(
            l -> l.contains(" apply '" + m + "' '" + out.resolve("best.json") + "' --backend sim --profile paper")),
        t.out());
  }

  /** A single-device placement is that device's baseline: no split decision; the statistic counts the rounds it holds. */
  @Test
  void applyJsonOfASingleDevicePlacementMakesNoSplitDecisionAndCountsItsRounds() throws IOException {
    Map<String, String> allCpu = new LinkedHashMap<>();
    for (int v = 0; v < graph.nodeCount(); v++) {
      allCpu.put(graph.node(v).name(), "CPU");
    }
    CliRun r = CliRun.of("apply", model.toString(), placement("cpu.json", allCpu).toString(), "--devices", "CPU,GPU.1",
        "--backend", "sim", "--rounds", "3", "--json");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    JsonNode n = JSON.readTree(r.out());
    assertEquals("single_device", n.get("decision").asText(), r.out());
    assertTrue(n.get("decision_text").asText().contains("CPU-only"), r.out());
    assertTrue(n.get("statistic").asText().startsWith("median of " + n.get("rounds_ms").size() + " rounds"), r.out());
  }

  /** The report prints a latency as the terminal does (three decimals), whatever its size. */
  @Test
  void theReportShowsLatenciesWithTheTerminalsDecimals() throws IOException {
    Path out = tmp.resolve("fake-run");
    java.io.StringWriter text = new java.io.StringWriter();
    picocli.CommandLine cl = new picocli.CommandLine(new TuneCommand(org.hsdag.testkit.FakeBackend.cpuGpu()));
    cl.setOut(new java.io.PrintWriter(text, true));
    cl.setErr(new java.io.PrintWriter(new java.io.StringWriter(), true));
    assertEquals(ExitCodes.OK,
        cl.execute(model.toString(), "--devices", "CPU,GPU.1", "--strategy", "random", "--budget",
            "3", "--top-k", "1", "--final-rounds", "1", "--out", out.toString()),
        text.toString());
    String cpuLine = text.toString().lines().filter(l -> l.trim().startsWith("CPU-only")).findFirst().orElseThrow();
    String cpuMs = java.util.Arrays.stream(cpuLine.trim().split("\\s+")).filter(w -> w.matches("\\d+\\.\\d{3}"))
        .findFirst()
        .orElseThrow();
    assertTrue(Double.parseDouble(cpuMs) >= 10, "a latency of two integer digits: " + cpuLine);
    assertTrue(Files.readString(out.resolve("report.md")).contains(cpuMs), cpuMs + " not in the report");
  }

  @Test
  void applyJsonCarriesTheMeasurementForScripts() throws IOException {
    Path p = placement("half.json", halfAndHalf());
    CliRun r = CliRun.of("apply", model.toString(), p.toString(), "--backend", "sim", "--rounds", "3", "--json");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    JsonNode n = JSON.readTree(r.out());
    assertTrue(n.get("latency_ms").asDouble() > 0);
    assertEquals(3 * 10, n.get("samples").asInt());
    assertTrue(n.get("statistic").asText().contains("mean-of-last-5"));
    assertEquals("sim", n.get("backend").asText());
    assertEquals("paper", n.get("profile").asText());
    assertTrue(n.get("sub_models").asInt() >= 2, "a split placement has several sub-models");
    assertTrue(n.get("baselines").get("CPU-only").get("speedup").asDouble() > 0);
  }

  @Test
  void aNodeNamedTwiceInAPlacementFileIsRefusedWithItsLine() throws IOException {
    String name = graph.node(2).name();
    Path twice = Files.writeString(tmp.resolve("twice.json"), Files.readString(placement("t.json", halfAndHalf()))
        .replaceFirst("\\{", java.util.regex.Matcher.quoteReplacement("{\n  \"" + name + "\" : \"GPU.1\",")));
    CliRun r = CliRun.of("apply", model.toString(), twice.toString(), "--backend", "sim");
    assertOneLineError(r, "node \"" + name + "\" is placed twice");
    assertTrue(r.err().startsWith("hsdag: " + twice + ":"), r.err());
  }

  @Test
  void applyRejectsPlacementsThatDoNotFitModelOrDevices() throws IOException {
    Map<String, String> unknownNode = halfAndHalf();
    unknownNode.put("no_such_layer", "CPU");
    assertOneLineError(
        CliRun.of("apply", model.toString(), placement("u.json", unknownNode).toString(), "--backend", "sim"),
        "'no_such_layer'");

    Map<String, String> missing = halfAndHalf();
    missing.remove(graph.node(3).name());
    assertOneLineError(
        CliRun.of("apply", model.toString(), placement("m.json", missing).toString(), "--backend", "sim"),
        "misses 1 of");

    Map<String, String> badDevice = halfAndHalf();
    badDevice.put(graph.node(2).name(), "GPU.7");
    assertOneLineError(
        CliRun.of("apply", model.toString(), placement("d.json", badDevice).toString(), "--backend", "sim"),
        "'GPU.7'");

    Files.writeString(tmp.resolve("broken.json"), "{\"a\": ");
    assertOneLineError(CliRun.of("apply", model.toString(), tmp.resolve("broken.json").toString(), "--backend", "sim"),
        "broken.json");
  }

  @Test
  void applyRejectsAnOpOnADeviceThatCannotRunIt() throws IOException {
    // A copy of the paper profile in which GPU.1 cannot run convolutions.
    ObjectNode profile;
    try (InputStream in = getClass().getResourceAsStream("/org/hsdag/cost/profiles/paper.json")) {
      profile = (ObjectNode) JSON.readTree(in);
    }
    profile.put("name", "no-gpu-conv");
    for (JsonNode d : profile.get("devices")) {
      if (d.get("name").asText().equals("GPU.1")) {
        ((ArrayNode) d.get("unsupportedOps")).add("Convolution");
      }
    }
    Path profileFile = tmp.resolve("no-gpu-conv.json");
    Files.writeString(profileFile, JSON.writeValueAsString(profile));
    Map<String, String> allGpu = new LinkedHashMap<>();
    for (int v = 0; v < graph.nodeCount(); v++) {
      allGpu.put(graph.node(v).name(), "GPU.1");
    }
    CliRun r = CliRun.of("apply", model.toString(), placement("gpu.json", allGpu).toString(), "--backend", "sim",
        "--profile", profileFile.toString());
    assertOneLineError(r, "which cannot run it");
    assertTrue(r.err().contains("(Convolution)"), r.err());
  }

  @Test
  void reportRewritesTheReportOfARunAndRefusesOtherFolders() throws IOException {
    Path out = tmp.resolve("run");
    CliRun t = CliRun.of("tune", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--strategy", "random",
        "--budget", "12", "--final-rounds", "2", "--top-k", "2", "--out", out.toString(), "--no-report", "--quiet");
    assertEquals(ExitCodes.OK, t.exitCode(), t.err());
    assertTrue(Files.notExists(out.resolve("report.md")));

    CliRun r = CliRun.of("report", out.toString());
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.out().contains("wrote " + out.resolve("report.html")), r.out());
    String md = Files.readString(out.resolve("report.md"));
    assertTrue(md.contains("## Baselines and best candidates"), md);
    assertTrue(md.contains("## Where the work runs"), md);
    assertTrue(md.contains("share of kernel time"), "the simulator reports time per device: " + md);
    assertTrue(md.contains("Graphviz") || Files.isRegularFile(out.resolve("placement.svg")), md);
    assertTrue(md.contains(" apply ") && md.contains("--backend openvino") && !md.contains("-affinity"), md);
    // The applied best.json of the run is a valid placement for the model.
    assertEquals(graph.nodeCount(), PlacementFiles.readMap(out.resolve("best.json")).size());

    assertOneLineError(CliRun.of("report", tmp.toString()), "not a run folder");
    assertOneLineError(CliRun.of("report", tmp.resolve("nope").toString()), "no such run folder");
  }
}
