package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hsdag.plan.ProxyChoice;
import org.hsdag.tune.RunFolder;
import org.hsdag.tune.RunManifest;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a run folder accepts: custom profiles on resume, one writer at a time, refusals that change nothing. */
class RunFolderRulesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path tmp;
  Path model;

  @BeforeEach
  void writeModel() throws IOException {
    model = TestModels.twoBranch(tmp);
  }

  private CliRun tune(Path out, String... extra) {
    List<String> args = new ArrayList<>(List.of("tune", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1",
        "--top-k", "1", "--final-rounds", "1", "--quiet", "--out", out.toString()));
    if (!List.of(extra).contains("--strategy") && !List.of(extra).contains("--resume")) {
      args.addAll(List.of("--strategy", "random"));
    }
    args.addAll(List.of(extra));
    return CliRun.of(args.toArray(String[]::new));
  }

  /** A copy of the paper profile named {@code mybox}, slower on GPU.1 by {@code gpuScale}. */
  private Path customProfile(Path file, double gpuScale) throws IOException {
    ObjectNode profile;
    try (InputStream in = getClass().getResourceAsStream("/org/hsdag/cost/profiles/paper.json")) {
      profile = (ObjectNode) JSON.readTree(in);
    }
    profile.put("name", "mybox");
    for (var d : profile.get("devices")) {
      if (d.get("name").asText().equals("GPU.1")) {
        ((ObjectNode) d).put("launchOverheadUs", d.get("launchOverheadUs").asDouble() * gpuScale);
      }
    }
    Files.createDirectories(file.getParent());
    Files.writeString(file, JSON.writeValueAsString(profile));
    return file;
  }

  @Test
  void aRunWithACustomProfileResumesFromItsRecordedFileOrTheSameContentElsewhere() throws IOException {
    Path profile = customProfile(tmp.resolve("profiles/mybox.json"), 1.0);
    Path out = tmp.resolve("run");
    CliRun first = tune(out, "--budget", "8", "--profile", profile.toString());
    assertEquals(ExitCodes.OK, first.exitCode(), first.err());
    RunManifest.ProfileSource recorded = RunManifest.read(out).profileSource();
    assertEquals(profile.toAbsolutePath().normalize().toString(), recorded.path());
    assertEquals(RunManifest.sha256(profile), recorded.sha256());

    // The recorded file, found without being named again.
    CliRun more = tune(out, "--resume", "--budget", "12");
    assertEquals(ExitCodes.OK, more.exitCode(), more.err());
    assertEquals(12, RunManifest.read(out).config().budget());

    // The same content under another path.
    Path moved = Files.move(profile, tmp.resolve("elsewhere.json"));
    CliRun moreElsewhere = tune(out, "--resume", "--budget", "16", "--profile", moved.toString());
    assertEquals(ExitCodes.OK, moreElsewhere.exitCode(), moreElsewhere.err());

    // Not found where recorded and not given: the reason and the fix.
    CliRun lost = tune(out, "--resume", "--budget", "20");
    assertEquals(ExitCodes.BAD_INPUT, lost.exitCode(), lost.err());
    assertEquals(1, lost.err().lines().count(), lost.err());
    assertTrue(lost.err().contains("pass --profile FILE with the same content"), lost.err());
  }

  @Test
  void aChangedProfileIsRefusedAndTheRunIsLeftAsItWas() throws IOException {
    Path profile = customProfile(tmp.resolve("mybox.json"), 1.0);
    Path out = tmp.resolve("run");
    assertEquals(ExitCodes.OK, tune(out, "--budget", "8", "--profile", profile.toString()).exitCode());
    String manifest = Files.readString(out.resolve(RunManifest.FILE));
    String log = Files.readString(out.resolve("log.jsonl"));
    customProfile(profile, 2.0);
    CliRun changed = tune(out, "--resume", "--budget", "12", "--profile", profile.toString());
    assertEquals(ExitCodes.BAD_INPUT, changed.exitCode(), changed.err());
    assertEquals(1, changed.err().lines().count(), changed.err());
    assertTrue(changed.err().contains("is not the profile this run measured with"), changed.err());
    assertEquals(manifest, Files.readString(out.resolve(RunManifest.FILE)), "a refused resume rewrites nothing");
    assertEquals(log, Files.readString(out.resolve("log.jsonl")));
  }

  @Test
  void freshProfileOnAResumeIsRefusedInOneLineAndTheRunIsLeftAsItWas() throws IOException {
    Path out = tmp.resolve("run");
    assertEquals(ExitCodes.OK, tune(out, "--budget", "6").exitCode());
    String manifest = Files.readString(out.resolve(RunManifest.FILE));
    String log = Files.readString(out.resolve("log.jsonl"));
    CliRun fresh = tune(out, "--resume", "--budget", "12", "--fresh-profile");
    assertEquals(ExitCodes.BAD_INPUT, fresh.exitCode(), fresh.out() + fresh.err());
    assertEquals(1, fresh.err().lines().count(), fresh.err());
    assertTrue(fresh.err().contains("--fresh-profile cannot be used with --resume"), fresh.err());
    assertEquals(manifest, Files.readString(out.resolve(RunManifest.FILE)), "a refused resume rewrites nothing");
    assertEquals(log, Files.readString(out.resolve("log.jsonl")));
  }

  @Test
  void aFolderHeldByAnotherRunRefusesNewRunsAndResumesWithoutWritingAnything() throws IOException {
    Path out = tmp.resolve("held");
    assertEquals(ExitCodes.OK, tune(out, "--budget", "6", "--seed", "1").exitCode());
    String manifest = Files.readString(out.resolve(RunManifest.FILE));
    try (RunFolder held = RunFolder.lock(out)) {
      CliRun resume = tune(out, "--resume", "--budget", "100");
      assertEquals(ExitCodes.BAD_INPUT, resume.exitCode(), resume.err());
      assertTrue(resume.err().contains("in use by another running"), resume.err());
      CliRun second = tune(out, "--budget", "6", "--seed", "7");
      assertEquals(ExitCodes.BAD_INPUT, second.exitCode(), second.err());
    }
    assertEquals(manifest, Files.readString(out.resolve(RunManifest.FILE)));
  }

  @Test
  void twoProcessesTuningIntoOneFolderLeaveTheFirstRunIntact() throws Exception {
    Path out = tmp.resolve("shared");
    List<String> common = List.of("tune", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--strategy",
        "random", "--top-k", "1", "--final-rounds", "1", "--quiet", "--out", out.toString());
    List<String> firstArgs = new ArrayList<>(common);
    firstArgs.addAll(List.of("--seed", "1", "--budget", "60"));
    List<String> secondArgs = new ArrayList<>(common);
    secondArgs.addAll(List.of("--seed", "7", "--budget", "30"));
    Process first = new ProcessBuilder(CliChild.command(List.of(), firstArgs)).redirectErrorStream(true)
        .redirectOutput(tmp.resolve("first.txt").toFile()).start();
    // The second starts once the first has written its manifest, at any point of the first's run.
    while (!Files.exists(out.resolve(RunManifest.FILE)) && first.isAlive()) {
      Thread.sleep(5);
    }
    Process second = new ProcessBuilder(CliChild.command(List.of(), secondArgs)).redirectErrorStream(true)
        .redirectOutput(tmp.resolve("second.txt").toFile()).start();
    assertTrue(second.waitFor(120, TimeUnit.SECONDS));
    assertTrue(first.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, first.exitValue(), Files.readString(tmp.resolve("first.txt")));
    assertEquals(ExitCodes.BAD_INPUT, second.exitValue(), Files.readString(tmp.resolve("second.txt")));
    RunManifest mf = RunManifest.read(out);
    assertEquals(1, mf.config().seed());
    assertEquals(60, mf.config().budget());
    CliRun resumed = tune(out, "--resume");
    assertEquals(ExitCodes.OK, resumed.exitCode(), resumed.err());
  }

  @Test
  void inputSizesBeyondTheReadersTensorBoundAreOneLineExitTwoAndWriteNothing() {
    Path bert = org.hsdag.testkit.Samples.irSample("distilbert-base-uncased-sst2.xml");
    Path out = tmp.resolve("huge");
    CliRun r = CliRun.of("tune", bert.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--budget", "3",
        "--input-shape", "input_ids=1,100000000", "--out", out.toString());
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().contains("more than 2^36 elements"), r.err());
    assertFalse(Files.exists(out), "nothing written");
  }

  @Test
  void theInputSizesOfADynamicModelAreSaidOnceRecordedAndKeptOnResume() throws IOException {
    Path bert = org.hsdag.testkit.Samples.irSample("distilbert-base-uncased-sst2.xml");
    Path out = tmp.resolve("bert");
    CliRun r = CliRun.of("tune", bert.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--strategy", "random",
        "--budget", "3", "--top-k", "1", "--final-rounds", "1", "--input-shape", "input_ids=1,32;attention_mask=1,32",
        "--out", out.toString());
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertEquals(1, r.err().lines().filter(l -> l.contains("dynamic inputs measured as input_ids=1x32")).count(),
        r.err());
    RunManifest mf = RunManifest.read(out);
    assertEquals("input_ids=1,32;attention_mask=1,32", mf.inputShape());
    assertEquals(List.of("input_ids=1x32", "attention_mask=1x32"), mf.dynamicInputs());
    assertFalse(mf.inputShapeAssumed());
    assertTrue(Files.readString(out.resolve("report.md")).contains("Dynamic inputs measured as `input_ids=1x32"));
    CliRun other = CliRun.of("tune", "--resume", "--out", out.toString(), "--budget", "5", "--input-shape",
        "input_ids=1,8");
    assertEquals(ExitCodes.BAD_INPUT, other.exitCode(), other.err());
    assertTrue(other.err().contains("cannot continue with --input-shape"), other.err());
    CliRun more = CliRun.of("tune", "--resume", "--out", out.toString(), "--budget", "5");
    assertEquals(ExitCodes.OK, more.exitCode(), more.err());
    assertTrue(more.err().contains("dynamic inputs measured as input_ids=1x32"), more.err());
  }

  @Test
  void anyMeasuredStepExportsAsAPlacementFileThatApplyAccepts() throws IOException {
    Path out = tmp.resolve("exp");
    assertEquals(ExitCodes.OK, tune(out, "--budget", "6").exitCode());
    Path file = tmp.resolve("step3.json");
    CliRun r = CliRun.of("export", out.toString(), "--step", "3", "-o", file.toString());
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.out().contains("step 3, ") && r.out().contains("simulated, sim/paper"), r.out());
    var map = org.hsdag.placement.PlacementFiles.readMap(file);
    assertEquals(new org.hsdag.ir.IrReader().read(model).nodeCount(), map.size());
    CliRun apply = CliRun.of("apply", model.toString(), file.toString(), "--backend", "sim", "--rounds", "1");
    assertEquals(ExitCodes.OK, apply.exitCode(), apply.err());
    CliRun stdout = CliRun.of("export", out.toString(), "--step", "0");
    assertEquals(ExitCodes.OK, stdout.exitCode(), stdout.err());
    assertTrue(stdout.out().trim().startsWith("{"), stdout.out());
    CliRun missing = CliRun.of("export", out.toString(), "--step", "99");
    assertEquals(ExitCodes.BAD_INPUT, missing.exitCode());
    assertTrue(missing.err().contains("has no search step 99 (steps 0-5)"), missing.err());
  }

  private static List<String> assignments(Path run) throws IOException {
    List<String> out = new ArrayList<>();
    for (org.hsdag.tune.LogRecord r : org.hsdag.tune.RunLog.read(run.resolve("log.jsonl")).records()) {
      if (r.hasMeasurement() && "search".equals(r.phase())) {
        out.add(r.assignment());
      }
    }
    return out;
  }

  @Test
  void proxyNoneIsColdHsdagAndTheDefaultStartsWithThePlanner() throws IOException {
    Path cold = tmp.resolve("cold");
    Path coldByOption = tmp.resolve("cold-by-option");
    Path warm = tmp.resolve("warm");
    assertEquals(ExitCodes.OK, tune(cold, "--strategy", "hsdag", "--budget", "8", "--proxy", "none").exitCode());
    assertEquals(ExitCodes.OK,
        tune(coldByOption, "--strategy", "hsdag", "--budget", "8", "-S", "warm-start=false").exitCode());
    assertEquals(ExitCodes.OK, tune(warm, "--strategy", "hsdag", "--budget", "8").exitCode());
    assertEquals(ProxyChoice.NONE, RunManifest.read(cold).config().proxy());
    assertEquals(ProxyChoice.AUTO, RunManifest.read(warm).config().proxy());
    assertEquals(assignments(cold), assignments(coldByOption), "--proxy none is the published cold start");
    assertTrue(!assignments(warm).equals(assignments(cold)), "the warm start measures other placements first");
  }

  @Test
  void aMismatchedMachineIsRecordedNamedAndKeptOnResume() throws IOException {
    Path out = tmp.resolve("mm");
    CliRun r = tune(out, "--strategy", "planner", "--budget", "6", "--mismatch", "0.3");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.out().contains("paper+mismatch(a=0.3,seed=1)"), r.out());
    RunManifest mf = RunManifest.read(out);
    assertEquals(0.3, mf.profileSource().mismatch());
    assertEquals(new ProxyChoice.Profile("paper"), mf.config().proxy(), "the cost model stays the unperturbed profile");
    CliRun more = tune(out, "--resume", "--budget", "9");
    assertEquals(ExitCodes.OK, more.exitCode(), more.err());
    assertTrue(more.out().contains("paper+mismatch(a=0.3,seed=1)"), more.out());
  }

  @Test
  void opTypesTheSimulatorCostsAsCopiesAreNamedInTheResultAndTheReport() throws IOException {
    Path odd = tmp.resolve("odd.xml");
    // An op type OpenVINO reads (opset4's Asinh) that the simulator has no formula for.
    Files.writeString(odd, Files.readString(model).replaceFirst("type=\"ReLU\"( version=\"[^\"]*\")?",
        "type=\"Asinh\" version=\"opset4\""));
    Path out = tmp.resolve("odd-run");
    CliRun r = CliRun.of("tune", odd.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--strategy", "random",
        "--budget", "4", "--top-k", "1", "--final-rounds", "1", "--quiet", "--out", out.toString());
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertEquals(1,
        JSON.readTree(out.resolve("result.json").toFile()).get("unknown_op_types").get("Asinh").asInt());
    assertTrue(Files.readString(out.resolve("report.md")).contains("costed them as memory copies"),
        "report names them");
  }

  @Test
  void reportAndModelsListSpeakJson() throws IOException {
    Path out = tmp.resolve("rj");
    assertEquals(ExitCodes.OK, tune(out, "--budget", "4").exitCode());
    CliRun report = CliRun.of("report", out.toString(), "--json");
    assertEquals(ExitCodes.OK, report.exitCode(), report.err());
    var node = JSON.readTree(report.out());
    assertEquals("completed", node.get("result").get("status").asText());
    assertTrue(node.get("files").size() >= 2, report.out());
    CliRun models = CliRun.of("models", "list", "--json");
    assertEquals(ExitCodes.OK, models.exitCode(), models.err());
    var list = JSON.readTree(models.out());
    assertTrue(list.isArray() && list.size() >= 5, models.out());
    assertEquals("resnet50", list.get(0).get("name").asText());
    assertEquals(396, list.get(0).get("nodes").asInt());
  }

  @Test
  void resumingACompletedRunChangesNothing() throws IOException {
    Path out = tmp.resolve("done");
    assertEquals(ExitCodes.OK, tune(out, "--budget", "6").exitCode());
    String log = Files.readString(out.resolve("log.jsonl"));
    var bestTime = Files.getLastModifiedTime(out.resolve("best.json"));
    CliRun again = tune(out, "--resume");
    assertEquals(ExitCodes.OK, again.exitCode(), again.err());
    assertTrue(again.out().contains("is a completed run; nothing changed"), again.out());
    assertEquals(log, Files.readString(out.resolve("log.jsonl")));
    assertEquals(bestTime, Files.getLastModifiedTime(out.resolve("best.json")));
    // A budget the run has already spent continues nothing either.
    String manifest = Files.readString(out.resolve("manifest.json"));
    CliRun smaller = tune(out, "--resume", "--budget", "4");
    assertEquals(ExitCodes.OK, smaller.exitCode(), smaller.err());
    assertTrue(smaller.out().contains("is a completed run; nothing changed"), smaller.out());
    assertTrue(smaller.out().contains("--budget N (more than 6)"), smaller.out());
    assertEquals(log, Files.readString(out.resolve("log.jsonl")));
    assertEquals(manifest, Files.readString(out.resolve("manifest.json")));
  }

  @Test
  void aNonEmptyFolderThatHoldsNoRunIsRefusedAndKeptAsItWas() throws IOException {
    Path mine = Files.createDirectories(tmp.resolve("mine"));
    Files.writeString(mine.resolve("best.json"), "{\"my\": \"own\"}");
    CliRun r = tune(mine, "--budget", "4");
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().contains(mine + " is not empty and holds no run"), r.err());
    assertEquals("{\"my\": \"own\"}", Files.readString(mine.resolve("best.json")));
    try (var files = Files.list(mine)) {
      assertEquals(List.of(mine.resolve("best.json")), files.toList(), "nothing added");
    }
  }

  @Test
  void mismatchOnResumeIsSaidToBeIgnored() throws IOException {
    Path out = tmp.resolve("mm");
    assertEquals(ExitCodes.OK, tune(out, "--budget", "4", "--mismatch", "0.2").exitCode());
    CliRun r = CliRun.of("tune", "--resume", "--out", out.toString(), "--budget", "6", "--mismatch", "0.3");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.err().lines().anyMatch(l -> l.contains("ignored:") && l.contains("--mismatch")), r.err());
  }

  @Test
  void aSingleDeviceIsRefusedBeforeAnythingIsWritten() {
    Path out = tmp.resolve("one");
    CliRun r = CliRun.of("tune", model.toString(), "--backend", "sim", "--devices", "gpu.1", "--out", out.toString());
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().contains("at least 2 devices (got GPU.1)"), r.err());
    assertFalse(Files.exists(out));
  }

  @Test
  void aCatalogNameWorksWhereAModelPathDoes() {
    CliRun inspect = CliRun.of("inspect", "tiny_chain", "--json");
    assertEquals(ExitCodes.OK, inspect.exitCode(), inspect.err());
    assertTrue(inspect.out().contains("\"nodes\""), inspect.out());
    Path out = tmp.resolve("cat");
    CliRun t = CliRun.of("tune", "tiny_chain", "--backend", "sim", "--devices", "CPU,GPU.1", "--strategy", "random",
        "--budget", "4", "--top-k", "1", "--final-rounds", "1", "--quiet", "--out", out.toString());
    assertEquals(ExitCodes.OK, t.exitCode(), t.err());
    assertTrue(t.out().contains("ms (simulated"), t.out());
  }
}
