package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hsdag.testkit.FakeBackend;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real tune spends its first minutes building the cost model (profiling every op, timing designed
 * splits) before any progress line: that is said when it starts, and a stop during it says what
 * it stopped (Ctrl-C during a long tune once ended with no line at all).
 */
class CostModelBuildTest {
  /** Generous bound on how long the child may take to start (a failure guard, not a timing check). */
  private static final long PATIENCE_MS = 120_000;

  @TempDir
  Path tmp;

  @Test
  void aStopWhileTheRealCostModelIsBuiltSaysSoAfterItWasAnnounced() throws Exception {
    Path model = TestModels.twoBranch(tmp);
    Path out = tmp.resolve("run");
    Path said = tmp.resolve("child.out");
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-Djava.awt.headless=true", "-cp", System.getProperty("java.class.path"), PartialProfilingChild.class.getName(),
        model.toString(), "--devices", "CPU,GPU.1", "--out", out.toString());
    Process child = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(said.toFile()).start();
    try {
      long deadline = System.currentTimeMillis() + PATIENCE_MS;
      while (child.isAlive() && !Files.readString(said).contains("building the cost model")) {
        assertTrue(System.currentTimeMillis() < deadline, "never announced: " + Files.readString(said));
        Thread.sleep(20);
      }
      assertTrue(child.isAlive(), "the child ended before it was stopped: " + Files.readString(said));
      child.destroy(); // SIGTERM: shutdown hooks run, as with Ctrl-C
      assertTrue(child.waitFor(60, TimeUnit.SECONDS));
    } finally {
      child.destroyForcibly();
    }
    String text = Files.readString(said);
    assertTrue(text.contains("hsdag: building the cost model of tiny_two_branch on parts first: profiling every op "
        + "on CPU, GPU.1"), text);
    assertTrue(text.contains(CostModelBuild.interruptedRun(out)), text);
    assertTrue(text.contains("tune --resume --out"), text);
    assertTrue(Files.exists(out.resolve("manifest.json")), "the run began before its cost model: it resumes");
    assertFalse(Files.exists(out.resolve("log.jsonl")), "nothing was searched yet");
  }

  @Test
  void onlyARealBackendWhoseCostModelIsNotBuiltYetMeasuresFirst() throws Exception {
    var graph = new org.hsdag.ir.IrReader().read(TestModels.twoBranch(tmp));
    PartialProfilingChild.TwoParts real = new PartialProfilingChild.TwoParts(true);
    assertTrue(CostModelBuild.measuresFirst(real, graph, null));
    assertFalse(CostModelBuild.measuresFirst(real, graph, "paper"), "a --proxy-profile is computed, not measured");
    assertFalse(CostModelBuild.measuresFirst(FakeBackend.cpuGpu(), graph, null), "simulated");
  }
}
