package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A tune writes its manifest before it builds the cost model and keeps each part of the build in its folder as it
 * is measured: killed ({@code kill -9}) during the build, it resumes, and the resume continues from what was saved.
 */
class CostModelKillResumeTest {
  /** Generous bound on how long the child may take to get there (a failure guard, not a timing check). */
  private static final long PATIENCE_MS = 120_000;

  @TempDir
  Path tmp;

  private static String readOrEmpty(Path f) throws IOException {
    return Files.exists(f) ? Files.readString(f) : "";
  }

  @Test
  void killedDuringTheBuildItResumesFromThePartItSaved() throws Exception {
    Path model = TestModels.twoBranch(tmp);
    Path out = tmp.resolve("run");
    Path saved = out.resolve(CostModelMeasurements.FILE);
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-Djava.awt.headless=true", "-cp", System.getProperty("java.class.path"),
        PartialProfilingChild.class.getName(), model.toString(), "--devices", "CPU,GPU.1", "--strategy", "random",
        "--budget", "6", "--top-k", "1", "--final-rounds", "1", "--seed", "3", "--out", out.toString()));
    Process child = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    try {
      long deadline = System.currentTimeMillis() + PATIENCE_MS;
      while (child.isAlive() && !readOrEmpty(saved).equals(PartialProfilingChild.FIRST)) {
        assertTrue(System.currentTimeMillis() < deadline, "the first part was never saved");
        Thread.sleep(20);
      }
      assertTrue(child.isAlive(), "the child hangs after the first part");
      child.destroyForcibly(); // SIGKILL: no shutdown hook, no finally
      assertTrue(child.waitFor(60, TimeUnit.SECONDS));
    } finally {
      child.destroyForcibly();
    }
    assertTrue(Files.exists(out.resolve("manifest.json")), "the manifest was written before the build");
    assertFalse(Files.exists(out.resolve("log.jsonl")), "nothing was searched yet");
    assertEquals(PartialProfilingChild.FIRST, Files.readString(saved));

    PartialProfilingChild.TwoParts backend = new PartialProfilingChild.TwoParts(false);
    CommandLine cl = new CommandLine(new TuneCommand(backend));
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err, true));
    cl.setOut(new PrintWriter(new StringWriter(), true));
    int code = cl.execute("--resume", "--out", out.toString());
    assertEquals(ExitCodes.OK, code, err.toString());
    assertEquals(PartialProfilingChild.FIRST, backend.reused, "the saved part was given back to the backend");
    assertTrue(err.toString().contains(
        "hsdag: cost model: reused the profiling saved in the run folder (part 1 of 2); measuring the rest"),
        err.toString());
    assertTrue(err.toString().contains("hsdag: finishing the cost model of tiny_two_branch on parts: measuring what "
        + "the saved profiling lacks"), err.toString());
    assertEquals(PartialProfilingChild.WHOLE, Files.readString(saved), "the rest was measured and saved");
    assertTrue(Files.exists(out.resolve("best.json")));
  }

  @Test
  void aRunStoppedOnceItsBuildWasSavedWholeReusesItWithoutMeasuring() throws Exception {
    Path model = TestModels.twoBranch(tmp);
    Path out = tmp.resolve("run");
    PartialProfilingChild.TwoParts first = new PartialProfilingChild.TwoParts(false);
    int code = new CommandLine(new TuneCommand(first)).execute(model.toString(), "--devices", "CPU,GPU.1",
        "--strategy", "random", "--budget", "3", "--top-k", "1", "--final-rounds", "1", "--out", out.toString(),
        "--quiet");
    assertEquals(ExitCodes.OK, code);
    assertEquals(PartialProfilingChild.WHOLE, Files.readString(out.resolve(CostModelMeasurements.FILE)));

    PartialProfilingChild.TwoParts again = new PartialProfilingChild.TwoParts(false);
    CommandLine cl = new CommandLine(new TuneCommand(again));
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err, true));
    cl.setOut(new PrintWriter(new StringWriter(), true));
    assertEquals(ExitCodes.OK, cl.execute("--resume", "--out", out.toString(), "--budget", "5"), err.toString());
    assertTrue(
        err.toString().contains("hsdag: cost model: reused the profiling saved in the run folder (both parts)\n"),
        err.toString());
    assertFalse(err.toString().contains("building the cost model"), "nothing to measure: " + err);
  }
}
