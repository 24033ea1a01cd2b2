package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hsdag.tune.RunManifest;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What tripped new users: run folders used from elsewhere, caps nothing fits, suggestions that drop options. */
class NewUserPathsTest {
  @TempDir
  Path tmp;

  /** Runs the CLI in a child JVM whose working directory is {@code cwd}. */
  private static CliRun inFolder(Path cwd, String... args) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(CliChild.command(List.of(), List.of(args))).directory(cwd.toFile()).start();
    byte[] out = p.getInputStream().readAllBytes();
    byte[] err = p.getErrorStream().readAllBytes();
    assertTrue(p.waitFor(180, TimeUnit.SECONDS), "child did not finish");
    return new CliRun(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
  }

  @Test
  void aRunStartedWithRelativePathsWorksFromAnyFolder() throws Exception {
    Path work = Files.createDirectories(tmp.resolve("work"));
    TestModels.twoBranch(Files.createDirectories(work.resolve("m")));
    CliRun tune = inFolder(work, "tune", "m/tiny_two_branch.xml", "--backend", "sim", "--devices", "CPU,GPU.1",
        "--strategy", "random", "--budget", "4", "--top-k", "1", "--final-rounds", "1", "--quiet", "--out", "runs/x");
    assertEquals(ExitCodes.OK, tune.exitCode(), tune.err());
    Path run = work.resolve("runs/x");
    // In-process: the working directory is the module's, not work/.
    CliRun export = CliRun.of("export", run.toString(), "--step", "0", "-o", tmp.resolve("s0.json").toString());
    assertEquals(ExitCodes.OK, export.exitCode(), export.err());
    assertTrue(export.out().contains("--backend sim --profile paper"), export.out());
    CliRun resume = CliRun.of("tune", "--resume", "--out", run.toString());
    assertEquals(ExitCodes.OK, resume.exitCode(), resume.err());
    assertTrue(resume.out().contains("is a completed run; nothing changed"), resume.out());

    // A manifest of an older hsdag kept the path as typed: found from the folder the run was started in.
    Path manifest = run.resolve(RunManifest.FILE);
    ObjectNode m = (ObjectNode) new ObjectMapper().readTree(manifest.toFile());
    m.put("modelPath", "m/tiny_two_branch.xml");
    Files.writeString(manifest, m.toString());
    CliRun old = CliRun.of("export", run.toString(), "--step", "0");
    assertEquals(ExitCodes.OK, old.exitCode(), old.err());

    // A model that moved: the error says how to give it, and --model does.
    Path moved = Files.createDirectories(tmp.resolve("elsewhere")).resolve("tiny_two_branch.xml");
    Files.move(work.resolve("m/tiny_two_branch.xml"), moved);
    CliRun gone = CliRun.of("export", run.toString(), "--step", "0");
    assertEquals(ExitCodes.BAD_INPUT, gone.exitCode());
    assertTrue(gone.err().contains("--model FILE"), gone.err());
    CliRun given = CliRun.of("export", run.toString(), "--step", "0", "--model", moved.toString());
    assertEquals(ExitCodes.OK, given.exitCode(), given.err());
    Path other = TestModels.chain(tmp);
    CliRun wrong = CliRun.of("export", run.toString(), "--step", "0", "--model", other.toString());
    assertEquals(ExitCodes.BAD_INPUT, wrong.exitCode());
    assertTrue(wrong.err().contains("is not the model this run tuned"), wrong.err());
  }

  @Test
  void capsThatNothingFitsAreBadInputAndLeaveNoRunFolder() throws IOException {
    Path model = TestModels.twoBranch(tmp);
    CliRun plan = CliRun.of("plan", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--memory",
        "CPU=1KiB,GPU.1=1KiB");
    assertEquals(ExitCodes.BAD_INPUT, plan.exitCode(), plan.out() + plan.err());
    assertEquals(1, plan.err().lines().count(), plan.err());
    assertTrue(plan.err().contains("no placement fits") && plan.err().contains("GPU.1 1.00 KiB"), plan.err());
    assertFalse(plan.err().contains("internal error") || plan.err().contains("GPU.0"), plan.err());

    Path out = tmp.resolve("run");
    CliRun tune = CliRun.of("tune", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--memory",
        "CPU=1KiB,GPU.1=1KiB", "--budget", "3", "--quiet", "--out", out.toString());
    assertEquals(ExitCodes.BAD_INPUT, tune.exitCode(), tune.out() + tune.err());
    assertFalse(Files.exists(out.resolve(RunManifest.FILE)), "a refused run leaves no manifest");
  }

  @Test
  void aCapBelowADevicesRuntimeOverheadIsSaid() throws IOException {
    Path model = TestModels.twoBranch(tmp);
    CliRun plan = CliRun.of("plan", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--memory",
        "GPU.1=100MiB");
    assertEquals(ExitCodes.OK, plan.exitCode(), plan.err());
    assertTrue(plan.err().contains("GPU.1's runtime overhead alone") && plan.err().contains("nothing can be placed"),
        plan.err());
  }

  @Test
  void suggestedCommandsKeepTheOptionsGiven() throws IOException {
    Path model = TestModels.twoBranch(tmp);
    CliRun plan = CliRun.of("plan", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--memory",
        "GPU.1=8GiB");
    assertEquals(ExitCodes.OK, plan.exitCode(), plan.err());
    assertTrue(plan.out().contains(" 1 sub-model;") && !plan.out().contains(" 1 sub-models"), plan.out());
    String next = plan.out().lines().filter(l -> l.startsWith("next:")).findFirst().orElseThrow();
    assertTrue(next.contains(" tune ") && next.contains("--devices CPU,GPU.1") && next.contains("--backend sim")
        && next.contains("--memory GPU.1=8GiB"), next);

    Path saved = tmp.resolve("plan.json");
    CliRun toFile = CliRun.of("plan", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "-o",
        saved.toString());
    String apply = toFile.out().lines().filter(l -> l.startsWith("next:")).findFirst().orElseThrow();
    assertTrue(apply.contains(" apply ") && apply.contains("--backend sim") && !apply.contains("-o "), apply);

    Path run = tmp.resolve("run");
    CliRun tune = CliRun.of("tune", model.toString(), "--backend", "sim", "--profile", "paper", "--devices",
        "CPU,GPU.1", "--strategy", "random", "--budget", "3", "--top-k", "1", "--final-rounds", "1", "--out",
        run.toString());
    assertEquals(ExitCodes.OK, tune.exitCode(), tune.err());
    String after = tune.out().lines().filter(l -> l.startsWith("next:")).findFirst().orElseThrow();
    assertTrue(after.contains("apply") && after.contains("--backend sim --profile paper"), after);
  }

  @Test
  void applyOfABaselineTimesItOnceAndOneRoundHasNoInterval() throws IOException {
    Path model = TestModels.twoBranch(tmp);
    org.hsdag.ir.OpGraph graph = TestModels.read(model);
    Path cpu = tmp.resolve("cpu.json");
    org.hsdag.placement.PlacementFiles.write(cpu, graph,
        org.hsdag.placement.Placement.allOn(org.hsdag.placement.DeviceSet.of("CPU", "GPU.1"), graph.nodeCount(),
            "CPU"));
    CliRun text = CliRun.of("apply", model.toString(), cpu.toString(), "--devices", "CPU,GPU.1", "--backend", "sim",
        "--rounds", "1");
    assertEquals(ExitCodes.OK, text.exitCode(), text.err());
    assertFalse(text.out().contains("NaN"), text.out());
    assertTrue(text.out().contains("1 interleaved round of") && text.out().contains("(one round: no interval)"),
        text.out());
    assertTrue(text.out().contains("CPU-only is this placement"), text.out());
    assertEquals(1, text.out().lines().filter(l -> l.trim().startsWith("CPU-only ")).count(), text.out());

    CliRun json = CliRun.of("apply", model.toString(), cpu.toString(), "--devices", "CPU,GPU.1", "--backend", "sim",
        "--rounds", "2", "--json");
    var n = new ObjectMapper().readTree(json.out());
    assertTrue(n.get("baselines").get("CPU-only").get("same_as_placement").asBoolean(), json.out());
    assertTrue(n.get("baselines").has("GPU.1-only"), json.out());
  }

  @Test
  void aResumedRunsProgressStartsFromTheBestFoundBefore() throws IOException {
    // On resnet50 the planner's first candidate beats both devices alone: the best is a search step.
    Path model = tmp.resolve("resnet50.xml");
    org.hsdag.models.ModelCatalog.get("resnet50").build().writeTo(model, org.hsdag.models.ModelCatalog.DEFAULT_SEED);
    Path run = tmp.resolve("run");
    CliRun first = CliRun.of("tune", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--budget", "2",
        "--patience", "0", "--top-k", "1", "--final-rounds", "1", "--out", run.toString());
    assertEquals(ExitCodes.OK, first.exitCode(), first.err());
    double best = org.hsdag.tune.RunLog.read(run.resolve("log.jsonl")).records().stream()
        .filter(r -> r.hasMeasurement() && r.succeeded() && !"final".equals(r.phase()))
        .mapToDouble(org.hsdag.tune.LogRecord::latencyMs).min().orElseThrow();
    CliRun resumed = CliRun.of("tune", "--resume", "--out", run.toString(), "--budget", "3", "--seed", "7");
    assertEquals(ExitCodes.OK, resumed.exitCode(), resumed.err());
    String start = resumed.err().lines().filter(l -> l.contains("searching:")).findFirst().orElseThrow();
    assertTrue(start.contains(String.format(java.util.Locale.ROOT, "best measured once %.3f ms", best)),
        start + " / " + best);
    assertTrue(resumed.err().contains("ignored: --seed"), resumed.err());

    CliRun done = CliRun.of("tune", "--resume", "--out", run.toString(), "--seed", "7");
    assertTrue(done.out().contains("is a completed run") && done.out().contains("ignored: --seed"), done.out());
  }
}
