package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.PlacementFiles;
import org.hsdag.tune.LogRecord;
import org.hsdag.tune.RunLog;
import org.hsdag.tune.RunManifest;
import org.hsdag.tune.TuneConfig;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TuneCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path tmp;
  private Path model;

  @BeforeEach
  void writeModel() throws IOException {
    model = TestModels.twoBranch(tmp);
  }

  /** Runs tune on the test model with small defaults; {@code extra} options replace defaults of the same name. */
  private CliRun tune(Path out, String... extra) {
    java.util.Map<String, String> opts = new java.util.LinkedHashMap<>();
    opts.put("--backend", "sim");
    opts.put("--devices", "CPU,GPU.1");
    opts.put("--strategy", "random");
    opts.put("--budget", "20");
    opts.put("--top-k", "2");
    opts.put("--final-rounds", "2");
    opts.put("--out", out.toString());
    List<String> flags = new java.util.ArrayList<>();
    for (int i = 0; i < extra.length; i++) {
      if (i + 1 < extra.length && !extra[i + 1].startsWith("--")) {
        opts.put(extra[i], extra[++i]);
      } else {
        flags.add(extra[i]);
      }
    }
    List<String> args = new java.util.ArrayList<>(List.of("tune", model.toString()));
    opts.forEach((k, v) -> {
      args.add(k);
      args.add(v);
    });
    args.addAll(flags);
    return CliRun.of(args.toArray(String[]::new));
  }

  private static void assertOneLineError(CliRun r, int code, String fragment) {
    assertEquals(code, r.exitCode(), r.err());
    assertEquals(1, r.err().lines().count(), "one line on stderr: " + r.err());
    assertTrue(r.err().startsWith("hsdag: "), r.err());
    assertTrue(r.err().contains(fragment), r.err());
  }

  @Test
  void tuneWritesTheRunFolderAndLabelsEveryNumberAsSimulated() throws IOException {
    Path out = tmp.resolve("runs/two");
    CliRun r = tune(out);

    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.out().contains("backend sim, profile paper"), r.out());
    assertTrue(r.out().contains("SIMULATED"), r.out());
    assertTrue(r.out().contains("CPU-only") && r.out().contains("GPU.1-only"), r.out());
    assertTrue(r.out().contains("best: "), r.out());
    assertTrue(r.err().contains("simulated"), "progress names the kind of numbers: " + r.err());
    for (String f : List.of("manifest.json", "log.jsonl", "best.json", "placement.dot", "result.json", "report.md",
        "report.html", "latency.png", "latency.svg", "checkpoint/latest.json")) {
      assertTrue(Files.isRegularFile(out.resolve(f)), f);
    }
    OpGraph g = TestModels.read(model);
    assertEquals(g.nodeCount(), PlacementFiles.read(out.resolve("best.json"), g, DeviceSet.of("CPU", "GPU.1")).size());
    RunManifest mf = RunManifest.read(out);
    assertEquals(RunManifest.sha256(model), mf.modelSha256());
    assertTrue(mf.simulated());
    assertEquals(20, mf.config().budget());
    List<LogRecord> log = RunLog.read(out.resolve("log.jsonl")).records();
    assertEquals("completed", log.get(log.size() - 1).status());
    String md = Files.readString(out.resolve("report.md"));
    assertTrue(md.contains("simulated"), md);
    assertTrue(md.contains("CPU-only") && md.contains("![latency per measurement"), md);
    String html = Files.readString(out.resolve("report.html"));
    assertTrue(html.contains("data:image/png;base64,"), "the plot is embedded");
    assertFalse(html.contains("src=\"latency.png\""), "the page needs no other file");
    // Two tables count operations differently; each says which count it shows.
    assertTrue(md.contains("| all ops per device |") && md.contains("| compute ops |"), md);
    assertTrue(html.contains("white-space:nowrap"), "table cells such as 'CPU 51, GPU.1 345' do not wrap");
    assertTrue(Files.readString(out.resolve("latency.svg")).contains("<svg"));
  }

  @Test
  void jsonModePrintsOneJsonDocumentAndNoProgress() throws IOException {
    CliRun r = tune(tmp.resolve("j"), "--json");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    JsonNode n = JSON.readTree(r.out());
    assertEquals("completed", n.get("status").asText());
    assertEquals("sim", n.get("backend").asText());
    assertEquals("paper", n.get("profile").asText());
    assertTrue(n.get("simulated").asBoolean());
    assertEquals(20, n.get("measurements").asInt());
    assertTrue(n.get("best").get("latency_ms").asDouble() > 0);
    assertEquals("", r.err());
  }

  @Test
  void everyReportedLatencyLiesInsideItsOwnInterval() throws IOException {
    CliRun r = tune(tmp.resolve("ci"), "--json", "--final-rounds", "7", "--top-k", "3");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    for (JsonNode c : JSON.readTree(r.out()).get("candidates")) {
      double ms = c.get("latency_ms").asDouble();
      assertTrue(c.get("ci95_low_ms").asDouble() <= ms && ms <= c.get("ci95_high_ms").asDouble(), c.toString());
    }
  }

  @Test
  void quietModePrintsOneLine() {
    CliRun r = tune(tmp.resolve("q"), "--quiet");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertEquals(1, r.out().lines().count(), r.out());
    assertTrue(r.out().contains("simulated"), r.out());
  }

  @Test
  void extendingAFinishedRunEqualsRunningWithTheLargerBudgetFromTheStart() throws IOException {
    Path ext = tmp.resolve("extended");
    assertEquals(ExitCodes.OK, tune(ext).exitCode());
    CliRun more = CliRun.of("tune", "--resume", "--out", ext.toString(), "--budget", "35", "--json");
    assertEquals(ExitCodes.OK, more.exitCode(), more.err());
    assertEquals(35, RunManifest.read(ext).config().budget());

    Path direct = tmp.resolve("direct");
    assertEquals(ExitCodes.OK, tune(direct, "--budget", "35").exitCode());
    assertEquals(Files.readString(direct.resolve("best.json")), Files.readString(ext.resolve("best.json")));
    JsonNode a = JSON.readTree(Files.readString(direct.resolve("result.json")));
    JsonNode b = JSON.readTree(more.out());
    assertEquals(a.get("best").get("latency_ms").asDouble(), b.get("best").get("latency_ms").asDouble());
    assertEquals(35, b.get("measurements").asInt());
  }

  @Test
  void badInputGivesOneLineAndExitCodeTwo() throws IOException {
    assertOneLineError(CliRun.of("tune", tmp.resolve("missing.xml").toString(), "--backend", "sim"), 2, "not found");
    assertOneLineError(tune(tmp.resolve("d"), "--devices", "CPU,GPU.7"), 2, "GPU.7 is not a device of sim/paper");
    assertOneLineError(tune(tmp.resolve("p"), "--protocol", "ten-runs"), 2, "--protocol");
    assertOneLineError(tune(tmp.resolve("s"), "--strategy", "genetic"), 2, "unknown strategy 'genetic'");
    assertOneLineError(tune(tmp.resolve("c"), "--coarsen", "tight"), 2, "--coarsen");
    assertOneLineError(tune(tmp.resolve("b"), "--budget", "0"), 2, "budget");
    assertOneLineError(CliRun.of("tune", model.toString(), "--backend", "quantum"), 2, "unknown backend");
    // An unavailable backend is a failure to run here rather than bad input; either way one line, non-zero.
    CliRun ov = CliRun.of("tune", model.toString(), "--backend", "openvino");
    assertNotEquals(0, ov.exitCode());
    assertEquals(1, ov.err().lines().count(), ov.err());
    assertTrue(ov.err().contains("openvino"), ov.err());
    assertOneLineError(CliRun.of("tune", "--resume"), 2, "--resume needs --out");
    assertOneLineError(CliRun.of("tune", "--resume", "--out", tmp.toString()), 2, "no run to resume");
    assertOneLineError(CliRun.of("tune"), 2, "missing MODEL");
    assertFalse(Files.exists(tmp.resolve("d")), "nothing is written for bad input");
  }

  @Test
  void anExistingRunIsNeverOverwritten() throws IOException {
    Path out = tmp.resolve("kept");
    assertEquals(ExitCodes.OK, tune(out).exitCode());
    String log = Files.readString(out.resolve("log.jsonl"));
    assertOneLineError(tune(out), 2, "already holds a run");
    assertEquals(log, Files.readString(out.resolve("log.jsonl")));
  }

  @Test
  void resumingWithAnotherModelIsRefused() throws IOException {
    Path out = tmp.resolve("m");
    assertEquals(ExitCodes.OK, tune(out).exitCode());
    Path other = TestModels.chain(tmp);
    assertOneLineError(CliRun.of("tune", other.toString(), "--resume", "--out", out.toString()), 2, "SHA-256");
  }

  @Test
  void aRunFolderThatCannotBeCreatedIsBadInputWithOneLine() throws IOException {
    Path file = Files.writeString(tmp.resolve("plain-file"), "x");
    CliRun r = tune(file.resolve("run"));
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().startsWith("hsdag: "), r.err());
    assertEquals("x", Files.readString(file), "nothing already there is touched");
  }

  @Test
  void anUnwritableRunFolderIsBadInputWithOneLine() throws IOException {
    Path locked = Files.createDirectory(tmp.resolve("locked"));
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      assumeFalse(Files.isWritable(locked), "skipped: running as a user who can write anywhere (root)");
      CliRun r = tune(locked.resolve("run"));
      assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
      assertEquals(1, r.err().lines().count(), r.err());
      assertTrue(r.err().contains("permission denied"), r.err());
    } finally {
      Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"placeto", "rnn", "brkga", "greedy", "gpu1", "openvino-gpu", "hsdag-paper"})
  void everyMethodBenchKnowsTunesEndToEnd(String strategy) throws IOException {
    Path out = tmp.resolve("s-" + strategy);
    CliRun r = tune(out, "--strategy", strategy, "--budget", "10", "--patience", "5", "--top-k", "1", "--final-rounds",
        "1",
        "--quiet");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertEquals(strategy, RunManifest.read(out).config().strategy());
    List<LogRecord> log = RunLog.read(out.resolve("log.jsonl")).records();
    assertEquals("completed", log.get(log.size() - 1).status());
    assertTrue(Files.isRegularFile(out.resolve("best.json")));
  }

  @Test
  void aPlacetoRunExtendedByResumeEqualsOneRunWithTheLargerBudget() throws IOException {
    // Placeto keeps no checkpoint: resume replays its whole log through it. Per-op units, so each
    // step is a new placement.
    Path ext = tmp.resolve("placeto-extended");
    assertEquals(ExitCodes.OK,
        tune(ext, "--strategy", "placeto", "--coarsen", "none", "--budget", "5", "--quiet").exitCode());
    CliRun more = CliRun.of("tune", "--resume", "--out", ext.toString(), "--budget", "8", "--json");
    assertEquals(ExitCodes.OK, more.exitCode(), more.err());
    Path direct = tmp.resolve("placeto-direct");
    assertEquals(ExitCodes.OK,
        tune(direct, "--strategy", "placeto", "--coarsen", "none", "--budget", "8", "--quiet").exitCode());
    assertEquals(Files.readString(direct.resolve("best.json")), Files.readString(ext.resolve("best.json")));
    JsonNode a = JSON.readTree(Files.readString(direct.resolve("result.json")));
    JsonNode b = JSON.readTree(more.out());
    assertEquals(a.get("best").get("latency_ms").asDouble(), b.get("best").get("latency_ms").asDouble());
    assertEquals(a.get("steps"), b.get("steps"));
    assertEquals(8, b.get("measurements").asInt());
    List<String> directSteps = RunLog.read(direct.resolve("log.jsonl")).records().stream()
        .filter(x -> LogRecord.PHASE_SEARCH.equals(x.phase())).map(x -> x.assignment() + x.latencyMs()).toList();
    List<String> extendedSteps = RunLog.read(ext.resolve("log.jsonl")).records().stream()
        .filter(x -> LogRecord.PHASE_SEARCH.equals(x.phase())).map(x -> x.assignment() + x.latencyMs()).toList();
    assertEquals(directSteps, extendedSteps);
  }

  @Test
  void strategyOptionsAreCheckedAgainstTheChosenStrategy() {
    assertOneLineError(tune(tmp.resolve("o1"), "--strategy", "random", "--steps", "4"), 2,
        "strategy random has no option 'steps'");
    assertOneLineError(tune(tmp.resolve("o2"), "--strategy", "brkga", "-S", "population=few"), 2,
        "population=few is not a number");
    assertOneLineError(tune(tmp.resolve("o3"), "--strategy", "gpu0"), 2, "needs device GPU.0");
    assertFalse(Files.exists(tmp.resolve("o1")) || Files.exists(tmp.resolve("o2")) || Files.exists(tmp.resolve("o3")));
  }

  @Test
  void theDefaultPatienceStopsEarlyOnlyASearchThatPlansOnACostModel() throws IOException {
    Path warm = tmp.resolve("patience-warm");
    assertEquals(ExitCodes.OK, tune(warm, "--strategy", "planner", "--quiet").exitCode());
    assertEquals(TuneConfig.DEFAULT_PATIENCE, RunManifest.read(warm).config().patience());
    Path cold = tmp.resolve("patience-cold");
    assertEquals(ExitCodes.OK, tune(cold, "--proxy", "none", "--quiet").exitCode());
    assertEquals(0, RunManifest.read(cold).config().patience(), "a cold start has no model to tell what cannot pay");
    Path random = tmp.resolve("patience-random");
    assertEquals(ExitCodes.OK, tune(random, "--quiet").exitCode());
    assertEquals(0, RunManifest.read(random).config().patience(), "random search does not plan on the cost model");
    Path given = tmp.resolve("patience-given");
    assertEquals(ExitCodes.OK, tune(given, "--proxy", "none", "--patience", "7", "--quiet").exitCode());
    assertEquals(7, RunManifest.read(given).config().patience());
  }

  @Test
  void withoutACpuTheReferenceIsTheFirstDeviceAndTheOutputNamesIt() throws IOException {
    Path out = tmp.resolve("no-cpu");
    CliRun r = tune(out, "--devices", "GPU.1,GPU.0");
    assertEquals(0, r.exitCode(), r.err());
    assertTrue(r.out().contains("vs GPU.1-only"), r.out());
    assertFalse(r.out().contains("CPU-only"), r.out());
    String best = r.out().lines().filter(l -> l.startsWith("best: ")).findFirst().orElseThrow();
    assertTrue(best.indexOf("GPU.1-only") == best.lastIndexOf("GPU.1-only"),
        "the reference, also the fastest single device, is named once: " + best);
    JsonNode result = JSON.readTree(out.resolve("result.json").toFile());
    assertEquals("GPU.1-only", result.at("/best/reference").asText(), result.toString());
    assertTrue(result.at("/best/speedup_vs_reference").asDouble() > 0, result.toString());
  }
}
